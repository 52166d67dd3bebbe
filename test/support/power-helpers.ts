/**
 * Small building blocks of deliberate breakages (`Mutation`s) for the conformance power tests:
 * reading a request's path, form and caller, rewriting answers.
 */
import { randomBytes } from 'node:crypto';
import type { User } from '../../lib/entities/user.js';
import type { ChatApp } from '../../server/app/app.js';
import type { ApiRequest, ApiResponse } from '../../server/app/request.js';
import { mapJsonBody, type Mutation } from './conformance.js';

/** The request path below `/api/v1`, decoded. */
export const apiPath = (request: ApiRequest): string => decodeURIComponent(request.path.replace(/^\/api\/v1/, ''));

/** Whether the request is `method` on a path matching `path` (below `/api/v1`). */
export const is = (request: ApiRequest, method: string, path: RegExp): boolean => request.method === method && path.test(apiPath(request));

/** The form body of a request. */
export const formOf = (request: ApiRequest): URLSearchParams => new URLSearchParams(Buffer.from(request.body).toString('utf8'));

/** The request with another form body. */
export const withForm = (request: ApiRequest, form: URLSearchParams): ApiRequest => ({ ...request, body: new TextEncoder().encode(form.toString()) });

/** The request with an extra query parameter. */
export const withQuery = (request: ApiRequest, name: string, value: string): ApiRequest => ({ ...request, query: [...request.query, [name, value]] });

/** The user a request's Basic credentials name (by email), if any. */
export function caller(app: ChatApp, request: ApiRequest): User | undefined {
  const header = request.headers.get('authorization') ?? '';
  if (!/^basic /i.test(header)) return undefined;
  const email = Buffer.from(header.slice(6), 'base64').toString().split(':')[0] ?? '';
  return app.world.usersByEmail.get(email.toLowerCase());
}

/** The request sent with `user`'s credentials instead of its own. */
export function actingAs(request: ApiRequest, user: User): ApiRequest {
  const headers = new Map(request.headers).set('authorization', `Basic ${Buffer.from(`${user.deliveryEmail}:${user.apiKey}`).toString('base64')}`);
  return { ...request, headers };
}

/** The request sent as iago (an administrator). */
export const asIago = (app: ChatApp, request: ApiRequest): ApiRequest => actingAs(request, app.world.usersByEmail.get('iago@zulip.com')!);

/** A JSON error answer. */
export function errorAnswer(status: number, code: string, msg: string, headers: Readonly<Record<string, string>> = {}): ApiResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: `${JSON.stringify({ result: 'error', msg, code })}\n` };
}

/** The answer with headers matching `name` (any case) removed. */
export const withoutHeader = (response: ApiResponse, name: RegExp): ApiResponse => ({
  ...response,
  headers: Object.fromEntries(Object.entries(response.headers).filter(([key]) => !name.test(key))),
});

/** Rewrites the JSON answers of requests that `when` selects. */
export const rewriteAnswer = (when: (request: ApiRequest, app: ChatApp) => boolean, change: (body: Record<string, unknown>, request: ApiRequest, app: ChatApp) => void): Mutation =>
  async (request, next, app) => {
    const response = await next(request);
    return when(request, app) ? mapJsonBody(response, (body) => change(body, request, app)) : response;
  };

/** The `members` of a `GET /users` answer (or the `user` of `GET /users/{id}`) as objects. */
export function usersIn(body: Record<string, unknown>): Array<Record<string, unknown>> {
  if (Array.isArray(body.members)) return body.members as Array<Record<string, unknown>>;
  return body.user !== null && typeof body.user === 'object' ? [body.user as Record<string, unknown>] : [];
}

/** A fresh API key (32 letters and digits). */
export const newApiKey = (): string => randomBytes(24).toString('base64').replace(/[^A-Za-z0-9]/g, 'a').slice(0, 32);
