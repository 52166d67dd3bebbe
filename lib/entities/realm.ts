/** The organization and its settings. */
import type { GroupSetting } from './group.js';

export const REALM_PERMISSION_SETTINGS = [
  'can_access_all_users_group',
  'can_add_custom_emoji_group',
  'can_add_subscribers_group',
  'can_create_groups',
  'can_create_private_channel_group',
  'can_create_public_channel_group',
  'can_create_web_public_channel_group',
  'can_invite_users_group',
  'can_create_bots_group',
  'can_create_write_only_bots_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_manage_billing_group',
  'can_mention_many_users_group',
  'can_set_delete_message_policy_group',
  'can_summarize_topics_group',
  'direct_message_initiator_group',
  'can_manage_all_groups',
  'can_set_topics_policy_group',
  'can_move_messages_between_channels_group',
  'can_move_messages_between_topics_group',
  'can_resolve_topics_group',
  'create_multiuse_invite_group',
  'direct_message_permission_group',
] as const;
export type RealmPermissionSetting = (typeof REALM_PERMISSION_SETTINGS)[number];

export type EditHistoryVisibilityPolicy = 'all' | 'moves' | 'none';

export interface Realm {
  readonly id: number;
  name: string;
  description: string;
  /** Host part of synthetic API emails (`user<ID>@<domain>`). */
  fakeEmailDomain: string;
  /** Fixed realm URL; when null the URL follows the request's Host header. */
  url: string | null;
  /** Milliseconds since the epoch. */
  readonly dateCreated: number;
  moderationRequestChannelId: number | null;
  newStreamAnnouncementsStreamId: number | null;
  signupAnnouncementsStreamId: number | null;
  zulipUpdateAnnouncementsStreamId: number | null;
  editHistoryVisibilityPolicy: EditHistoryVisibilityPolicy;
  allowMessageEditing: boolean;
  /** Null means no limit. */
  messageContentEditLimitSeconds: number | null;
  /** Topic moves by non-moderators; null means no limit, absent means the default 604800 (7 days). */
  moveMessagesWithinStreamLimitSeconds?: number | null;
  /** Channel moves by non-moderators; null means no limit, absent means the default 604800 (7 days). */
  moveMessagesBetweenStreamsLimitSeconds?: number | null;
  presenceDisabled: boolean;
  enableSpectatorAccess: boolean;
  waitingPeriodThreshold: number;
  /** Realm-level topics policy used by channels whose own policy is `inherit`. */
  topicsPolicy: 'allow_empty_topic' | 'disable_empty_topic';
  messageRetentionDays: number;
  maxFileUploadSizeMib: number;
  emailAuthEnabled: boolean;
  /**
   * Whether administrators may create users through `POST /users`. The real server requires a
   * per-account `can_create_users` flag set by a server administrator; here it is one realm-wide
   * option (fixture `realm.canCreateUsers`, on in the development realm).
   */
  canCreateUsers: boolean;
  /**
   * Whether administrators may change other users' emails (`new_email` on `PATCH /users/...`).
   * The real server requires a per-account `can_change_user_emails` flag that only a server
   * administrator sets; here it is one realm-wide option (fixture `realm.canChangeUserEmails`,
   * off by default as there, on in the development realm).
   */
  canChangeUserEmails: boolean;
  readonly settings: Map<RealmPermissionSetting, GroupSetting>;
  /** Set by `POST /realm/deactivate`: every authenticated request is then refused. */
  deactivated?: boolean;
}
