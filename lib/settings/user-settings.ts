/**
 * Personal settings that have organization-level defaults for new users (sections 2.7 and 4.3),
 * with their stock defaults, allowed values and the feature level each appeared at.
 */
import type { SettingValue } from '../entities/user.js';

export interface SettingDefinition {
  readonly name: string;
  readonly kind: 'bool' | 'int' | 'string';
  readonly stockDefault: SettingValue;
  /** Allowed values; absent means any value of the kind (further checks live in the action). */
  readonly allowed?: readonly SettingValue[];
  /** Whether `PATCH /realm/user_settings_defaults` accepts it. */
  readonly patchable: boolean;
  readonly since?: number;
  readonly removedAt?: number;
}

const bool = (name: string, stockDefault: boolean, since?: number, patchable = true): SettingDefinition => ({
  name,
  kind: 'bool',
  stockDefault,
  patchable,
  ...(since === undefined ? {} : { since }),
});
const int = (name: string, stockDefault: number, allowed?: readonly number[], since?: number): SettingDefinition => ({
  name,
  kind: 'int',
  stockDefault,
  patchable: true,
  ...(allowed === undefined ? {} : { allowed }),
  ...(since === undefined ? {} : { since }),
});
const string = (name: string, stockDefault: string, allowed?: readonly string[], since?: number, patchable = true): SettingDefinition => ({
  name,
  kind: 'string',
  stockDefault,
  patchable,
  ...(allowed === undefined ? {} : { allowed }),
  ...(since === undefined ? {} : { since }),
});

/** The real server's emoji sets; the description's `emojiset_a`/`emojiset_b` are aliases. */
export const EMOJISETS = ['google', 'twitter', 'text', 'google-blob'] as const;
export const EMOJISET_ALIASES = new Map([
  ['emojiset_a', 'google'],
  ['emojiset_b', 'twitter'],
]);
export const NOTIFICATION_SOUNDS = ['zulip', 'ding', 'chime', 'chirp', 'disclosure', 'pluck', 'pop', 'ding-dong', 'none'];

export const USER_SETTINGS: readonly SettingDefinition[] = [
  bool('starred_message_counts', true),
  bool('receives_typing_notifications', true, 253),
  bool('web_suggest_update_timezone', true, 329),
  bool('fluid_layout_width', false),
  bool('high_contrast_mode', false),
  int('web_mark_read_on_scroll_policy', 1, [1, 2, 3], 175),
  int('web_channel_default_view', 1, [1, 2, 3, 4], 269),
  int('web_font_size_px', 16, undefined, 245),
  int('web_line_height_percent', 140, undefined, 245),
  int('color_scheme', 1, [1, 2, 3]),
  bool('enable_drafts_synchronization', true),
  bool('translate_emoticons', false),
  bool('display_emoji_reaction_users', true, 125),
  // Level 219 renamed `default_view` and `escape_navigates_to_default_view` (and added `inbox`).
  string('web_home_view', 'inbox', ['recent_topics', 'inbox', 'all_messages'], 219),
  bool('web_escape_navigates_to_home_view', true, 219),
  { ...string('default_view', 'recent_topics', ['recent_topics', 'all_messages']), removedAt: 219 },
  { ...bool('escape_navigates_to_default_view', true), removedAt: 219 },
  bool('left_side_userlist', false),
  string('emojiset', 'google', EMOJISETS),
  int('demote_inactive_streams', 1, [1, 2, 3]),
  int('user_list_style', 3, [1, 2, 3], 141),
  string('web_animate_image_previews', 'on_hover', ['always', 'on_hover', 'never'], 275),
  int('web_stream_unreads_count_display_policy', 2, [1, 2, 3], 210),
  bool('hide_ai_features', false, 350),
  bool('web_left_sidebar_show_channel_folders', true, 411),
  bool('web_left_sidebar_unreads_count_summary', true, 398),
  bool('enable_stream_desktop_notifications', false),
  bool('enable_stream_email_notifications', false),
  bool('enable_stream_push_notifications', false),
  bool('enable_stream_audible_notifications', false),
  string('notification_sound', 'zulip', NOTIFICATION_SOUNDS),
  bool('enable_desktop_notifications', true),
  bool('enable_sounds', true),
  bool('enable_followed_topic_desktop_notifications', true, 189),
  bool('enable_followed_topic_email_notifications', true, 189),
  bool('enable_followed_topic_push_notifications', true, 189),
  bool('enable_followed_topic_audible_notifications', true, 189),
  int('email_notifications_batching_period_seconds', 120),
  bool('enable_offline_email_notifications', true),
  bool('enable_offline_push_notifications', true),
  bool('enable_online_push_notifications', true),
  bool('enable_digest_emails', true),
  bool('message_content_in_email_notifications', true),
  bool('pm_content_in_desktop_notifications', true),
  bool('wildcard_mentions_notify', true),
  bool('enable_followed_topic_wildcard_mentions_notify', true, 189),
  int('desktop_icon_count_display', 1, [1, 2, 3, 4], 227),
  int('realm_name_in_email_notifications_policy', 1, [1, 2, 3], 168),
  int('automatically_follow_topics_policy', 3, [1, 2, 3, 4], 214),
  int('automatically_unmute_topics_in_muted_streams_policy', 2, [1, 2, 3, 4], 214),
  bool('automatically_follow_topics_where_mentioned', true, 235),
  string('resolved_topic_notice_auto_read_policy', 'except_followed', ['always', 'except_followed', 'never'], 385),
  bool('presence_enabled', true),
  bool('enter_sends', false),
  bool('twenty_four_hour_time', false, 99),
  bool('send_private_typing_notifications', true, 105),
  bool('send_stream_typing_notifications', true, 105),
  bool('send_read_receipts', true, 105),
  int('email_address_visibility', 1, [1, 2, 3, 4, 5], 163),
  bool('web_navigate_to_sent_message', true, 268),
  // Present in the defaults object but not settable through the defaults endpoint.
  string('default_language', 'en', undefined, undefined, false),
  bool('enable_login_emails', true, undefined, false),
  bool('enable_marketing_emails', true, undefined, false),
  bool('allow_private_data_export', false, 293, false),
  { name: 'dense_mode', kind: 'bool', stockDefault: true, patchable: true, removedAt: 364 },
];

export const SETTINGS_BY_NAME: ReadonlyMap<string, SettingDefinition> = new Map(USER_SETTINGS.map((s) => [s.name, s]));

/** Whether a setting exists at the emulated feature level. */
export function settingExistsAt(definition: SettingDefinition, featureLevel: number): boolean {
  if (definition.since !== undefined && featureLevel < definition.since) return false;
  if (definition.removedAt !== undefined && featureLevel >= definition.removedAt) return false;
  return true;
}

export function stockDefaults(): Map<string, SettingValue> {
  return new Map(USER_SETTINGS.map((s) => [s.name, s.stockDefault]));
}
