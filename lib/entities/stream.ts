/** Channels (called streams in the API's older names) and subscriptions. */
import type { GroupSetting } from './group.js';

export const CHANNEL_PERMISSION_SETTINGS = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_remove_subscribers_group',
  'can_resolve_topics_group',
  'can_send_message_group',
  'can_subscribe_group',
] as const;
export type ChannelPermissionSetting = (typeof CHANNEL_PERMISSION_SETTINGS)[number];

export const TOPICS_POLICIES = ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'] as const;
export type TopicsPolicy = (typeof TOPICS_POLICIES)[number];

export interface Stream {
  readonly id: number;
  /** Renamed only through `world.streams.rename`, which keeps the name index. */
  readonly name: string;
  description: string;
  /**
   * The description as HTML. Null until first asked for (`channelDescriptionHtml`) on channels
   * a fixture made: a large realm has thousands, most of them never shown.
   */
  renderedDescription: string | null;
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
  /** Null means the realm default; -1 means unlimited. */
  messageRetentionDays: number | null;
  readonly creatorId: number | null;
  /** Milliseconds since the epoch. */
  readonly dateCreated: number;
  isArchived: boolean;
  topicsPolicy: TopicsPolicy;
  folderId: number | null;
  firstMessageId: number | null;
  readonly settings: Map<ChannelPermissionSetting, GroupSetting>;
}

export interface Subscription {
  readonly userId: number;
  readonly streamId: number;
  active: boolean;
  color: string;
  pinToTop: boolean;
  isMuted: boolean;
  desktopNotifications: boolean | null;
  emailNotifications: boolean | null;
  pushNotifications: boolean | null;
  audibleNotifications: boolean | null;
  wildcardMentionsNotify: boolean | null;
}

/**
 * A new active subscription with the defaults every way of subscribing uses: not pinned, not
 * muted, and notification settings null, meaning "inherit the user's defaults"
 * (test_subscriptions_add_notification_default_none).
 */
export function newSubscription(userId: number, streamId: number, color: string): Subscription {
  return {
    userId,
    streamId,
    active: true,
    color,
    pinToTop: false,
    isMuted: false,
    desktopNotifications: null,
    emailNotifications: null,
    pushNotifications: null,
    audibleNotifications: null,
    wildcardMentionsNotify: null,
  };
}

/**
 * A realm's channel folder (level 389). Folders are never deleted, only archived; `order` places
 * them in `GET /channel_folders` from level 414 (a new folder's order is its ID, as on the real server).
 */
export interface ChannelFolder {
  readonly id: number;
  name: string;
  description: string;
  renderedDescription: string;
  readonly creatorId: number | null;
  /** Milliseconds since the epoch. */
  readonly dateCreated: number;
  isArchived: boolean;
  order: number;
}

/** The palette new subscriptions take their colour from. */
export const SUBSCRIPTION_COLORS = [
  '#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5', '#f5ce6e', '#c2726a',
  '#94c849', '#bd86e5', '#ee7e4a', '#a6dcbf', '#95a5fd', '#53a063', '#9987e1', '#e4523d', '#c2c2c2', '#4f8de4',
  '#c6a8ad', '#e7cc4d', '#c8bebf', '#a47462',
];

/**
 * A default channel group: a named set of channels offered together to new users
 * (`DefaultStreamGroup`). Names are unique within the realm, case-sensitively.
 */
export interface DefaultStreamGroup {
  readonly id: number;
  name: string;
  description: string;
  readonly streamIds: Set<number>;
}

/** `DefaultStreamGroup.MAX_NAME_LENGTH`, in code points. */
export const MAX_DEFAULT_STREAM_GROUP_NAME_LENGTH = 60;
/** The model's `description` column (`max_length=1024`). */
export const MAX_DEFAULT_STREAM_GROUP_DESCRIPTION_LENGTH = 1024;
