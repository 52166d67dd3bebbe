/**
 * Reading messages: who may read which message, and the API message object of
 * `GET /messages/{message_id}` and of `message` events (OpenAPI get-message `MessagesBase`).
 */
import { API_FLAGS } from '../../entities/message.js';
import { badRequest } from '../../errors.js';
import type { Message } from '../../entities/message.js';
import type { User } from '../../entities/user.js';
import { messageEditHistory } from './edit-history.js';
import { FEATURES } from '../../features/feature-levels.js';
import { seconds } from '../../state/clock.js';
import { displayTopic } from '../../input/topic-names.js';
import { topicLinks } from '../../rendering/topic-links.js';
import type { World } from '../../state/world.js';
import { hasContentAccess } from '../users/access.js';
import { reactionsToApi } from './reactions.js';
import { apiEmail, avatarUrl } from '../users/users.js';

export const INVALID_MESSAGE = 'Invalid message(s)';

/**
 * Read access (the real server's `has_message_access`): a direct message needs a per-user row;
 * a channel message needs content access, and in a private channel with protected history also
 * a row (the user received it).
 */
export function canReadMessage(world: World, user: User, message: Message): boolean {
  if (message.recipient.kind === 'direct') return message.flags.has(user.id);
  const stream = world.streams.get(message.recipient.streamId);
  if (!stream) return false;
  if (!stream.historyPublicToSubscribers && !message.flags.has(user.id)) return false;
  return hasContentAccess(world, user, stream);
}

/**
 * The message for an operation, or 400 `Invalid message(s)` whether it does not exist or is not
 * readable. `modifying` also refuses messages in archived channels.
 */
export function accessMessage(world: World, user: User, messageId: number, options: { modifying: boolean }): Message {
  const message = world.messages.get(messageId);
  if (!message || !canReadMessage(world, user, message)) throw badRequest(INVALID_MESSAGE);
  if (options.modifying && message.recipient.kind === 'stream' && world.streams.get(message.recipient.streamId)?.isArchived) {
    throw badRequest(INVALID_MESSAGE);
  }
  return message;
}

/** Flags in the real server's bit order; the two force_* flags are never stored here. */
const FLAG_ORDER = API_FLAGS.filter((flag) => !flag.startsWith('force_'));
const rank = (flag: string): number => {
  const index = FLAG_ORDER.indexOf(flag);
  return index === -1 ? FLAG_ORDER.length : index;
};

/** A user's flags as the API lists them; `["read", "historical"]` without a per-user row. */
export function flagsFor(message: Message, userId: number | null): string[] {
  const flags = userId === null ? undefined : message.flags.get(userId);
  if (!flags) return ['read', 'historical'];
  const list = [...flags];
  if (list.includes('stream_wildcard_mentioned') || list.includes('topic_wildcard_mentioned')) list.push('wildcard_mentioned');
  return [...new Set(list)].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
}

/** Stable `recipient_id` per channel or per set of DM participants, allocated on first use. */
const recipientIds = new WeakMap<World, Map<string, number>>();
export function recipientId(world: World, message: Message): number {
  let ids = recipientIds.get(world);
  if (!ids) recipientIds.set(world, (ids = new Map()));
  const key = message.recipient.kind === 'stream' ? `s${message.recipient.streamId}` : `d${message.recipient.userIds.join(',')}`;
  let id = ids.get(key);
  if (id === undefined) ids.set(key, (id = ids.size + 1));
  return id;
}

/** `/me did something` is a status message. */
export const isMeMessage = (content: string): boolean => /^\/me\s/.test(content);

export interface MessageView {
  readonly applyMarkdown: boolean;
  readonly allowEmptyTopicName: boolean;
  readonly clientGravatar: boolean;
  /** Whether to include `edit_history` (GET /messages/{id}; not in events). */
  readonly includeEditHistory: boolean;
}

function displayRecipient(world: World, message: Message): unknown {
  if (message.recipient.kind === 'stream') return world.streams.get(message.recipient.streamId)?.name ?? '';
  return message.recipient.userIds.map((id) => {
    const user = world.users.get(id);
    return { id, email: user ? apiEmail(world, user) : '', full_name: user?.fullName ?? '', is_mirror_dummy: false };
  });
}

/** The message object without `flags` (callers add the viewer's flags). */
export function toApiMessage(world: World, message: Message, view: MessageView): Record<string, unknown> {
  const sender = world.users.get(message.senderId);
  const stream = message.recipient.kind === 'stream';
  const topic = message.recipient.kind === 'stream' ? message.recipient.topic : '';
  const out: Record<string, unknown> = {
    id: message.id,
    sender_id: message.senderId,
    content: view.applyMarkdown ? message.renderedContent : message.content,
    recipient_id: recipientId(world, message),
    timestamp: seconds(message.sentAt),
    client: message.client,
    subject: stream ? displayTopic(topic, view.allowEmptyTopicName) : '',
    topic_links: stream ? topicLinks(world, topic) : [],
    is_me_message: isMeMessage(message.content),
    reactions: reactionsToApi(world, message),
    submessages: [],
    sender_full_name: sender?.fullName ?? '',
    sender_email: sender ? apiEmail(world, sender) : '',
    sender_realm_str: sender?.isSystemBot ? 'zulipinternal' : 'zulip',
    display_recipient: displayRecipient(world, message),
    type: stream ? 'stream' : 'private',
  };
  if (message.recipient.kind === 'stream') out.stream_id = message.recipient.streamId;
  out.avatar_url = sender ? avatarUrl(world, sender, view.clientGravatar) : null;
  out.content_type = view.applyMarkdown ? 'text/html' : 'text/x-markdown';
  addEditFields(world, message, view, out);
  return out;
}

function addEditFields(world: World, message: Message, view: MessageView, out: Record<string, unknown>): void {
  const lastAny = message.editHistory[0]?.timestamp;
  if (world.has(FEATURES.LAST_MOVED_TIMESTAMP)) {
    if (message.lastEditAt !== null) out.last_edit_timestamp = seconds(message.lastEditAt);
    if (message.lastMovedAt !== null) out.last_moved_timestamp = seconds(message.lastMovedAt);
  } else if (lastAny !== undefined) {
    out.last_edit_timestamp = seconds(lastAny);
  }
  if (view.includeEditHistory && message.editHistory.length > 0) {
    const history = messageEditHistory(world, message, view.allowEmptyTopicName);
    if (history) out.edit_history = history;
  }
}

/** Reads `allow_empty_topic_name`: below FL 334 there is no empty topic to allow. */
export const allowEmptyTopic = (world: World, requested: boolean | undefined): boolean =>
  world.has(FEATURES.EMPTY_TOPIC) && requested === true;
