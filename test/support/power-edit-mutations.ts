/**
 * Breakages of edits, moves and deletions for the power tests: requests to one message sent as
 * someone else or with a realm setting briefly changed, and events sent to every user.
 */
import { namedGroup } from '../../lib/entities/group.js';
import type { Message } from '../../lib/entities/message.js';
import type { RealmPermissionSetting } from '../../lib/entities/realm.js';
import { ROLE } from '../../lib/entities/user.js';
import type { ChatEvent } from '../../lib/state/event-hub.js';
import type { ChatApp } from '../../server/app/app.js';
import type { ApiRequest } from '../../server/app/request.js';
import type { Mutation } from './conformance.js';
import { apiPath, asIago, asUser, badRequestAnswer, caller, formOf, is } from './power-mutations.js';

/** `PATCH`/`DELETE /messages/{id}` and the edit typing path. */
export const MESSAGE = /^\/messages\/\d+$/;
export const EDIT_TYPING = /^\/messages\/\d+\/typing$/;

/** The message a `/messages/{id}...` request names. */
export function messageOf(app: ChatApp, request: ApiRequest): Message | undefined {
  const id = Number(/^\/messages\/(\d+)/.exec(apiPath(request))?.[1]);
  return app.world.messages.get(id);
}

/** Sends matching requests as the administrator when `when` holds (the caller's role and the message). */
export const asAdministratorWhen = (method: string, path: RegExp, when: (role: number, message: Message | undefined, form: URLSearchParams) => boolean): Mutation => (request, next, app) => {
  const role = caller(app, request)?.role;
  return is(request, method, path) && role !== undefined && when(role, messageOf(app, request), formOf(request)) ? next(asIago(app, request)) : next(request);
};

/** Sends matching requests as the message's sender (someone else's edit goes through as theirs). */
export const asSenderWhen = (method: string, path: RegExp, when: (role: number) => boolean): Mutation => (request, next, app) => {
  const message = messageOf(app, request);
  const sender = message === undefined ? undefined : app.world.users.get(message.senderId);
  const role = caller(app, request)?.role;
  return is(request, method, path) && sender !== undefined && role !== undefined && when(role) ? next(asUser(request, sender)) : next(request);
};

/** Refuses matching requests of callers of `role` with 400, as a missing right. */
export const refuseRole = (method: string, path: RegExp, role: number, when: (form: URLSearchParams) => boolean = () => true): Mutation => (request, next, app) =>
  is(request, method, path) && caller(app, request)?.role === role && when(formOf(request)) ? Promise.resolve(badRequestAnswer("You don't have permission to edit this message")) : next(request);

/** Runs matching requests with the realm's content edit limit and editing switch lifted. */
export const realmLimitsLifted = (when: (message: Message | undefined, form: URLSearchParams) => boolean): Mutation => async (request, next, app) => {
  if (!is(request, 'PATCH', MESSAGE) || !when(messageOf(app, request), formOf(request))) return next(request);
  const realm = app.world.realm;
  const saved = { limit: realm.messageContentEditLimitSeconds, allowed: realm.allowMessageEditing };
  realm.messageContentEditLimitSeconds = null;
  realm.allowMessageEditing = true;
  try {
    return await next(request);
  } finally {
    realm.messageContentEditLimitSeconds = saved.limit;
    realm.allowMessageEditing = saved.allowed;
  }
};

/** Runs matching requests with the realm setting `setting` briefly given to everyone. */
export const realmSettingOpened = (setting: RealmPermissionSetting, when: (role: number, form: URLSearchParams) => boolean): Mutation => async (request, next, app) => {
  const role = caller(app, request)?.role;
  if (!is(request, 'PATCH', MESSAGE) || role === undefined || !when(role, formOf(request))) return next(request);
  const settings = app.world.realm.settings;
  const saved = settings.get(setting);
  settings.set(setting, namedGroup(app.world.systemGroupId('role:everyone')));
  try {
    return await next(request);
  } finally {
    if (saved !== undefined) settings.set(setting, saved);
  }
};

/** Whether the message is older than a week (past the default move limits). */
export const olderThanAWeek = (app: ChatApp, message: Message | undefined): boolean => message !== undefined && app.world.now() - message.sentAt > 7 * 86_400_000;

/**
 * Events of `type` that a request sends also reach, once, every user of the realm who got none
 * (the other users' copies are left as they were).
 */
export const leakEvents = (type: string): Mutation => async (request, next, app) => {
  const hub = app.world.events;
  const send = hub.send;
  const sent = new Map<string, { event: ChatEvent; to: Set<number> }>();
  hub.send = (event, userIds) => {
    send.call(hub, event, userIds);
    if (event.type !== type) return;
    const key = JSON.stringify([event.message_id ?? event.message_ids, event.op]);
    const entry = sent.get(key) ?? { event, to: new Set<number>() };
    for (const id of userIds) entry.to.add(id);
    sent.set(key, entry);
  };
  try {
    return await next(request);
  } finally {
    hub.send = send;
    for (const { event, to } of sent.values()) send.call(hub, event, [...app.world.users.keys()].filter((id) => !to.has(id)));
  }
};

/** Whether the caller is a member (not a moderator or above, not a guest). */
export const isMember = (role: number): boolean => role === ROLE.MEMBER;
