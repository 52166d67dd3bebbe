/**
 * Building blocks of the message power tests' breakages: reading and rewriting query parameters
 * (`GET /messages` takes its parameters in the query string), the narrow a request carries, and
 * the caller's role.
 */
import type { ChatApp } from '../../server/app/app.js';
import type { ApiRequest } from '../../server/app/request.js';
import type { Mutation } from './conformance.js';
import { apiPath, caller, rewriteAnswer } from './power-helpers.js';

/** A query parameter of the request (undefined when absent). */
export const queryParam = (request: ApiRequest, name: string): string | undefined => request.query.find(([key]) => key === name)?.[1];

/** The request with query parameter `name` set to `value`, or removed when `value` is undefined. */
export function withQueryParam(request: ApiRequest, name: string, value: string | undefined): ApiRequest {
  const query = request.query.filter(([key]) => key !== name);
  return { ...request, query: value === undefined ? query : [...query, [name, value]] };
}

/** Whether the request is `GET` on an API path matching `path`. */
export const isGet = (request: ApiRequest, path: RegExp): boolean => request.method === 'GET' && path.test(apiPath(request));

export const MESSAGES = /^\/messages$/;

/** Rewrites the query of matching `GET` requests (`change` returns the new request). */
export const onGet = (path: RegExp, change: (request: ApiRequest, app: ChatApp) => ApiRequest): Mutation => (request, next, app) =>
  next(isGet(request, path) ? change(request, app) : request);

/** Rewrites the JSON answers of matching `GET` requests. */
export const mapGetAnswers = (path: RegExp, change: (body: Record<string, unknown>, request: ApiRequest) => void): Mutation =>
  rewriteAnswer((request) => isGet(request, path), (body, request) => change(body, request));

/** A narrow term in either wire form, as an object. */
export interface WireTerm {
  operator: string;
  operand: unknown;
  negated?: boolean;
}

/** The narrow of a request (query parameter), its terms as objects; undefined without one. */
export function narrowOf(request: ApiRequest): WireTerm[] | undefined {
  const raw = queryParam(request, 'narrow');
  if (raw === undefined) return undefined;
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (!Array.isArray(parsed)) return undefined;
    return parsed.map((term) => (Array.isArray(term) ? { operator: String(term[0]), operand: term[1] } : (term as WireTerm)));
  } catch {
    return undefined;
  }
}

/** Rewrites the narrow of matching `GET` requests (`change` returns the terms to send instead). */
export const rewriteNarrow = (path: RegExp, change: (terms: WireTerm[]) => WireTerm[]): Mutation =>
  onGet(path, (request) => {
    const terms = narrowOf(request);
    return terms ? withQueryParam(request, 'narrow', JSON.stringify(change(terms))) : request;
  });

/** Whether the caller has this role code. */
export const callerHasRole = (app: ChatApp, request: ApiRequest, role: number): boolean => caller(app, request)?.role === role;
