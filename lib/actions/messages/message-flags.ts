/**
 * Personal message flags: `POST /messages/flags`, `POST /mark_all_as_read`,
 * `POST /mark_stream_as_read`, `POST /mark_topic_as_read` (spec 4.11, deprecated), and the
 * `update_message_flags` events, as the real server's message-flag actions do them.
 */
import { API_FLAGS } from '../../entities/message.js';
import { badRequest } from '../../errors.js';
import type { Message } from '../../entities/message.js';
import type { Stream } from '../../entities/stream.js';
import type { User } from '../../entities/user.js';
import type { ChatEvent } from '../../state/event-hub.js';
import { FEATURES } from '../../features/feature-levels.js';
import { hasContentAccess, isSubscribed } from '../../queries/users/access.js';
import { canReadMessage, INVALID_MESSAGE } from '../../queries/messages/messages.js';
import { unreadInChannel, unreadMessageDetails, unreadMessagesOf } from '../../queries/messages/unread.js';
import { intersectionOf } from '../../state/history/id-sources.js';
import { renameGeneralChat } from '../../input/topic-names.js';
import type { World } from '../../state/world.js';

/** Flags set once when the row is created, or unused: known but not editable. */
const NON_EDITABLE_FLAGS = new Set(['has_alert_word', 'mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'group_mentioned', 'historical', 'force_expand', 'force_collapse']);
/** The flags of a row the user does not have (the real server simulates them for readable messages). */
const HISTORICAL_FLAGS = new Set(['read', 'historical']);

/** The `update_message_flags` event; `op` from level 32, `operation` its older name. */
export function flagEvent(world: World, op: 'add' | 'remove', flag: string, messages: number[], all: boolean): ChatEvent & Record<string, unknown> {
  const event: { type: string; [key: string]: unknown } = { type: 'update_message_flags' };
  if (world.has(FEATURES.FLAG_EVENT_OP)) event.op = op;
  Object.assign(event, { operation: op, flag, messages, all });
  return event;
}

const inTopic = (message: Message, streamId: number, topic: string): boolean =>
  message.recipient.kind === 'stream' &&
  message.recipient.streamId === streamId &&
  message.recipient.topic.toLowerCase() === topic.toLowerCase();

/**
 * Adds `flag` to the user's rows of `messages` that lack it, and sends one
 * `update_message_flags` event when anything changed. Returns the IDs changed.
 */
export function addFlag(world: World, user: User, messages: Iterable<Message>, flag: string): number[] {
  const changed: number[] = [];
  for (const message of messages) {
    const flags = message.flags.get(user.id);
    if (!flags || flags.has(flag)) continue;
    flags.add(flag);
    changed.push(message.id);
  }
  changed.sort((a, b) => a - b);
  if (changed.length > 0) world.events.send(flagEvent(world, 'add', flag, changed, false), [user.id]);
  return changed;
}

/** What a flag change reports: how many flags changed and which channels were skipped. */
export interface FlagUpdateResult {
  /** The messages whose flag changed, rows created for them included (`updated_count`). */
  readonly count: number;
  /** Channels whose messages were left unread-less because the user is not subscribed (sorted). */
  readonly ignoredChannels: number[];
}

function checkFlagRequest(op: string, flag: string): 'add' | 'remove' {
  if (!API_FLAGS.includes(flag)) throw badRequest(`Invalid flag: '${flag}'`);
  if (NON_EDITABLE_FLAGS.has(flag)) throw badRequest(`Flag not editable: '${flag}'`);
  if (op !== 'add' && op !== 'remove') throw badRequest(`Invalid message flag operation: '${op}'`);
  return op;
}

/**
 * `POST /messages/flags` and the change of `POST /messages/flags/narrow`. Marking unread skips
 * channel messages where the user is not subscribed (the invariant: every unread channel message
 * is in a subscribed channel). IDs whose state already matches are dropped; a change on a message
 * without a row needs read access (else `Invalid message(s)`, before anything changes) and creates
 * a historical row, counted like any other change. One event goes to the user even when nothing
 * changed; from level 155 it lists only the changed messages.
 */
export function updateMessageFlags(world: World, user: User, op: string, flag: string, messageIds: readonly number[]): FlagUpdateResult {
  const adding = checkFlagRequest(op, flag) === 'add';
  let requested = [...messageIds];
  const ignored = new Set<number>();
  if (flag === 'read' && !adding) {
    requested = requested.filter((id) => {
      const message = world.messages.get(id);
      if (message?.recipient.kind !== 'stream' || isSubscribed(world, user.id, message.recipient.streamId)) return true;
      ignored.add(message.recipient.streamId);
      return false;
    });
  }
  const current = (id: number) => world.messages.get(id)?.flags.get(user.id) ?? HISTORICAL_FLAGS;
  const changing = requested.filter((id) => current(id).has(flag) !== adding);
  const withoutRow = [...new Set(changing)].filter((id) => !world.messages.get(id)?.flags.has(user.id));
  const rowless = withoutRow.map((id) => world.messages.get(id));
  if (rowless.some((m) => !m || !canReadMessage(world, user, m))) throw badRequest(INVALID_MESSAGE);
  for (const message of rowless) message?.flags.set(user.id, new Set(HISTORICAL_FLAGS));
  for (const id of new Set(changing)) {
    const flags = world.messages.get(id)?.flags.get(user.id);
    if (adding) flags?.add(flag);
    else flags?.delete(flag);
  }
  const listed = world.has(FEATURES.FLAG_EVENT_ONLY_CHANGED) ? changing : requested;
  const event = flagEvent(world, adding ? 'add' : 'remove', flag, listed, false);
  if (flag === 'read' && !adding && world.has(FEATURES.FLAG_EVENT_MESSAGE_DETAILS)) {
    const messages = [...new Set(changing)].flatMap((id) => world.messages.get(id) ?? []);
    event.message_details = unreadMessageDetails(world, user, messages);
  }
  world.events.send(event, [user.id]);
  return { count: changing.length, ignoredChannels: [...ignored].sort((a, b) => a - b) };
}

/** `POST /mark_all_as_read`: every unread row of the user; one event with `all: true` and no IDs. */
export function markAllAsRead(world: World, user: User): void {
  for (const message of unreadMessagesOf(world, user.id)) message.flags.get(user.id)?.add('read');
  world.events.send(flagEvent(world, 'add', 'read', [], true), [user.id]);
}

/** The channel of a mark-as-read request: it must exist, be active and give content access. */
function channelForReading(world: World, user: User, streamId: number): Stream {
  const stream = world.streams.get(streamId);
  if (!stream || stream.isArchived || !hasContentAccess(world, user, stream)) throw badRequest('Invalid channel ID');
  return stream;
}

/** `POST /mark_stream_as_read`: the user's unread messages in the channel; an event when any changed. */
export function markStreamAsRead(world: World, user: User, streamId: number): number[] {
  const stream = channelForReading(world, user, streamId);
  return addFlag(world, user, unreadInChannel(world, user, stream.id), 'read');
}

/**
 * Marks the user's unread messages in a channel topic as read. The channel needs content access
 * and must be active (`Invalid channel ID`); a non-empty topic name must name a topic where the
 * user has a message (`No such topic '<topic>'`), the empty-topic display name meaning `""`.
 * The empty topic is a topic like any other here (the real server, as read, marks the whole
 * channel for an empty name; the description says the topic).
 */
export function markTopicAsRead(world: World, user: User, streamId: number, topicName: string): number[] {
  const stream = channelForReading(world, user, streamId);
  let topic = topicName;
  if (topic !== '') {
    topic = renameGeneralChat(world, topic);
    const received = intersectionOf([world.messages.index.topic(stream.id, topic), world.messages.index.user(user.id, 'received')]);
    if (received.atLeast(0) === undefined) throw badRequest(`No such topic '${topic}'`);
  }
  const messages = unreadMessagesOf(world, user.id).filter((m) => inTopic(m, stream.id, topic));
  return addFlag(world, user, messages, 'read');
}
