/**
 * Building blocks for the deliberate breakages of the conformance power tests: reading and
 * rewriting a request's form, matching requests by method and API path, the caller or another
 * user, and canned answers in the server's envelope.
 */
import type { User } from '../../lib/entities/user.js';
import type { ChatApp } from '../../server/app.js';
import type { ApiRequest, ApiResponse } from '../../server/request.js';
import { mapJsonBody, type Mutation } from './conformance.js';

export const SUCCESS: ApiResponse = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"result":"success","msg":""}\n' };

/** A 400 BAD_REQUEST answer with `msg`. */
export const badRequestAnswer = (msg: string): ApiResponse => errorAnswer(msg);

export const formOf = (request: ApiRequest): URLSearchParams => new URLSearchParams(Buffer.from(request.body).toString('utf8'));
export const withForm = (request: ApiRequest, form: URLSearchParams): ApiRequest => ({ ...request, body: new TextEncoder().encode(form.toString()) });
export const apiPath = (request: ApiRequest): string => decodeURIComponent(request.path.replace(/^\/api\/v1/, ''));
export const is = (request: ApiRequest, method: string, path: RegExp): boolean => request.method === method && path.test(apiPath(request));
/** The last integer segment of the path (`/messages/12/history` gives 12). */
export const idIn = (request: ApiRequest): number => Number(/\/(\d+)(?:\/[a-z_]+)?$/.exec(request.path)?.[1]);

/** The user a request authenticates as (Basic credentials), if any. */
export function caller(app: ChatApp, request: ApiRequest): User | undefined {
  const header = request.headers.get('authorization');
  if (!header?.startsWith('Basic ')) return undefined;
  const email = Buffer.from(header.slice(6), 'base64').toString().split(':')[0] ?? '';
  return app.world.usersByEmail.get(email.toLowerCase());
}

/** The request sent as iago (an administrator) instead of its caller. */
export const asIago = (app: ChatApp, request: ApiRequest): ApiRequest => asUser(request, app.world.usersByEmail.get('iago@zulip.com')!);

/** Rewrites one form parameter of matching requests (or drops it when `change` returns undefined). */
export const rewriteParam = (method: string, path: RegExp, name: string, change: (value: string) => string | undefined): Mutation => (request, next) => {
  const form = formOf(request);
  const value = form.get(name);
  if (!is(request, method, path) || value === null) return next(request);
  const changed = change(value);
  if (changed === undefined) form.delete(name);
  else form.set(name, changed);
  return next(withForm(request, form));
};

/** Answers `answer` instead of the server when a matching request carries `name=value`. */
export const refuseValue = (method: string, path: RegExp, name: string, value: string, answer: ApiResponse): Mutation => (request, next) =>
  is(request, method, path) && formOf(request).get(name) === value ? Promise.resolve(answer) : next(request);

/** Rewrites the JSON body of the answers to matching requests. */
export const mapAnswers = (method: string, path: RegExp, change: (body: Record<string, unknown>) => void): Mutation => async (request, next) => {
  const response = await next(request);
  return is(request, method, path) ? mapJsonBody(response, change) : response;
};

/** Rewrites, in place, each event of a type in `GET /events` answers. */
export const mapEvents = (type: string, change: (event: Record<string, unknown>) => void): Mutation =>
  mapAnswers('GET', /^\/events$/, (body) => {
    if (Array.isArray(body.events)) for (const event of body.events as Array<Record<string, unknown>>) if (event.type === type) change(event);
  });

const API = '/api/v1';

/** Role codes of the user entity (owner 100 ... guest 600). */
export const ROLE_CODE = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 } as const;

/** The request with its form changed by `change`. */
export function changeForm(request: ApiRequest, change: (form: URLSearchParams) => void): ApiRequest {
  const form = formOf(request);
  change(form);
  return withForm(request, form);
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

/** Refuses matching requests whose form parameters `refuse` picks, with 400 BAD_REQUEST. */
export const refuseWhen = (method: string, path: RegExp, refuse: (form: URLSearchParams, request: ApiRequest, app: ChatApp) => boolean, msg = 'Invalid argument'): Mutation => (request, next, app) =>
  is(request, method, path) && refuse(formOf(request), request, app) ? Promise.resolve(badRequestAnswer(msg)) : next(request);

/** Answers matching requests' errors with success instead (a repeated operation that "works"). */
export const errorsSucceed = (method: string, path: RegExp): Mutation => async (request, next) => {
  const response = await next(request);
  return is(request, method, path) && response.status >= 400 ? SUCCESS : response;
};

/** Replaces (or drops, when `change` returns undefined) the events of type `type` that polls return. */
export const replaceEvents = (type: string, change: (event: Record<string, unknown>) => Record<string, unknown> | undefined): Mutation =>
  mapAnswers('GET', /^\/events$/, (body) => {
    if (!Array.isArray(body.events)) return;
    body.events = (body.events as Array<Record<string, unknown>>).flatMap((event) => (event.type === type ? (change(event) ?? []) : [event]));
  });
