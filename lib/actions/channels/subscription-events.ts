/**
 * Events of subscription changes, with the real server's payloads and recipients
 * (`bulk_add_subscriptions` / `bulk_remove_subscriptions` in zerver/actions/streams.py).
 */
import type { Stream } from '../../entities/stream.js';
import { isAdministrator, isGuest } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { Audience } from '../../state/audience.js';
import { activeUsersAudience, adminUserIds, hasChannelMetadataAccess, metadataGroupUserIds } from '../../queries/channels/channel-access.js';
import { channelToApi, subscriberIds } from '../../queries/channels/channels.js';
import { subscriptionToApi } from '../../queries/channels/subscriptions.js';
import type { World } from '../../state/world.js';

/** Channel ID to the users whose subscription changed, in the order the changes were made. */
export type AlteredUsers = Map<number, Set<number>>;

const without = (ids: Iterable<number>, removed: ReadonlySet<number>): number[] => [...ids].filter((id) => !removed.has(id));
const sorted = (ids: Iterable<number>): number[] => [...ids].sort((a, b) => a - b);

/**
 * `stream`/`create` for users who could not see a channel before being subscribed: new members of
 * a private channel (administrators and group members already see it), guests added to a public one.
 */
export function sendAccessGainedEvents(world: World, altered: AlteredUsers): void {
  for (const [streamId, userIds] of altered) {
    const stream = world.streams.get(streamId) as Stream;
    let notify: number[] = [];
    if (stream.inviteOnly) {
      const seers = new Set([...adminUserIds(world), ...metadataGroupUserIds(world, stream)]);
      notify = without(userIds, seers);
    } else if (!stream.isWebPublic && world.has(FEATURES.GUEST_CREATE_EVENT_ON_SUBSCRIBE)) {
      notify = [...userIds].filter((id) => {
        const user = world.users.get(id);
        return user !== undefined && isGuest(user);
      });
    }
    if (notify.length > 0) world.events.send({ type: 'stream', op: 'create', streams: [channelToApi(world, stream)] }, notify);
  }
}

/** One `subscription`/`add` per user, with full subscription objects and their subscriber lists. */
export function sendSubscriptionAddEvents(world: World, byUser: Map<number, Stream[]>): void {
  for (const [userId, streams] of byUser) {
    const subscriptions = streams.map((stream) => {
      const sub = world.subscriptions.get(stream.id)?.get(userId);
      const out = subscriptionToApi(world, stream, sub!);
      out.subscribers = subscriberIds(world, stream.id);
      return out;
    });
    world.events.send({ type: 'subscription', op: 'add', subscriptions }, [userId]);
  }
}

/** Users who see a private channel's subscriber list: subscribers, administrators, group members. */
function privatePeers(world: World, stream: Stream): Set<number> {
  return new Set([...subscriberIds(world, stream.id), ...adminUserIds(world), ...metadataGroupUserIds(world, stream)]);
}

/**
 * `peer_add` / `peer_remove` to the others who see the subscriber list, never to the changed
 * users. Public channels changed for the same users share one event per audience, as the real
 * server's `send_peer_subscriber_events` groups them.
 */
export function sendPeerEvents(world: World, op: 'peer_add' | 'peer_remove', altered: AlteredUsers): void {
  const send = (streamIds: number[], userIds: ReadonlySet<number>, audience: Iterable<number> | Audience) => {
    const recipients = audience instanceof Audience ? audience.without(userIds) : without(audience, userIds);
    if (userIds.size === 0 || (Array.isArray(recipients) && recipients.length === 0)) return;
    world.events.send({ type: 'subscription', op, stream_ids: sorted(streamIds), user_ids: sorted(userIds) }, recipients);
  };
  const groups = new Map<string, { userIds: Set<number>; streams: Stream[] }>();
  for (const [streamId, userIds] of altered) {
    const stream = world.streams.get(streamId) as Stream;
    if (stream.inviteOnly) {
      send([streamId], userIds, privatePeers(world, stream));
      continue;
    }
    const key = sorted(userIds).join(',');
    const group = groups.get(key) ?? { userIds, streams: [] };
    group.streams.push(stream);
    groups.set(key, group);
  }
  const nonGuests = activeUsersAudience(world, { includeGuests: false });
  const guestAware = world.has(FEATURES.GUEST_PEER_AND_CREATE_EVENTS);
  for (const { userIds, streams } of groups.values()) {
    const webPublic: number[] = [];
    const withoutGuests: number[] = [];
    for (const stream of streams) {
      if (!guestAware) withoutGuests.push(stream.id);
      else if (stream.isWebPublic) webPublic.push(stream.id);
      else {
        const subscribers = subscriberIds(world, stream.id);
        if (subscribers.every(nonGuests.includes)) withoutGuests.push(stream.id);
        else send([stream.id], userIds, nonGuests.with(new Set(subscribers)));
      }
    }
    if (webPublic.length > 0) send(webPublic, userIds, activeUsersAudience(world, { includeGuests: true }));
    if (withoutGuests.length > 0) send(withoutGuests, userIds, nonGuests);
  }
}

/**
 * `peer_add` / `peer_remove` for every channel (not archived) where the user's subscription is
 * active: how the real server announces a user's (re)activation or deactivation to the peers.
 */
export function sendPeerEventsForUser(world: World, userId: number, op: 'peer_add' | 'peer_remove'): void {
  const altered: AlteredUsers = new Map();
  for (const [streamId, sub] of world.subscriptionsOf(userId)) {
    const stream = world.streams.get(streamId);
    if (stream && !stream.isArchived && sub.active) altered.set(streamId, new Set([userId]));
  }
  sendPeerEvents(world, op, altered);
}

/** The `stream`/`delete` event: only IDs since level 343, full channel objects before. */
export function streamDeleteEvent(world: World, streams: readonly Stream[]): { type: string; [key: string]: unknown } {
  if (world.has(FEATURES.STREAM_DELETE_EVENT_IDS)) {
    return { type: 'stream', op: 'delete', streams: streams.map((s) => ({ stream_id: s.id })), stream_ids: streams.map((s) => s.id) };
  }
  return { type: 'stream', op: 'delete', streams: streams.map((s) => channelToApi(world, s)) };
}

/**
 * After removals: `subscription`/`remove` to each user, `stream`/`delete` for channels a
 * non-administrator can no longer see, then `peer_remove` to the others.
 */
export function sendRemovalEvents(world: World, byUser: Map<number, Stream[]>, altered: AlteredUsers): void {
  for (const [userId, streams] of byUser) {
    const subscriptions = streams.map((s) => ({ name: s.name, stream_id: s.id }));
    world.events.send({ type: 'subscription', op: 'remove', subscriptions }, [userId]);
    const user = world.users.get(userId);
    if (!user || isAdministrator(user)) continue;
    const lost = streams.filter((s) => !hasChannelMetadataAccess(world, user, s));
    if (lost.length > 0) world.events.send(streamDeleteEvent(world, lost), [userId]);
  }
  sendPeerEvents(world, 'peer_remove', altered);
}
