/**
 * Breakages the power tests of reactions, flags, unread messages and read receipts share: an
 * error code answered as success, events dropped or duplicated per caller, an event also sent
 * to everybody, the form's JSON parameters, and the flags of a message in the reference world.
 */
import type { ChatApp } from '../../server/app/app.js';
import type { ApiRequest } from '../../server/app/request.js';
import type { Mutation } from './conformance.js';
import { caller, formOf, is, rewriteAnswer, withForm } from './power-helpers.js';
import { jsonParam, replaceEvents, SUCCESS } from './power-mutations.js';

export const REACTIONS = /^\/messages\/\d+\/reactions$/;
export const FLAGS = /^\/messages\/flags$/;
export const FLAGS_NARROW = /^\/messages\/flags\/narrow$/;
export const MESSAGE = /^\/messages\/\d+$/;
export const MESSAGES = /^\/messages$/;
export const REGISTER = /^\/register$/;
export const RECEIPTS = /^\/messages\/\d+\/read_receipts$/;
export const MARK_STREAM = /^\/mark_stream_as_read$/;
export const MARK_ALL = /^\/mark_all_as_read$/;

/** The JSON body of an answer (undefined when it is not JSON). */
function answerBody(text: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Answers success instead of matching requests' errors whose body `refused` picks. */
export const errorSucceeds = (method: string, path: RegExp, refused: (body: Record<string, unknown>) => boolean): Mutation => async (request, next) => {
  const response = await next(request);
  if (!is(request, method, path) || response.status < 400) return response;
  const body = answerBody(response.body);
  return body && refused(body) ? SUCCESS : response;
};

/** The events of `GET /events` answers, changed per caller: `change` returns what replaces each event of `type`. */
export const eventsPerCaller = (type: string, change: (event: Record<string, unknown>, callerId: number) => Array<Record<string, unknown>>): Mutation =>
  rewriteAnswer(
    (request) => is(request, 'GET', /^\/events$/),
    (body, request, app) => {
      if (!Array.isArray(body.events)) return;
      const callerId = caller(app, request)?.id ?? 0;
      body.events = (body.events as Array<Record<string, unknown>>).flatMap((event) => (event.type === type ? change(event, callerId) : [event]));
    },
  );

/** After each successful matching request, `event(request, app)` is also sent to every user of the realm. */
export const alsoToEveryone = (method: string, path: RegExp, event: (request: ApiRequest, app: ChatApp) => Record<string, unknown> & { type: string }): Mutation => async (request, next, app) => {
  const response = await next(request);
  if (is(request, method, path) && response.status === 200) app.world.events.send(event(request, app), [...app.world.users.keys()]);
  return response;
};

/** A parameter missing from matching requests is taken as `value` (instead of being refused). */
export const defaultWhenMissing = (method: string, path: RegExp, name: string, value: string): Mutation => (request, next) => {
  const form = formOf(request);
  if (!is(request, method, path) || form.has(name)) return next(request);
  form.set(name, value);
  return next(withForm(request, form));
};

/** No `update_message_flags` event when a request changed nothing (the real server sends one with no messages). */
export const noEventWhenUnchanged: Mutation = replaceEvents('update_message_flags', (event) =>
  Array.isArray(event.messages) && event.messages.length === 0 && event.all !== true ? undefined : event,
);

/** The message IDs a `POST /messages/flags` request names. */
export const requestedIds = (request: ApiRequest): number[] => jsonParam<number[]>(formOf(request), 'messages') ?? [];

/** A user's flags on a message of the reference world (an empty set when the user has no row). */
export const flagsIn = (app: ChatApp, messageId: number, userId: number): Set<string> => app.world.messages.get(messageId)?.flags.get(userId) ?? new Set();
