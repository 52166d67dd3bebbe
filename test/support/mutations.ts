/**
 * Building blocks for deliberate breakages of our server (`Mutation`s) in the conformance power
 * tests: reading and rewriting a request's form parameters, answering with an error instead,
 * acting as another user, and rewriting the events a poll returns.
 */
import type { User } from '../../lib/entities/user.js';
import type { ChatApp } from '../../server/app.js';
import type { ApiRequest, ApiResponse } from '../../server/request.js';
import { mapJsonBody, type Mutation } from './conformance.js';

/** The form body of a request (where POST, PATCH and DELETE parameters travel). */
export const formOf = (request: ApiRequest): URLSearchParams => new URLSearchParams(Buffer.from(request.body).toString('utf8'));

/** The request with another form body. */
export const withForm = (request: ApiRequest, form: URLSearchParams): ApiRequest => ({ ...request, body: new TextEncoder().encode(form.toString()) });

/** The path after `/api/v1`, percent-decoded. */
export const apiPath = (request: ApiRequest): string => decodeURIComponent(request.path.replace(/^\/api\/v1/, ''));

/** Whether the request has this method and its API path matches. */
export const is = (request: ApiRequest, method: string, path: RegExp): boolean => request.method === method && path.test(apiPath(request));

/** The first number in the API path (`/users/10/status` gives 10). */
export const idIn = (request: ApiRequest): number => Number(/\/(\d+)/.exec(apiPath(request))?.[1]);

/** Code points, as the real server counts characters. */
export const codePoints = (text: string): number => [...text].length;

/** The user a request authenticates as (Basic credentials), if any. */
export function callerOf(app: ChatApp, request: ApiRequest): User | undefined {
  const header = request.headers.get('authorization') ?? '';
  const email = Buffer.from(header.replace(/^Basic /, ''), 'base64').toString().split(':')[0] ?? '';
  return app.world.usersByEmail.get(email.toLowerCase());
}

/** The request sent as iago (an administrator) instead of its caller. */
export function asAdmin(app: ChatApp, request: ApiRequest): ApiRequest {
  const iago = app.world.usersByEmail.get('iago@zulip.com')!;
  const headers = new Map(request.headers).set('authorization', `Basic ${Buffer.from(`${iago.deliveryEmail}:${iago.apiKey}`).toString('base64')}`);
  return { ...request, headers };
}

/** A 400 BAD_REQUEST answer with this message. */
export const badRequest = (msg: string): Promise<ApiResponse> =>
  Promise.resolve({ status: 400, headers: { 'content-type': 'application/json' }, body: `${JSON.stringify({ result: 'error', msg, code: 'BAD_REQUEST' })}\n` });

/** A plain success answer. */
export const success = (): Promise<ApiResponse> => Promise.resolve({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"result":"success","msg":""}\n' });

/** Rewrites one form parameter of matching requests (drops it when `change` returns undefined). */
export const rewriteParam = (method: string, path: RegExp, name: string, change: (value: string) => string | undefined): Mutation => (request, next) => {
  const form = formOf(request);
  const value = form.get(name);
  if (!is(request, method, path) || value === null) return next(request);
  const changed = change(value);
  if (changed === undefined) form.delete(name);
  else form.set(name, changed);
  return next(withForm(request, form));
};

/** Refuses matching requests whose form parameters `refuse` picks, with 400 BAD_REQUEST. */
export const refuseWhen = (method: string, path: RegExp, refuse: (form: URLSearchParams, request: ApiRequest, app: ChatApp) => boolean, msg = 'Invalid argument'): Mutation => (request, next, app) =>
  is(request, method, path) && refuse(formOf(request), request, app) ? badRequest(msg) : next(request);

/** Answers matching requests' errors with success instead (a repeated operation that "works"). */
export const errorsSucceed = (method: string, path: RegExp): Mutation => async (request, next) => {
  const response = await next(request);
  return is(request, method, path) && response.status >= 400 ? success() : response;
};

/** Rewrites a JSON success body of matching requests. */
export const mapBody = (method: string, path: RegExp, change: (body: Record<string, unknown>) => void): Mutation => async (request, next) => {
  const response = await next(request);
  return is(request, method, path) ? mapJsonBody(response, change) : response;
};

/** Rewrites (or drops, when `change` returns undefined) the events of type `type` that polls return. */
export const mapEvents = (type: string, change: (event: Record<string, unknown>) => Record<string, unknown> | undefined): Mutation =>
  mapBody('GET', /^\/events$/, (body) => {
    if (!Array.isArray(body.events)) return;
    body.events = (body.events as Array<Record<string, unknown>>).flatMap((event) => (event.type === type ? (change(event) ?? []) : [event]));
  });
