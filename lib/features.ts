/**
 * Every behaviour change the description (and the real server's history) dates by feature level.
 * A world emulating level L behaves as a server at L: `world.has(FEATURES.X)` is true when
 * L >= X.level. Endpoints introduced at a level answer as unknown routes below it.
 */
export const MAX_FEATURE_LEVEL = 415;
export const MIN_FEATURE_LEVEL = 1;

export interface Feature {
  readonly level: number;
  readonly what: string;
}

const f = (level: number, what: string): Feature => ({ level, what });

export const FEATURES = {
  INTEGER_PRINCIPALS: f(9, 'subscribe: principals may be user IDs'),
  LINKIFIERS_ENDPOINT: f(54, 'GET /realm/linkifiers'),
  UPDATE_LINKIFIER_ENDPOINT: f(57, 'PATCH /realm/filters/{filter_id}'),
  STREAM_TYPING: f(58, 'typing notifications for channel messages'),
  STATUS_EMOJI: f(86, 'user status: emoji_name, emoji_code, reaction_type'),
  RETENTION_UNLIMITED: f(91, "message_retention_days 'unlimited' (was 'forever')"),
  CLIENT_GRAVATAR_DEFAULT_TRUE: f(92, 'client_gravatar defaults to true'),
  USER_SETTINGS_DEFAULTS_ENDPOINT: f(96, 'PATCH /realm/user_settings_defaults'),
  SUBSCRIBE_WEB_PUBLIC: f(98, 'subscribe: is_web_public'),
  TWENTY_FOUR_HOUR_TIME_DEFAULT: f(99, 'user settings defaults: twenty_four_hour_time'),
  TYPING_AND_READ_RECEIPT_SETTINGS: f(105, 'send_private/stream_typing_notifications, send_read_receipts'),
  HISTORY_STREAM_FIELD: f(118, 'edit history snapshots carry stream'),
  DISPLAY_EMOJI_REACTION_USERS: f(125, 'user settings defaults: display_emoji_reaction_users'),
  SUBGROUP_ENDPOINTS: f(127, 'user group subgroups endpoints and GET members'),
  DIRECT_SUBGROUP_IDS: f(131, 'user groups carry direct_subgroup_ids'),
  DEACTIVATION_NOTIFICATION_COMMENT: f(135, 'deactivate user: deactivation_notification_comment'),
  CAN_REMOVE_SUBSCRIBERS_GROUP: f(142, 'subscribe: can_remove_subscribers_group (named _id before 197)'),
  DELIVERY_EMAIL_ALWAYS: f(163, 'user objects always carry delivery_email'),
  PRESENCE_TUNING_IN_REGISTER: f(164, 'register: server_presence_* values'),
  IGNORED_PARAMETERS_EVERYWHERE: f(167, 'every success response may carry ignored_parameters_unsupported'),
  USER_TOPICS_ENDPOINT: f(170, 'POST /user_topics'),
  FETCH_API_KEY_USER_ID: f(171, 'fetch_api_key returns user_id'),
  TYPING_DIRECT: f(174, "typing type 'direct'"),
  LINKIFIER_URL_TEMPLATE: f(176, 'linkifiers use url_template'),
  LEGACY_PRESENCE_WEBSITE_ONLY: f(178, "legacy presence always has 'website' and 'aggregated'"),
  FOLLOWED_TOPIC_NOTIFICATIONS: f(189, 'enable_followed_topic_* settings'),
  CAN_MENTION_GROUP_RENAMED: f(198, 'can_mention_group (was can_mention_group_id)'),
  CAN_REMOVE_SUBSCRIBERS_GROUP_RENAMED: f(197, 'can_remove_subscribers_group (was _id)'),
  SUBSCRIBE_DEFAULT_STREAM: f(200, 'subscribe: is_default_stream'),
  REORDER_LINKIFIERS: f(202, 'PATCH /realm/linkifiers'),
  PRINCIPAL_ERROR_IS_BAD_REQUEST: f(208, 'invalid principals: 400 BAD_REQUEST (was 403 UNAUTHORIZED_PRINCIPAL)'),
  TYPING_STREAM_ID: f(215, "typing: stream_id parameter; 'private' type refused"),
  FOLLOWED_TOPICS: f(219, 'visibility_policy 3 (followed); web_escape_navigates_to_home_view'),
  NO_REMOVE_EVENT_ON_DEACTIVATION: f(222, 'deactivation sends realm_user update, not remove'),
  PRESENCE_LIMITED_BY_ACCESS: f(228, 'presence limited to accessible users when configured'),
  AUTO_FOLLOW_MENTIONED: f(235, 'automatically_follow_topics_where_mentioned'),
  TYPING_CHANNEL: f(248, "typing type 'channel'"),
  RECEIVES_TYPING_NOTIFICATIONS: f(253, 'receives_typing_notifications setting'),
  REALM_URL: f(257, 'realm_url (realm_uri deprecated)'),
  CAN_MENTION_GROUP_OBJECT: f(258, 'can_mention_group accepts anonymous groups'),
  GET_USER_STATUS_ENDPOINT: f(262, 'GET /users/{user_id}/status'),
  PRESENCE_LAST_UPDATE_ID: f(263, 'presence last_update_id; slim_presence deprecated'),
  WEB_NAVIGATE_TO_SENT_MESSAGE: f(268, 'web_navigate_to_sent_message'),
  CAN_MANAGE_GROUP: f(283, 'user groups: can_manage_group'),
  PRESENCE_HISTORY_LIMIT_DAYS: f(288, 'presence history_limit_days'),
  SUBSCRIBE_RESPONSE_BY_USER_ID: f(289, 'subscribe response keyed by user ID (was email)'),
  GROUP_DEACTIVATION: f(290, 'user groups can be deactivated'),
  GROUP_CREATOR: f(292, 'user groups carry creator_id and date_created'),
  INCLUDE_DEACTIVATED_GROUPS: f(294, 'GET /user_groups include_deactivated_groups'),
  CAN_JOIN_GROUP: f(301, 'user groups: can_join_group'),
  DEACTIVATED_USERS_HIDDEN_IN_GROUPS: f(303, 'deactivated users hidden from group members'),
  CAN_ADD_MEMBERS_GROUP: f(305, 'user groups: can_add_members_group'),
  CAN_LEAVE_GROUP: f(308, 'user groups: can_leave_group'),
  CREATE_GROUP_SUBGROUPS: f(311, 'create user group: subgroups; members endpoint add/delete_subgroups'),
  CREATE_GROUP_RETURNS_ID: f(317, 'create user group returns group_id'),
  CAN_REMOVE_SUBSCRIBERS_ANY_GROUP: f(320, 'can_remove_subscribers_group takes any group-setting value'),
  CAN_REMOVE_MEMBERS_GROUP: f(324, 'user groups: can_remove_members_group'),
  CAN_ADMINISTER_CHANNEL_GROUP: f(325, 'channels: can_administer_channel_group'),
  WEB_SUGGEST_UPDATE_TIMEZONE: f(329, 'web_suggest_update_timezone'),
  STREAM_POST_POLICY_REMOVED: f(333, 'stream_post_policy and is_announcement_only removed'),
  EMPTY_TOPIC: f(334, 'the empty topic is valid; allow_empty_topic_name'),
  CAN_ADD_SUBSCRIBERS_GROUP: f(342, 'channels: can_add_subscribers_group'),
  ADD_SUBSCRIBERS_WITHOUT_ACCESS: f(349, 'can_add_subscribers_group members may add to private channels'),
  HIDE_AI_FEATURES: f(350, 'hide_ai_features'),
  CAN_SUBSCRIBE_GROUP: f(357, 'channels: can_subscribe_group'),
  EDIT_HISTORY_VISIBILITY_POLICY: f(358, 'message_edit_history_visibility_policy'),
  ARCHIVED_CHANNEL_SUBSCRIPTIONS: f(362, 'subscriptions in archived channels can be modified'),
  BILLING_ADMIN_REMOVED: f(363, 'is_billing_admin removed from user objects'),
  DENSE_MODE_REMOVED: f(364, 'dense_mode setting removed'),
  NO_TOPIC_ALIAS_MESSAGES: f(370, "'(no topic)' read as the empty topic when sending"),
  NO_TOPIC_ALIAS_TYPING: f(372, "'(no topic)' read as the empty topic in typing"),
  REMINDERS: f(381, 'POST /reminders'),
  REPORT_MESSAGE: f(382, 'POST /messages/{message_id}/report'),
  GET_USERS_BY_IDS: f(384, 'GET /users user_ids'),
  RESOLVED_TOPIC_NOTICE_POLICY: f(385, 'resolved_topic_notice_auto_read_policy'),
  CHANNEL_FOLDERS: f(389, 'subscribe: folder_id'),
  NAVIGATION_VIEWS: f(390, 'navigation views endpoints'),
  DEACTIVATED_GROUP_SUBGROUPS: f(391, 'subgroups and members of deactivated groups can change'),
  TOPICS_POLICY: f(392, 'channels: topics_policy'),
  CAN_MOVE_OUT_OF_CHANNEL_GROUP: f(396, 'channels: can_move_messages_out_of_channel_group'),
  NEW_SUBSCRIPTION_MESSAGES: f(397, 'subscribe: send_new_subscription_messages'),
  LIST_DELETE_REMINDERS: f(399, 'GET /reminders and DELETE /reminders/{reminder_id}'),
  EMPTY_TOPIC_ONLY: f(404, "topics_policy 'empty_topic_only'"),
  PUSH_REGISTER: f(406, 'POST /mobile_push/register'),
  ADMIN_SET_USER_STATUS: f(407, 'POST /users/{user_id}/status; can_delete_*_message_group'),
  PARTIAL_SUBSCRIBERS: f(412, "include_subscribers 'partial'"),
  REMINDER_NOTE: f(415, 'reminders: note'),
} as const satisfies Record<string, Feature>;

export type FeatureName = keyof typeof FEATURES;

export function isValidFeatureLevel(level: number): boolean {
  return Number.isInteger(level) && level >= MIN_FEATURE_LEVEL && level <= MAX_FEATURE_LEVEL;
}
