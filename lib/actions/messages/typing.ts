/**
 * `POST /typing` (section 4.2; reference section 6): stateless typing notifications. The checks
 * run in the real server's order; events go only to active recipients who receive them.
 */
import { badRequest, missingArgument } from '../../errors.js';
import type { Stream } from '../../entities/stream.js';
import { boolSetting, isGuest, type User } from '../../entities/user.js';
import { type Feature, FEATURES } from '../../features/feature-levels.js';
import { hasChannelContentAccess } from '../../queries/channels/channel-access.js';
import { isSubscribed } from '../../queries/users/access.js';
import { subscriberIds } from '../../queries/channels/channels.js';
import { hasGroupSetting } from '../../queries/groups/groups.js';
import { apiEmail } from '../../queries/users/users.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../../input/topic-names.js';
import type { World } from '../../state/world.js';

export type TypingOp = 'start' | 'stop';

/** `to` is the recipients of a direct message, or (before level 215) `[stream_id]` for a channel. */
export interface TypingRequest {
  readonly op: TypingOp;
  readonly kind: 'direct' | 'stream';
  readonly to: readonly number[] | null | undefined;
  readonly streamId: number | null | undefined;
  /** Already stripped of surrounding whitespace. */
  readonly topic: string | undefined;
}

/** `MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS`: larger channels get no typing events at all. */
export const MAX_CHANNEL_SIZE_FOR_TYPING = 100;

/** A setting that did not exist yet at the emulated level behaves as enabled. */
function settingOn(world: World, user: User, name: string, since: Feature): boolean {
  return !world.has(since) || boolSetting(user, name);
}

const receives = (world: World, user: User): boolean =>
  user.isActive && settingOn(world, user, 'receives_typing_notifications', FEATURES.RECEIVES_TYPING_NOTIFICATIONS);

const person = (world: World, user: User) => ({ user_id: user.id, email: apiEmail(world, user) });

function sendDirect(world: World, sender: User, op: TypingOp, to: readonly number[]): void {
  if (!settingOn(world, sender, 'send_private_typing_notifications', FEATURES.TYPING_AND_READ_RECEIPT_SETTINGS)) {
    throw badRequest('User has disabled typing notifications for direct messages');
  }
  const ids = to.includes(sender.id) ? [...to] : [...to, sender.id];
  // Realm users and cross-realm bots, deactivated ones included; one bad ID refuses the request.
  const recipients = ids.map((id) => {
    const user = world.users.get(id);
    if (!user) throw badRequest(`Invalid user ID ${id}`);
    return user;
  });
  const event: Record<string, unknown> & { type: string } = { type: 'typing' };
  if (world.has(FEATURES.STREAM_TYPING)) event.message_type = world.has(FEATURES.TYPING_STREAM_ID) ? 'direct' : 'private';
  event.op = op;
  event.sender = person(world, sender);
  event.recipients = recipients.map((user) => person(world, user));
  world.events.send(event, recipients.filter((user) => receives(world, user)).map((user) => user.id));
}

/** `access_stream_for_send_message`: the channel's posting permission, then access to post at all. */
function checkCanPost(world: World, sender: User, stream: Stream): void {
  const postGroup = stream.settings.get('can_send_message_group');
  const owner = sender.botOwnerId === null ? undefined : world.users.get(sender.botOwnerId);
  const mayPost = (user: User | undefined) => user !== undefined && postGroup !== undefined && hasGroupSetting(world, user, postGroup);
  if (!sender.isSystemBot && !mayPost(sender) && !(sender.isBot && mayPost(owner))) {
    throw badRequest('You do not have permission to post in this channel.');
  }
  const refused = badRequest(`Not authorized to send to channel '${stream.name}'`);
  if (stream.isArchived) throw refused;
  if (sender.isSystemBot || stream.isWebPublic) return;
  if (!stream.inviteOnly && !isGuest(sender)) return;
  if (isSubscribed(world, sender.id, stream.id)) return;
  if (sender.isBot && owner && isSubscribed(world, owner.id, stream.id)) return;
  if (stream.historyPublicToSubscribers && !isGuest(sender) && hasChannelContentAccess(world, sender, stream)) return;
  throw refused;
}

function normalizeTopic(world: World, topic: string): string {
  if (world.has(FEATURES.EMPTY_TOPIC) && topic === EMPTY_TOPIC_DISPLAY_NAME) return '';
  if (world.has(FEATURES.NO_TOPIC_ALIAS_TYPING) && topic === '(no topic)') return '';
  return topic;
}

function sendToChannel(world: World, sender: User, op: TypingOp, streamId: number, topic: string): void {
  if (!settingOn(world, sender, 'send_stream_typing_notifications', FEATURES.TYPING_AND_READ_RECEIPT_SETTINGS)) {
    throw badRequest('User has disabled typing notifications for channel messages');
  }
  const stream = world.streams.get(streamId);
  if (!stream || stream.isArchived || !hasChannelContentAccess(world, sender, stream)) throw badRequest('Invalid channel ID');
  checkCanPost(world, sender, stream);
  const subscribers = subscriberIds(world, stream.id);
  if (subscribers.length > MAX_CHANNEL_SIZE_FOR_TYPING) return;
  const event = { type: 'typing', message_type: 'stream', op, sender: person(world, sender), stream_id: stream.id, topic: normalizeTopic(world, topic) };
  world.events.send(event, subscribers.filter((id) => receives(world, world.users.get(id)!)));
}

/** Validates a typing notification and emits it (section 6.2 of the reference, in order). */
export function sendTyping(world: World, sender: User, request: TypingRequest): void {
  if (!world.has(FEATURES.TYPING_STREAM_ID)) {
    // Before level 215 `to` was required for both kinds and held `[stream_id]` for channels.
    if (request.to === undefined || request.to === null) throw missingArgument('to');
    if (request.to.length === 0) throw badRequest("Empty 'to' list");
    if (request.kind === 'direct') return sendDirect(world, sender, request.op, request.to);
    if (request.to.length > 1) throw badRequest('Cannot send to multiple streams');
    if (request.topic === undefined) throw badRequest('Missing topic');
    return sendToChannel(world, sender, request.op, request.to[0]!, request.topic);
  }
  if (request.kind === 'stream') {
    // View-raised, so BAD_REQUEST without `var_name` (reference section 1.2).
    if (request.streamId === undefined || request.streamId === null) throw badRequest("Missing 'stream_id' argument");
    if (request.topic === undefined) throw badRequest('Missing topic');
    return sendToChannel(world, sender, request.op, request.streamId, request.topic);
  }
  if (request.to === undefined || request.to === null) throw badRequest("Missing 'to' argument");
  if (request.to.length === 0) throw badRequest("Empty 'to' list");
  sendDirect(world, sender, request.op, request.to);
}
