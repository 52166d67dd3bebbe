/**
 * The Notification Bot messages that follow a subscribe request (reference section 2.5,
 * `send_messages_for_new_subscribers`). This module decides which messages are due; sending
 * them belongs to the messages module, so the hooks below are no-ops until it plugs in.
 */
import type { Stream } from '../entities/stream.js';
import type { User } from '../entities/user.js';
import { FEATURES } from '../features.js';
import type { World } from '../world.js';
import { compareNames } from '../queries/channels.js';

/** `MAX_BULK_NEW_SUBSCRIPTION_MESSAGES` (register's `max_bulk_new_subscription_messages`). */
export const MAX_BULK_NEW_SUBSCRIPTION_MESSAGES = 100;

export type ChannelPolicy = 'web_public' | 'public' | 'private_shared_history' | 'private_protected_history';

export function channelPolicy(stream: Stream): ChannelPolicy {
  if (stream.isWebPublic) return 'web_public';
  if (!stream.inviteOnly) return 'public';
  return stream.historyPublicToSubscribers ? 'private_shared_history' : 'private_protected_history';
}

/** A DM to a user someone else subscribed: "<actor> subscribed you to #**x**" (names sorted). */
export interface SubscribedByOthersNotice {
  readonly recipientId: number;
  readonly channelNames: readonly string[];
}

export interface ChannelsCreatedNotice {
  /** Created channels, in request order. */
  readonly channelIds: readonly number[];
  /** Where to post "<actor> created a new channel ..." (topic `new channels`), or null. */
  readonly announcementChannelId: number | null;
  /** The "**Public** channel created by ..." message for each created channel (topic `channel events`). */
  readonly channelEvents: ReadonlyArray<{ readonly streamId: number; readonly policy: ChannelPolicy; readonly description: string }>;
}

/**
 * Called by the subscribe action after its changes and events. Every message must be sent by
 * Notification Bot and marked read for `actor` (`do_send_messages(..., mark_as_read=[actor])`).
 */
export interface SubscriptionNoticeHooks {
  onChannelsCreated(world: World, actor: User, notice: ChannelsCreatedNotice): void;
  onSubscribedByOthers(world: World, actor: User, notices: readonly SubscribedByOthersNotice[]): void;
}

/** No-op hooks: the messages module is not wired in yet, so no Notification Bot message is created. */
export const subscriptionNoticeHooks: SubscriptionNoticeHooks = {
  onChannelsCreated() {},
  onSubscribedByOthers() {},
};

export interface NoticeInput {
  readonly actor: User;
  /** User ID to the channels newly subscribed (added or reactivated). */
  readonly subscribed: ReadonlyMap<number, readonly Stream[]>;
  readonly created: readonly Stream[];
  readonly announce: boolean;
  readonly sendNewSubscriptionMessages: boolean;
}

/** Whether the new-subscription DMs go out (level 397: only if requested and at most 100 users were added). */
export function newSubscriptionMessagesAllowed(world: World, input: NoticeInput): boolean {
  if (!world.has(FEATURES.NEW_SUBSCRIPTION_MESSAGES)) return true;
  return input.sendNewSubscriptionMessages && input.subscribed.size <= MAX_BULK_NEW_SUBSCRIPTION_MESSAGES;
}

/** DMs for users subscribed by someone else: never the actor, never bots, never for channels just created. */
export function subscribedByOthersNotices(world: World, input: NoticeInput): SubscribedByOthersNotice[] {
  if (!newSubscriptionMessagesAllowed(world, input)) return [];
  const createdIds = new Set(input.created.map((s) => s.id));
  const notices: SubscribedByOthersNotice[] = [];
  for (const [userId, streams] of input.subscribed) {
    if (userId === input.actor.id || world.users.get(userId)?.isBot) continue;
    const names = streams.filter((s) => !createdIds.has(s.id)).map((s) => s.name);
    if (names.length > 0) notices.push({ recipientId: userId, channelNames: names.sort(compareNames) });
  }
  return notices;
}

export function channelsCreatedNotice(world: World, input: NoticeInput): ChannelsCreatedNotice {
  const announcementChannelId = input.announce && input.created.length > 0 ? world.realm.newStreamAnnouncementsStreamId : null;
  return {
    channelIds: input.created.map((s) => s.id),
    announcementChannelId,
    channelEvents: input.created.map((s) => ({ streamId: s.id, policy: channelPolicy(s), description: s.description })),
  };
}
