/**
 * Personal-settings register state: `user_settings` (FL 89), the legacy top-level keys of
 * `update_display_settings` / `update_global_notifications` for clients without the
 * `user_settings_object` capability, and `realm_user_settings_defaults` (FL 95, behavior 3.5;
 * its object comes from lib/queries/realm/user-settings-defaults.ts).
 * Only settings that exist at the emulated level appear.
 */
import type { SettingValue, User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { type SettingDefinition, settingExistsAt, USER_SETTINGS } from '../../settings/user-settings.js';
import type { World } from '../../state/world.js';
import type { RegisterOptions } from './state-fields.js';
import { availableNotificationSounds, emojisetChoices, userSettingsDefaultsState } from '../realm/user-settings-defaults.js';

/** Settings of the legacy `update_display_settings` family (the real server's `display_settings_legacy`). */
export const LEGACY_DISPLAY: ReadonlySet<string> = new Set([
  'color_scheme',
  'default_language',
  'default_view',
  'web_home_view',
  'demote_inactive_streams',
  'dense_mode',
  'emojiset',
  'enable_drafts_synchronization',
  'enter_sends',
  'fluid_layout_width',
  'high_contrast_mode',
  'left_side_userlist',
  'starred_message_counts',
  'translate_emoticons',
  'twenty_four_hour_time',
]);

/** Settings of the legacy `update_global_notifications` family (`notification_settings_legacy`). */
export const LEGACY_NOTIFICATIONS: ReadonlySet<string> = new Set([
  'enable_desktop_notifications',
  'enable_digest_emails',
  'enable_login_emails',
  'enable_marketing_emails',
  'email_notifications_batching_period_seconds',
  'enable_offline_email_notifications',
  'enable_offline_push_notifications',
  'enable_online_push_notifications',
  'enable_sounds',
  'enable_stream_desktop_notifications',
  'enable_stream_email_notifications',
  'enable_stream_push_notifications',
  'enable_stream_audible_notifications',
  'wildcard_mentions_notify',
  'message_content_in_email_notifications',
  'notification_sound',
  'pm_content_in_desktop_notifications',
  'desktop_icon_count_display',
  'realm_name_in_email_notifications_policy',
  'presence_enabled',
]);

/** `[name, value]` of each setting existing at the level (and passing `keep`), in definition order. */
function settingEntries(
  world: World,
  values: ReadonlyMap<string, SettingValue>,
  keep: (definition: SettingDefinition) => boolean = () => true,
): Array<[string, SettingValue]> {
  return USER_SETTINGS.filter((d) => settingExistsAt(d, world.featureLevel) && keep(d)).map((d) => [d.name, values.get(d.name) ?? d.stockDefault]);
}

/** The `realm_user_settings_defaults` state function (the object itself is the defaults module's). */
export function realmUserSettingsDefaultsState(world: World): Record<string, unknown> {
  return world.has(FEATURES.SETTINGS_DEFAULTS_STATE) ? { realm_user_settings_defaults: userSettingsDefaultsState(world) } : {};
}

/** The `user_settings` state function: the user's own settings object. */
export function userSettingsState(world: World, user: User): Record<string, unknown> {
  if (!world.has(FEATURES.USER_SETTINGS_OBJECT)) return {};
  const settings = Object.fromEntries([
    ...settingEntries(world, user.settings),
    ['timezone', user.timezone],
    ['available_notification_sounds', availableNotificationSounds()],
    ['emojiset_choices', emojisetChoices()],
  ]);
  return { user_settings: settings };
}

/** `update_display_settings`: legacy top-level display settings, for clients without `user_settings_object`. */
export function legacyDisplaySettingsState(world: World, user: User, options: RegisterOptions): Record<string, unknown> {
  if (options.capabilities.userSettingsObject) return {};
  return Object.fromEntries([
    ...settingEntries(world, user.settings, (d) => LEGACY_DISPLAY.has(d.name)),
    ['timezone', user.timezone],
    ['emojiset_choices', emojisetChoices()],
  ]);
}

/** `update_global_notifications`: legacy top-level notification settings, likewise. */
export function legacyNotificationSettingsState(world: World, user: User, options: RegisterOptions): Record<string, unknown> {
  if (options.capabilities.userSettingsObject) return {};
  return Object.fromEntries([
    ...settingEntries(world, user.settings, (d) => LEGACY_NOTIFICATIONS.has(d.name)),
    ['available_notification_sounds', availableNotificationSounds()],
  ]);
}
