/** Helpers shared by the subscription and typing tests. */
import { newSubscription } from '../../lib/entities/stream.js';
import type { User } from '../../lib/entities/user.js';
import { type Recorded, recordEvents as recordAll } from './events.js';
import type { Reply, TestServer } from './harness.js';

export const IAGO = 'iago@zulip.com';
export const HAMLET = 'hamlet@zulip.com';
export const OTHELLO = 'othello@zulip.com';
export const CORDELIA = 'cordelia@zulip.com';
export const POLONIUS = 'polonius@zulip.com';
export const DESDEMONA = 'desdemona@zulip.com';
export const SHIVA = 'shiva@zulip.com';
export const PROSPERO = 'prospero@zulip.com';
export const AARON = 'AARON@zulip.com';
export const ZOE = 'ZOE@zulip.com';

export { ofType, type Recorded } from './events.js';

/** Every event sent from now on, with its recipients sorted. */
export function recordEvents(s: TestServer): Recorded[] {
  return recordAll(s, { sortRecipients: true });
}

/** `POST /users/me/subscriptions` as `email`. */
export const sub = (s: TestServer, email: string, params: Record<string, unknown>): Promise<Reply> => s.as(email).post('/users/me/subscriptions', params);

/** The `subscriptions` parameter for channels given by name. */
export const names = (...list: string[]): Array<{ name: string }> => list.map((name) => ({ name }));

export const userOf = (s: TestServer, email: string): User => s.world.users.get(s.id(email)) as User;

/** Channels, subscriptions (with their active flags) and default channels, for "nothing changed" checks. */
export function channelState(s: TestServer): string {
  const w = s.world;
  return JSON.stringify({
    streams: [...w.streams.values()].map((st) => [st.id, st.name]),
    subs: [...w.subscriptions].map(([id, subs]) => [id, [...subs].map(([userId, sub]) => [userId, sub.active, sub.color])]),
    defaults: [...w.defaultStreamIds],
    messages: w.messages.size,
  });
}

export { bad } from './harness.js';

export const sortedIds = (ids: Iterable<number>): number[] => [...ids].sort((a, b) => a - b);

/** Adds `count` active members (copies of hamlet) subscribed to `streamId`; returns their IDs. */
export function addSubscribedMembers(s: TestServer, streamId: number, count: number): number[] {
  const template = userOf(s, HAMLET);
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const id = s.world.ids.next('user') + 1000;
    s.world.addUser({
      ...template,
      id,
      deliveryEmail: `extra${id}@zulip.com`,
      settings: new Map(template.settings),
      profileData: new Map(),
    });
    s.world.subscribersOf(streamId).set(id, newSubscription(id, streamId, '#76ce90'));
    ids.push(id);
  }
  return ids;
}

/** Active users of the realm (no cross-realm bots), sorted, optionally without guests. */
export function activeIds(s: TestServer, options: { guests: boolean }): number[] {
  return sortedIds(
    [...s.world.users.values()].filter((u) => u.isActive && !u.isSystemBot && (options.guests || u.role !== 600)).map((u) => u.id),
  );
}
