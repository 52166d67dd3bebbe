/**
 * Breakage builders the organization power tests share: acting as a more privileged role on
 * some writes, and announcing an event to everyone after a successful request.
 */
import type { ChatEvent } from '../../lib/state/event-hub.js';
import type { ChatApp } from '../../server/app/app.js';
import type { ApiRequest } from '../../server/app/request.js';
import type { Mutation } from './conformance.js';
import { apiPath, asUser, caller, userOfRole } from './power-mutations.js';

/**
 * Requests other than GET whose path (below `/api/v1`) matches `path`, sent by a user of role
 * `from` (or any role `from` accepts), are sent as the first user of role `to` instead.
 */
export const actAs = (path: RegExp, from: number | ((role: number) => boolean), to: number, methods: readonly string[] = ['POST', 'PATCH', 'DELETE']): Mutation => (request, next, app) => {
  const role = caller(app, request)?.role;
  const matches = role !== undefined && (typeof from === 'number' ? role === from : from(role));
  return next(matches && methods.includes(request.method) && path.test(apiPath(request)) ? asUser(request, userOfRole(app, to)) : request);
};

/** After each successful matching request, sends `event(request, app)` to every user as well. */
export const alsoAnnounce = (method: string, path: RegExp, event: (request: ApiRequest, app: ChatApp) => ChatEvent): Mutation => async (request, next, app) => {
  const response = await next(request);
  if (response.status === 200 && request.method === method && path.test(apiPath(request))) app.world.events.send(event(request, app), [...app.world.users.keys()]);
  return response;
};
