/**
 * Building blocks for the deliberate breakages of the conformance power tests: reading and
 * rewriting a request's form, matching requests by method and API path, the caller, and canned
 * answers in the server's envelope.
 */
import type { User } from '../../lib/entities/user.js';
import type { ChatApp } from '../../server/app.js';
import type { ApiRequest, ApiResponse } from '../../server/request.js';
import { mapJsonBody, type Mutation } from './conformance.js';

export const SUCCESS: ApiResponse = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"result":"success","msg":""}\n' };

/** A 400 BAD_REQUEST answer with `msg`. */
export const badRequestAnswer = (msg: string): ApiResponse => ({ ...SUCCESS, status: 400, body: `${JSON.stringify({ result: 'error', msg, code: 'BAD_REQUEST' })}\n` });

export const formOf = (request: ApiRequest): URLSearchParams => new URLSearchParams(Buffer.from(request.body).toString('utf8'));
export const withForm = (request: ApiRequest, form: URLSearchParams): ApiRequest => ({ ...request, body: new TextEncoder().encode(form.toString()) });
export const apiPath = (request: ApiRequest): string => decodeURIComponent(request.path.replace(/^\/api\/v1/, ''));
export const is = (request: ApiRequest, method: string, path: RegExp): boolean => request.method === method && path.test(apiPath(request));
/** The last integer segment of the path (`/messages/12/history` gives 12). */
export const idIn = (request: ApiRequest): number => Number(/\/(\d+)(?:\/[a-z_]+)?$/.exec(request.path)?.[1]);

/** The user a request authenticates as (Basic credentials), if any. */
export function caller(app: ChatApp, request: ApiRequest): User | undefined {
  const header = request.headers.get('authorization') ?? '';
  const email = Buffer.from(header.replace(/^Basic /, ''), 'base64').toString().split(':')[0] ?? '';
  return app.world.usersByEmail.get(email.toLowerCase());
}

/** The request sent as iago (an administrator) instead of its caller. */
export function asIago(app: ChatApp, request: ApiRequest): ApiRequest {
  const iago = app.world.usersByEmail.get('iago@zulip.com')!;
  const headers = new Map(request.headers).set('authorization', `Basic ${Buffer.from(`${iago.deliveryEmail}:${iago.apiKey}`).toString('base64')}`);
  return { ...request, headers };
}

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

/** Rewrites each event of a type in `GET /events` answers. */
export const mapEvents = (type: string, change: (event: Record<string, unknown>) => void): Mutation =>
  mapAnswers('GET', /^\/events$/, (body) => {
    if (Array.isArray(body.events)) for (const event of body.events as Array<Record<string, unknown>>) if (event.type === type) change(event);
  });
