/**
 * `POST /messages` (reference §2.1): recipients, topic, content and the sender's right to post,
 * checked in the real server's order (view parsing, `Addressee.legacy_build`, `check_message`).
 */
import { MAX_USER_IDS, tooManyItems } from '../../input/limits.js';
import { ApiError, badRequest } from '../../errors.js';
import type { Recipient } from '../../entities/message.js';
import type { Stream } from '../../entities/stream.js';
import { isGuest, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { parseJson, type JsonValue, JsonSyntaxError } from '../../input/json.js';
import { canAccessUser, isSubscribed } from '../../queries/users/access.js';
import { hasGroupSetting } from '../../queries/groups/groups.js';
import { apiEmail, canSeeDeliveryEmail } from '../../queries/users/users.js';
import {
  checkTopic,
  checkTopicsPolicy,
  codePointLength,
  interpretSendTopic,
  invalidCharacterPosition,
  pythonStrip,
  truncateTopic,
} from '../../input/topic-names.js';
import type { World } from '../../state/world.js';
import { readableTopicFor } from '../../queries/messages/topics.js';
import { render } from '../../rendering/render.js';
import { checkCanSendDirectMessage } from './policies/direct-message-permissions.js';
import { checkMentionPermissions } from './policies/mention-permissions.js';
import { defaultReadBySender, deliverMessage, type LocalEcho, normalizeContent } from './messages.js';

export type SendType = 'direct' | 'private' | 'stream' | 'channel';

export interface SendRequest {
  readonly type: SendType;
  readonly to: string | undefined;
  readonly topic: string | undefined;
  readonly content: string;
  /** FL 236; unset means read only from the real server's own clients (`defaultReadBySender`). */
  readonly readBySender: boolean | undefined;
  readonly client: string;
  /** `queue_id` and `local_id`: the sender's queue gets `local_id` back in its message event. */
  readonly localEcho?: LocalEcho;
}

const notAuthorized = (stream: Stream) => badRequest(`Not authorized to send to channel '${stream.name}'`);

/** `extract_stream_indicator`: a raw name, a JSON name or ID, or a one-element JSON list of either. */
/** The value as JSON, or the raw text when it is not JSON (the real server's `orjson.loads` fallbacks). */
export function jsonOrText(raw: string): JsonValue {
  try {
    return parseJson(raw);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return raw;
    throw error;
  }
}

function streamIndicator(raw: string): string | number {
  let data = jsonOrText(raw);
  if (Array.isArray(data)) {
    if (data.length !== 1) throw badRequest('Expected exactly one channel');
    data = data[0] as JsonValue;
  }
  if (typeof data === 'string' || typeof data === 'number') return data;
  throw badRequest('Invalid data type for channel');
}

/** `extract_private_recipients`: JSON list of emails or of IDs, or comma-separated emails. */
function privateRecipients(raw: string): string[] | number[] {
  let data = jsonOrText(raw);
  if (typeof data === 'string') data = data.split(',');
  if (!Array.isArray(data)) throw badRequest('Invalid data type for recipients');
  if (data.length > MAX_USER_IDS) throw tooManyItems('to', MAX_USER_IDS);
  if (data.length === 0) return [];
  const mixed = () => badRequest('Recipient lists may contain emails or user IDs, but not both.');
  if (typeof data[0] === 'string') {
    if (!data.every((item): item is string => typeof item === 'string')) throw mixed();
    return [...new Set(data.map((email) => pythonStrip(email)))].filter((email) => email !== '');
  }
  if (typeof data[0] !== 'number') throw badRequest('Invalid data type for recipients');
  if (!data.every((item): item is number => typeof item === 'number')) throw mixed();
  return [...new Set(data)];
}

function userById(world: World, id: number): User {
  const user = world.users.get(id);
  if (!user) throw badRequest(`Invalid user ID ${id}`);
  return user;
}

/**
 * The user a recipient email names: its API email (the real one, or `user<ID>@` the fake domain
 * when the address is hidden), or its real email when the sender may see it. Looked up, not
 * searched, so a send costs the same in any size of realm.
 */
function userByEmail(world: World, sender: User, email: string): User {
  const lower = email.toLowerCase();
  const fake = /^user(\d{1,15})@(.+)$/.exec(lower);
  const byId = fake && fake[2] === world.realm.fakeEmailDomain.toLowerCase() ? world.users.get(Number(fake[1])) : undefined;
  if (byId && apiEmail(world, byId).toLowerCase() === lower) return byId;
  const byAddress = world.usersByEmail.get(lower);
  if (byAddress && (apiEmail(world, byAddress).toLowerCase() === lower || canSeeDeliveryEmail(sender, byAddress))) return byAddress;
  throw badRequest(`Invalid email '${email}'`);
}

/** `check_stream_access_based_on_can_send_message_group` with the bot-owner fallback. */
function checkCanPost(world: World, sender: User, stream: Stream): void {
  const setting = stream.settings.get('can_send_message_group');
  if (!setting || sender.isSystemBot) return;
  const owner = sender.isBot && sender.botOwnerId !== null ? world.users.get(sender.botOwnerId) : undefined;
  if (hasGroupSetting(world, sender, setting) || (owner && hasGroupSetting(world, owner, setting))) return;
  throw badRequest('You do not have permission to post in this channel.');
}

/** `access_stream_for_send_message`: posting right, archived channels, then channel access. */
export function checkStreamSendAccess(world: World, sender: User, stream: Stream): void {
  checkCanPost(world, sender, stream);
  if (stream.isArchived) throw notAuthorized(stream);
  if (sender.isSystemBot || stream.isWebPublic) return;
  if (!stream.inviteOnly && !isGuest(sender)) return;
  if (isSubscribed(world, sender.id, stream.id)) return;
  if (sender.isBot && sender.botOwnerId !== null && isSubscribed(world, sender.botOwnerId, stream.id)) return;
  throw notAuthorized(stream);
}

function findStream(world: World, indicator: string | number): Stream {
  if (typeof indicator === 'number') {
    const stream = world.streams.get(indicator);
    if (!stream) throw new ApiError('STREAM_DOES_NOT_EXIST', 400, `Channel with ID '${indicator}' does not exist`, { stream_id: indicator });
    return stream;
  }
  const name = pythonStrip(indicator);
  checkChannelName(name);
  const stream = world.streamByName(name);
  if (!stream) {
    // The real server HTML-escapes the name it echoes (Django's `escape`).
    const shown = escapeName(name);
    throw new ApiError('STREAM_DOES_NOT_EXIST', 400, `Channel '${shown}' does not exist`, { stream: shown });
  }
  return stream;
}

/** `check_stream_name` (real-server notes on subscriptions-typing-topics §1.5). */
function checkChannelName(name: string): void {
  if (name === '') throw badRequest("Channel name can't be empty.");
  if (codePointLength(name) > 60) throw badRequest('Channel name too long (limit: 60 characters).');
  const position = invalidCharacterPosition(name);
  if (position !== undefined) throw badRequest(`Invalid character in channel name, at position ${position}.`);
}

const ESCAPES = new Map([['&', '&amp;'], ['<', '&lt;'], ['>', '&gt;'], ['"', '&quot;'], ["'", '&#x27;']]);
const escapeName = (name: string): string => name.replace(/[&<>"']/g, (c) => ESCAPES.get(c) ?? c);

export function allowedTypes(world: World): SendType[] {
  const types: SendType[] = ['private', 'stream'];
  if (world.has(FEATURES.SEND_MESSAGE_DIRECT)) types.push('direct');
  if (world.has(FEATURES.SEND_MESSAGE_CHANNEL)) types.push('channel');
  return types;
}

export interface SendOutcome {
  readonly id: number;
  /** The sender's topic policy when sending changed it (`automatic_new_visibility_policy`). */
  readonly automaticNewVisibilityPolicy?: number;
}

/** Who a message goes to, as the request named it (`Addressee.legacy_build`'s input). */
export type Addressee =
  | { readonly kind: 'stream'; readonly indicator: string | number | undefined; readonly topic: string | undefined }
  | { readonly kind: 'direct'; readonly to: ReadonlyArray<string | number> };

/** A message `check_message` accepted: where it goes and its normalized, rendered content. */
export interface CheckedMessage {
  readonly recipient: Recipient;
  readonly content: string;
  readonly rendered: string;
}

/**
 * `check_message`: recipients, topic, content and the sender's right to post, in the real
 * server's order. Shared by sending now and scheduling (at scheduling and again at delivery).
 */
export function checkMessage(world: World, sender: User, addressee: Addressee, rawContent: string): CheckedMessage {
  let recipient: Recipient;
  let content: string;
  if (addressee.kind === 'stream') {
    const { indicator, topic } = addressee;
    if (indicator === undefined) throw badRequest('Missing channel');
    if (topic === undefined) throw badRequest('Missing topic');
    checkTopic(world, topic);
    content = normalizeContent(rawContent);
    const stream = findStream(world, indicator);
    checkStreamSendAccess(world, sender, stream);
    const truncated = truncateTopic(topic);
    if (world.has(FEATURES.EMPTY_TOPIC)) checkTopicsPolicy(world, stream, truncated);
    recipient = { kind: 'stream', streamId: stream.id, topic: truncated };
  } else {
    if (addressee.to.length === 0) throw badRequest('Message must have recipients');
    const users = addressee.to.map((item) => (typeof item === 'number' ? userById(world, item) : userByEmail(world, sender, item)));
    content = normalizeContent(rawContent);
    if (users.some((user) => !user.isSystemBot && !canAccessUser(world, sender, user))) {
      throw badRequest('You do not have permission to access some of the recipients.');
    }
    const gone = users.find((user) => !user.isActive);
    if (gone) throw badRequest(`'${apiEmail(world, gone)}' is no longer using Zulip.`);
    const userIds = [...new Set([...users.map((u) => u.id), sender.id])].sort((a, b) => a - b);
    checkCanSendDirectMessage(world, sender, users, userIds);
    recipient = { kind: 'direct', userIds };
  }
  const rendered = render(world, content, { readableTopic: readableTopicFor(world, sender) });
  const place = recipient.kind === 'stream' ? { stream: world.streams.get(recipient.streamId) as Stream, topic: recipient.topic } : null;
  checkMentionPermissions(world, rendered, place, sender, sender);
  return { recipient, content, rendered };
}

/** Validates and sends. An error leaves no trace. */
export function sendMessage(world: World, sender: User, request: SendRequest): SendOutcome {
  if (!allowedTypes(world).includes(request.type)) throw badRequest('Invalid type');
  const isStream = request.type === 'stream' || request.type === 'channel';
  const topic = request.topic === undefined ? undefined : interpretSendTopic(world, request.topic);
  const addressee: Addressee = isStream
    ? { kind: 'stream', indicator: request.to === undefined ? undefined : streamIndicator(request.to), topic }
    : { kind: 'direct', to: request.to === undefined ? [] : privateRecipients(request.to) };
  const { recipient, content, rendered } = checkMessage(world, sender, addressee, request.content);
  const readBy = new Set((request.readBySender ?? defaultReadBySender(world, request.client)) ? [sender.id] : []);
  let automatic: number | undefined;
  const message = deliverMessage(world, {
    sender,
    recipient,
    content,
    rendered,
    client: request.client,
    readBy,
    onAutomaticPolicy: (policy) => (automatic = policy),
    ...(request.localEcho ? { localEcho: request.localEcho } : {}),
  });
  return { id: message.id, ...(automatic === undefined ? {} : { automaticNewVisibilityPolicy: automatic }) };
}
