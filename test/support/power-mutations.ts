/**
 * Building blocks for the deliberate breakages of the power tests: reading and rewriting a
 * request's form, acting as another user, and answering with an error or a plain success.
 */
import type { User } from '../../lib/entities/user.js';
import type { ChatApp } from '../../server/app.js';
import type { ApiRequest, ApiResponse } from '../../server/request.js';
import type { Mutation } from './conformance.js';

const API = '/api/v1';

/** Role codes of the user entity (owner 100 ... guest 600). */
export const ROLE_CODE = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 } as const;

/** The form parameters of a request body. */
export const formOf = (request: ApiRequest): URLSearchParams => new URLSearchParams(Buffer.from(request.body).toString());

/** The request with a rewritten form body. */
export const withForm = (request: ApiRequest, form: URLSearchParams): ApiRequest => ({ ...request, body: new TextEncoder().encode(form.toString()) });

/** The request with its form changed by `change`. */
export function changeForm(request: ApiRequest, change: (form: URLSearchParams) => void): ApiRequest {
  const form = formOf(request);
  change(form);
  return withForm(request, form);
}

/** The user authenticated by a request's Basic header. */
export function caller(app: ChatApp, request: ApiRequest): User | undefined {
  const header = request.headers.get('authorization');
  if (!header?.startsWith('Basic ')) return undefined;
  const email = Buffer.from(header.slice(6), 'base64').toString().split(':')[0] ?? '';
  return app.world.usersByEmail.get(email.toLowerCase());
}

/** The same request authenticated as `user`. */
export function asUser(request: ApiRequest, user: User): ApiRequest {
  const headers = new Map(request.headers).set('authorization', `Basic ${Buffer.from(`${user.deliveryEmail}:${user.apiKey}`).toString('base64')}`);
  return { ...request, headers };
}

/** The first user of a role (the development realm has one owner, one administrator, ...). */
export function userOfRole(app: ChatApp, role: number): User {
  const user = [...app.world.users.values()].find((candidate) => candidate.role === role && candidate.isActive && !candidate.isBot);
  if (!user) throw new Error(`no user of role ${role}`);
  return user;
}

/** Changes only requests of this method whose path (after `/api/v1`) is `path` or matches it. */
export const on =
  (method: string, path: string | RegExp, mutate: Mutation): Mutation =>
  (request, next, app) => {
    const local = request.path.startsWith(API) ? request.path.slice(API.length) : request.path;
    const matches = request.method === method && (typeof path === 'string' ? local === path : path.test(local));
    return matches ? mutate(request, next, app) : next(request);
  };

/** A JSON error answer as the real server gives it. */
export const errorAnswer = (msg: string, code = 'BAD_REQUEST', status = 400): ApiResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ result: 'error', msg, code }),
});

/** A plain success answer. */
export const plainSuccess: ApiResponse = { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ result: 'success', msg: '' }) };

/** The parsed JSON value of a form parameter (undefined when absent or not JSON). */
export function jsonParam<T>(form: URLSearchParams, name: string): T | undefined {
  const raw = form.get(name);
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

/** Code-point length. */
export const codePoints = (text: string): number => [...text].length;
