/**
 * Unread messages as the real server keeps them (`get_raw_unread_data`, `aggregate_unread_data`):
 * the `unread_msgs` register state and the `message_details` of flag events that mark messages
 * unread. A row without `read` is unread unless its channel subscription is inactive.
 */
import { VISIBILITY_POLICY } from '../../entities/personal.js';
import type { Message } from '../../entities/message.js';
import type { User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { displayTopic } from '../../input/topic-names.js';
import { ascending } from '../../state/history/id-sources.js';
import type { World } from '../../state/world.js';
import { topicVisibilityPolicy } from '../personal/user-topics.js';

const WILDCARD_FLAGS = ['stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

/**
 * Whether a channel message counts for the user: an unmuted topic of an unmuted channel, or an
 * unmuted or followed topic of a muted channel.
 */
export function isUnmutedForUser(world: World, userId: number, streamId: number, topic: string): boolean {
  const muted = world.subscriptions.get(streamId)?.get(userId)?.isMuted === true;
  const policy = topicVisibilityPolicy(world, userId, streamId, topic);
  if (muted) return policy === VISIBILITY_POLICY.UNMUTED || policy === VISIBILITY_POLICY.FOLLOWED;
  return policy !== VISIBILITY_POLICY.MUTED;
}

/** Whether the user's row (if any) makes this message unread for them. */
export function isUnreadFor(world: World, userId: number, message: Message): boolean {
  const flags = message.flags.get(userId);
  if (!flags || flags.has('read')) return false;
  if (message.recipient.kind === 'direct') return true;
  return world.subscriptions.get(message.recipient.streamId)?.get(userId)?.active !== false;
}

/** Whether the unread message counts as a mention: direct ones always, wildcards only where unmuted. */
function isUnreadMention(world: World, userId: number, message: Message): boolean {
  const flags = message.flags.get(userId) ?? new Set<string>();
  if (flags.has('mentioned')) return true;
  if (!WILDCARD_FLAGS.some((f) => flags.has(f))) return false;
  return message.recipient.kind === 'direct' || isUnmutedForUser(world, userId, message.recipient.streamId, message.recipient.topic);
}

/** The other participant of a one-on-one conversation (the user themself for a self-DM); null for groups. */
function otherUserId(userId: number, participants: readonly number[]): number | null {
  if (participants.length > 2) return null;
  return participants.find((id) => id !== userId) ?? userId;
}

/**
 * `message_details` of an `update_message_flags` event removing `read` (level 121): what a client
 * needs to put each message back in its unread data. Topics are raw (queues rename the empty one).
 */
export function unreadMessageDetails(world: World, user: User, messages: readonly Message[]): Record<string, Record<string, unknown>> {
  const details: Record<string, Record<string, unknown>> = {};
  for (const message of messages) {
    if (!isUnreadFor(world, user.id, message)) continue;
    let entry: Record<string, unknown>;
    if (message.recipient.kind === 'direct') {
      entry = { type: 'private', user_ids: message.recipient.userIds.filter((id) => id !== user.id) };
    } else {
      const { streamId, topic } = message.recipient;
      entry = { type: 'stream', stream_id: streamId, topic, unmuted_stream_msg: isUnmutedForUser(world, user.id, streamId, topic) };
    }
    if (isUnreadMention(world, user.id, message)) entry.mentioned = true;
    details[String(message.id)] = entry;
  }
  return details;
}

interface Bucket {
  readonly head: Record<string, unknown>;
  readonly ids: number[];
  readonly senders: Set<number>;
}

function bucket(buckets: Map<string, Bucket>, key: string, head: Record<string, unknown>): Bucket {
  let found = buckets.get(key);
  if (!found) buckets.set(key, (found = { head, ids: [], senders: new Set() }));
  return found;
}

const compareKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The `unread_msgs` register state: unread one-on-one conversations (`pms`, by the other user),
 * channel topics (`streams`, topics matched case-insensitively, the empty topic shown as its
 * display name unless `allowEmptyTopicName`), groups (`huddles`), unread `mentions`, and
 * `count` (direct messages and channel messages that are not muted).
 */
export function unreadMessagesState(world: World, user: User, allowEmptyTopicName: boolean): Record<string, unknown> {
  const pms = new Map<string, Bucket>();
  const streams = new Map<string, Bucket>();
  const huddles = new Map<string, Bucket>();
  const mentions: number[] = [];
  let count = 0;
  const unread = unreadMessagesOf(world, user.id).filter((m) => isUnreadFor(world, user.id, m));
  for (const message of unread) {
    let target: Bucket;
    if (message.recipient.kind === 'stream') {
      const { streamId, topic } = message.recipient;
      const shown = displayTopic(topic, allowEmptyTopicName);
      target = bucket(streams, `${String(streamId).padStart(12, '0')}\u0000${shown.toLowerCase()}`, { stream_id: streamId, topic: shown });
      if (isUnmutedForUser(world, user.id, streamId, topic)) count += 1;
    } else {
      const other = otherUserId(user.id, message.recipient.userIds);
      target =
        other === null
          ? bucket(huddles, message.recipient.userIds.join(','), { user_ids_string: message.recipient.userIds.join(',') })
          : bucket(pms, String(other).padStart(12, '0'), pmHead(world, other));
      count += 1;
    }
    target.ids.push(message.id);
    target.senders.add(message.senderId);
    if (isUnreadMention(world, user.id, message)) mentions.push(message.id);
  }
  const list = (buckets: Map<string, Bucket>, withSenders = false) =>
    [...buckets.entries()]
      .sort(([a], [b]) => compareKeys(a, b))
      .map(([, b]) => ({ ...b.head, unread_message_ids: b.ids, ...(withSenders ? { sender_ids: [...b.senders].sort((x, y) => x - y) } : {}) }));
  const state: Record<string, unknown> = {
    pms: list(pms),
    streams: list(streams, !world.has(FEATURES.UNREAD_NO_SENDER_IDS)),
    huddles: list(huddles),
    mentions,
    count,
  };
  if (world.has(FEATURES.UNREAD_OLD_UNREADS_MISSING)) state.old_unreads_missing = false;
  return state;
}

/** The `starred_messages` register state: the IDs of the user's starred messages, ascending. */
export function starredMessageIds(world: World, user: User): number[] {
  return [...ascending(world.messages.index.user(user.id, 'starred'))];
}

/** The messages where the user's row lacks `read`, ascending (from the history index: the user's own count, not the history's). */
export function unreadMessagesOf(world: World, userId: number): Message[] {
  const messages: Message[] = [];
  for (const id of ascending(world.messages.index.user(userId, 'unread'))) {
    const message = world.messages.get(id);
    if (message) messages.push(message);
  }
  return messages;
}

/** The user's unread messages in one channel, ascending. */
export function unreadInChannel(world: World, user: User, streamId: number): Message[] {
  return unreadMessagesOf(world, user.id).filter((m) => m.recipient.kind === 'stream' && m.recipient.streamId === streamId);
}

/** `other_user_id` from level 119; `sender_id`, its older name, stays for old clients. */
function pmHead(world: World, other: number): Record<string, unknown> {
  return world.has(FEATURES.UNREAD_OTHER_USER_ID) ? { other_user_id: other, sender_id: other } : { sender_id: other };
}
