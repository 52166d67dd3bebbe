/**
 * Writing subscriptions (`bulk_add_subscriptions` / `bulk_remove_subscriptions`): the rows,
 * their colours, and the events that follow. Callers have done every check already.
 */
import { newSubscription, type Stream, SUBSCRIPTION_COLORS } from '../../entities/stream.js';
import type { User } from '../../entities/user.js';
import type { World } from '../../state/world.js';
import { type AlteredUsers, sendAccessGainedEvents, sendPeerEvents, sendRemovalEvents, sendSubscriptionAddEvents } from './subscription-events.js';

/**
 * New subscriptions take the colour the request gave for the channel's exact name, else the
 * first palette colour the user does not use yet (channels by ascending ID), else a palette
 * colour picked by channel ID (the real server's `pick_colors`).
 */
function pickColors(world: World, user: User, streams: readonly Stream[], requested: ReadonlyMap<string, string>): Map<number, string> {
  const used = new Set<string>();
  for (const sub of world.subscriptionsOf(user.id).values()) used.add(sub.color);
  const result = new Map<number, string>();
  const others: Stream[] = [];
  for (const stream of [...streams].sort((a, b) => a.id - b.id)) {
    const color = requested.get(stream.name);
    if (color !== undefined) {
      result.set(stream.id, color);
      used.add(color);
    } else others.push(stream);
  }
  const available = SUBSCRIPTION_COLORS.filter((c) => !used.has(c));
  others.forEach((stream, i) => {
    result.set(stream.id, available[i] ?? (SUBSCRIPTION_COLORS[stream.id % SUBSCRIPTION_COLORS.length] as string));
  });
  return result;
}

export interface AddOutcome {
  /** User ID to channels newly subscribed: new rows first, then reactivated ones. */
  readonly added: Map<number, Stream[]>;
  readonly already: Map<number, Stream[]>;
}

/** What `storeSubscriptions` wrote, for `sendSubscriptionsAddedEvents`. */
export interface StoredSubscriptions extends AddOutcome {
  readonly altered: AlteredUsers;
}

const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => map.set(key, [...(map.get(key) ?? []), value]);

/** Subscribes every user to every channel (new rows or reactivated ones), without events. */
export function storeSubscriptions(world: World, streams: readonly Stream[], users: readonly User[], colors: ReadonlyMap<string, string>): StoredSubscriptions {
  const unique = [...new Map(streams.map((s) => [s.id, s])).values()];
  const toAdd: Array<[User, Stream]> = [];
  const toActivate: Array<[User, Stream]> = [];
  const already = new Map<number, Stream[]>();
  for (const user of users) {
    for (const stream of unique) {
      const sub = world.subscriptions.get(stream.id)?.get(user.id);
      if (sub?.active) push(already, user.id, stream);
      else if (sub) toActivate.push([user, stream]);
      else toAdd.push([user, stream]);
    }
  }
  const added = new Map<number, Stream[]>();
  const altered: AlteredUsers = new Map();
  if (toAdd.length === 0 && toActivate.length === 0) return { added, already, altered };
  for (const user of users) {
    const fresh = toAdd.filter(([u]) => u.id === user.id).map(([, s]) => s);
    const palette = pickColors(world, user, fresh, colors);
    for (const stream of fresh) world.subscribersOf(stream.id).set(user.id, newSubscription(user.id, stream.id, palette.get(stream.id)!));
  }
  for (const [user, stream] of toActivate) world.subscriptions.get(stream.id)!.get(user.id)!.active = true;
  for (const [user, stream] of [...toAdd, ...toActivate]) {
    push(added, user.id, stream);
    altered.set(stream.id, (altered.get(stream.id) ?? new Set()).add(user.id));
  }
  return { added, already, altered };
}

/** The events of stored subscriptions: `stream`/`create` to who gained access, `subscription`/`add`, `peer_add`. */
export function sendSubscriptionsAddedEvents(world: World, stored: StoredSubscriptions): void {
  if (stored.altered.size === 0) return;
  sendAccessGainedEvents(world, stored.altered);
  sendSubscriptionAddEvents(world, stored.added);
  sendPeerEvents(world, 'peer_add', stored.altered);
}

/** Subscribes every user to every channel, reactivating old rows, and sends the events. */
export function addSubscriptions(world: World, streams: readonly Stream[], users: readonly User[], colors: ReadonlyMap<string, string>): AddOutcome {
  const stored = storeSubscriptions(world, streams, users, colors);
  sendSubscriptionsAddedEvents(world, stored);
  return { added: stored.added, already: stored.already };
}

export interface RemoveOutcome {
  readonly removed: Array<[User, Stream]>;
  readonly notRemoved: Array<[User, Stream]>;
}

/** Deactivates the users' subscriptions to the channels and sends the events. */
export function removeSubscriptions(world: World, streams: readonly Stream[], users: readonly User[]): RemoveOutcome {
  const unique = [...new Map(streams.map((s) => [s.id, s])).values()];
  const removed: Array<[User, Stream]> = [];
  const notRemoved: Array<[User, Stream]> = [];
  for (const user of users) {
    for (const stream of unique) {
      if (world.subscriptions.get(stream.id)?.get(user.id)?.active) removed.push([user, stream]);
      else notRemoved.push([user, stream]);
    }
  }
  if (removed.length === 0) return { removed, notRemoved };
  const byUser = new Map<number, Stream[]>();
  const altered: AlteredUsers = new Map();
  for (const [user, stream] of removed) {
    world.subscriptions.get(stream.id)!.get(user.id)!.active = false;
    push(byUser, user.id, stream);
    altered.set(stream.id, (altered.get(stream.id) ?? new Set()).add(user.id));
  }
  sendRemovalEvents(world, byUser, altered);
  return { removed, notRemoved };
}
