/**
 * Building blocks for the deliberate breakages of the conformance power tests: reading and
 * rewriting a request's form, matching requests by method and API path, the caller or another
 * user, canned answers in the server's envelope; and the two halves every power table runs.
 */
import t from 'tap';
import type { User } from '../../lib/entities/user.js';
import type { ChatApp } from '../../server/app/app.js';
import type { ApiRequest, ApiResponse } from '../../server/app/request.js';
import { failedIds, failureLines, mapJsonBody, type Mutation, runOnReference } from './conformance.js';
import { errorAnswer, formOf, is, rewriteAnswer, withForm } from './power-helpers.js';

export const SUCCESS: ApiResponse = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"result":"success","msg":""}\n' };

/** A 400 BAD_REQUEST answer with `msg`. */
export const badRequestAnswer = (msg: string): ApiResponse => errorAnswer(400, 'BAD_REQUEST', msg);

// Reading requests and acting as another user: the helpers every power test shares.
export { actingAs as asUser, apiPath, asIago, caller, formOf, is, withForm } from './power-helpers.js';

/** The last integer segment of the path (`/messages/12/history` gives 12). */
export const idIn = (request: ApiRequest): number => Number(/\/(\d+)(?:\/[a-z_]+)?$/.exec(request.path)?.[1]);

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
export const mapAnswers = (method: string, path: RegExp, change: (body: Record<string, unknown>) => void): Mutation =>
  rewriteAnswer((request) => is(request, method, path), change);

/** Rewrites, in place, each event of a type in `GET /events` answers. */
export const mapEvents = (type: string, change: (event: Record<string, unknown>) => void): Mutation =>
  replaceEvents(type, (event) => {
    change(event);
    return event;
  });

const API = '/api/v1';


/** The request with its form changed by `change`. */
export function changeForm(request: ApiRequest, change: (form: URLSearchParams) => void): ApiRequest {
  const form = formOf(request);
  change(form);
  return withForm(request, form);
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

/** One deliberate breakage of the server and the rule that must catch it (at `level` when the breakage needs one). */
export interface Breakage {
  readonly what: string;
  readonly rule: string;
  readonly mutate: Mutation;
  readonly level?: number;
}

/**
 * One test per level: every rule of `only` passes against the unbroken reference server, and at
 * least `minPassed` of them ran (`family` names the rules in the titles: "every sharp realm rule").
 */
export function passesUnbroken(family: string, only: readonly string[], levels: readonly number[], numRuns: number, minPassed = 1): void {
  for (const level of levels) {
    t.test(`${family} passes against the unbroken reference server at feature level ${level}`, async (t) => {
      const result = await runOnReference({ featureLevel: level, numRuns, seed: 1, only });
      t.same(failureLines(result), []);
      t.ok(result.results.filter((r) => r.outcome === 'passed').length >= minPassed);
    });
  }
}

/** One test per breakage: against the broken server exactly the breakage's rule fails. */
export function eachBreakageFailsItsRule(breakages: readonly Breakage[], numRuns: number): void {
  for (const breakage of breakages) {
    t.test(`${breakage.rule} fails when ${breakage.what}`, async (t) => {
      const result = await runOnReference({ mutate: breakage.mutate, numRuns, seed: 3, only: [breakage.rule], ...(breakage.level === undefined ? {} : { featureLevel: breakage.level }) });
      t.same(failedIds(result), [breakage.rule]);
    });
  }
}
