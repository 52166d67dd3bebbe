/**
 * The Notification Bot messages that follow a subscribe request (reference section 2.5,
 * `send_messages_for_new_subscribers`), in the real server's order: a direct message to each
 * user subscribed by someone else, the announcement of new channels, then a "channel events"
 * message in each created channel. Every one of them starts as read for the requester
 * (`do_send_messages(..., mark_as_read=[requester])`).
 */
import type { Stream } from '../../entities/stream.js';
import type { User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { channelLinkSyntax, silentMention } from '../../rendering/message-links.js';
import { compareCodePoints } from '../../input/strings.js';
import type { World } from '../../state/world.js';
import { sendNotificationBotMessage } from '../messages/notification-bot.js';

/** `MAX_BULK_NEW_SUBSCRIPTION_MESSAGES` (register's `max_bulk_new_subscription_messages`). */
export const MAX_BULK_NEW_SUBSCRIPTION_MESSAGES = 100;

/** Topic of the announcement in the new-channel announcements channel. */
export const NEW_CHANNELS_TOPIC = 'new channels';
/** Topic of the message posted in each created channel (`STREAM_EVENTS_NOTIFICATION_TOPIC_NAME`). */
export const CHANNEL_EVENTS_TOPIC = 'channel events';

export type ChannelPolicy = 'web_public' | 'public' | 'private_shared_history' | 'private_protected_history';

export function channelPolicy(stream: Pick<Stream, 'isWebPublic' | 'inviteOnly' | 'historyPublicToSubscribers'>): ChannelPolicy {
  if (stream.isWebPublic) return 'web_public';
  if (!stream.inviteOnly) return 'public';
  return stream.historyPublicToSubscribers ? 'private_shared_history' : 'private_protected_history';
}

const POLICY_HEADINGS: Readonly<Record<ChannelPolicy, string>> = {
  web_public: '**Web-public**',
  public: '**Public**',
  private_shared_history: '**Private, shared history**',
  private_protected_history: '**Private, protected history**',
};

export interface NoticeInput {
  readonly actor: User;
  /** User ID to the channels newly subscribed (added or reactivated). */
  readonly subscribed: ReadonlyMap<number, readonly Stream[]>;
  /** Channels created by the request, in request order. */
  readonly created: readonly Stream[];
  readonly announce: boolean;
  readonly sendNewSubscriptionMessages: boolean;
}

/** Whether the new-subscription DMs go out (level 397: only if requested and at most 100 users were added). */
export function newSubscriptionMessagesAllowed(world: World, input: NoticeInput): boolean {
  if (!world.has(FEATURES.NEW_SUBSCRIPTION_MESSAGES)) return true;
  return input.sendNewSubscriptionMessages && input.subscribed.size <= MAX_BULK_NEW_SUBSCRIPTION_MESSAGES;
}

/** A DM due to a user someone else subscribed, naming the channels (sorted by code point). */
export interface SubscribedByOthersNotice {
  readonly recipientId: number;
  readonly channelNames: readonly string[];
}

/** DMs for users subscribed by someone else: never the actor, never bots, never for channels just created. */
export function subscribedByOthersNotices(world: World, input: NoticeInput): SubscribedByOthersNotice[] {
  if (!newSubscriptionMessagesAllowed(world, input)) return [];
  const createdIds = new Set(input.created.map((s) => s.id));
  const notices: SubscribedByOthersNotice[] = [];
  for (const [userId, streams] of input.subscribed) {
    if (userId === input.actor.id || world.users.get(userId)?.isBot) continue;
    const names = streams.filter((s) => !createdIds.has(s.id)).map((s) => s.name);
    if (names.length > 0) notices.push({ recipientId: userId, channelNames: names.sort(compareCodePoints) });
  }
  return notices;
}

/** `you_were_just_subscribed_message`: one channel inline, several as a bulleted list. */
export function subscribedYouText(actor: User, channelNames: readonly string[]): string {
  if (channelNames.length === 1) return `${silentMention(actor)} subscribed you to #**${channelNames[0]}**.`;
  const lines = channelNames.map((name) => `* #**${name}**\n`).join('');
  return `${silentMention(actor)} subscribed you to the following channels:\n\n${lines}`;
}

/** The announcement of the created channels (request order, `get_stream_link_syntax` links). */
export function channelsCreatedText(actor: User, created: readonly Stream[]): string {
  const links = created.map((s) => channelLinkSyntax(s.id, s.name)).join(', ');
  return created.length > 1
    ? `${silentMention(actor)} created the following channels: ${links}.`
    : `${silentMention(actor)} created a new channel ${links}.`;
}

/** The first message of a created channel: its policy, its creator and its description quoted. */
export function channelEventsText(actor: User, stream: Stream): string {
  const description = stream.description === '' ? '*No description.*' : stream.description;
  return `${POLICY_HEADINGS[channelPolicy(stream)]} channel created by ${silentMention(actor)}. **Description:**\n\`\`\`\` quote\n${description}\n\`\`\`\``;
}

/**
 * Sends the messages due after a subscribe request, after its changes and events. The
 * announcement needs `announce`, a created channel and a new-channel announcements channel.
 * A message the bot cannot post (an archived channel, a topics policy) is dropped.
 */
export function sendSubscriptionNotices(world: World, input: NoticeInput): void {
  const readBy = [input.actor.id];
  for (const notice of subscribedByOthersNotices(world, input)) {
    sendNotificationBotMessage(world, { kind: 'direct', userId: notice.recipientId }, subscribedYouText(input.actor, notice.channelNames), { readBy });
  }
  if (input.created.length === 0) return;
  const announcements = world.realm.newStreamAnnouncementsStreamId;
  if (input.announce && announcements !== null) {
    const text = channelsCreatedText(input.actor, input.created);
    sendNotificationBotMessage(world, { kind: 'stream', streamId: announcements, topic: NEW_CHANNELS_TOPIC }, text, { readBy });
  }
  for (const stream of input.created) {
    const text = channelEventsText(input.actor, stream);
    sendNotificationBotMessage(world, { kind: 'stream', streamId: stream.id, topic: CHANNEL_EVENTS_TOPIC }, text, { readBy });
  }
}
