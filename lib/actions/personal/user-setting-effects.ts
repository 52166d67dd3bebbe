/**
 * Storing one personal setting and everything that follows from it (the real server's
 * `do_change_user_setting`): the `user_settings` event to the user, the legacy
 * `update_global_notifications` / `update_display_settings` twins (the event layer drops them for
 * clients with `user_settings_object`), and the setting-specific effects on time zone, email
 * visibility, drafts and presence.
 */
import { EMAIL_VISIBILITY, type SettingValue, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { LEGACY_DISPLAY, LEGACY_NOTIFICATIONS } from '../../queries/register/settings-state.js';
import { canonicalTimeZone, deliveryEmailViewers, languageName } from '../../queries/personal/user-settings.js';
import { userIdsWhoCanAccess } from '../../queries/users/users-admin.js';
import { apiEmail } from '../../queries/users/users.js';
import { SETTINGS_BY_NAME } from '../../settings/user-settings.js';
import type { World } from '../../state/world.js';
import { deleteAllDraftsOf } from './drafts.js';
import { applyPresenceEnabled } from '../users/presence.js';
import { sendExportConsent } from '../realm/export-consent.js';
import { notifyAvatarUrlChange } from '../users/avatar-events.js';

/** The stored value of a setting (`timezone` lives on the user, the others in its settings map). */
export function currentSetting(user: User, name: string): SettingValue | undefined {
  if (name === 'timezone') return user.timezone;
  return user.settings.get(name) ?? SETTINGS_BY_NAME.get(name)?.stockDefault;
}

/** `user_settings` (from level 89) and the legacy events of the setting's family. */
function sendSettingEvents(world: World, user: User, name: string, value: SettingValue): void {
  const language = name === 'default_language' ? { language_name: languageName(String(value)) } : {};
  if (world.has(FEATURES.USER_SETTINGS_OBJECT)) {
    world.events.send({ type: 'user_settings', op: 'update', property: name, value, ...language }, [user.id]);
  }
  const email = apiEmail(world, user);
  if (LEGACY_NOTIFICATIONS.has(name)) {
    world.events.send({ type: 'update_global_notifications', user: email, notification_name: name, setting: value }, [user.id]);
  }
  if (LEGACY_DISPLAY.has(name) || name === 'timezone') {
    world.events.send({ type: 'update_display_settings', user: email, setting_name: name, setting: value, ...language }, [user.id]);
  }
}

/**
 * After an `email_address_visibility` change: `delivery_email` to each user who can now see the
 * address and `delivery_email: null` to each who no longer can; when the change enters or leaves
 * "everyone", the API email changes too (`new_email`), and so does the avatar clients compute from
 * it (an avatar update, as `notify_avatar_url_change` sends it).
 */
function sendEmailVisibilityEvents(world: World, user: User, before: ReadonlyMap<number, boolean>, previous: SettingValue | undefined): void {
  const now = deliveryEmailViewers(world, user);
  const gained: number[] = [];
  const lost: number[] = [];
  for (const [id, sees] of now) {
    const saw = before.get(id);
    if (saw === undefined || saw === sees) continue;
    (sees ? gained : lost).push(id);
  }
  if (gained.length > 0) world.events.send({ type: 'realm_user', op: 'update', person: { user_id: user.id, delivery_email: user.deliveryEmail } }, gained);
  if (lost.length > 0) world.events.send({ type: 'realm_user', op: 'update', person: { user_id: user.id, delivery_email: null } }, lost);
  const everyone = EMAIL_VISIBILITY.EVERYONE;
  if (previous !== everyone && user.settings.get('email_address_visibility') !== everyone) return;
  const recipients = userIdsWhoCanAccess(world, user);
  world.events.send({ type: 'realm_user', op: 'update', person: { user_id: user.id, new_email: apiEmail(world, user) } }, recipients);
  notifyAvatarUrlChange(world, user);
}

/**
 * Stores a validated value that differs from the current one and applies its effects, in the
 * real server's order. A time zone is stored in canonical form (a link becomes its zone).
 */
export function applySetting(world: World, user: User, name: string, value: SettingValue): void {
  const previous = currentSetting(user, name);
  if (name === 'timezone') {
    const zone = canonicalTimeZone(String(value));
    user.timezone = zone;
    sendSettingEvents(world, user, name, zone);
    const person = { email: apiEmail(world, user), user_id: user.id, timezone: zone };
    world.events.send({ type: 'realm_user', op: 'update', person }, userIdsWhoCanAccess(world, user));
    return;
  }
  const viewersBefore = name === 'email_address_visibility' ? deliveryEmailViewers(world, user) : undefined;
  user.settings.set(name, value);
  sendSettingEvents(world, user, name, value);
  if (viewersBefore) sendEmailVisibilityEvents(world, user, viewersBefore, previous);
  // Drafts stop syncing: the server copies go, without events (the clients keep theirs).
  if (name === 'enable_drafts_synchronization' && value === false) deleteAllDraftsOf(world, user.id);
  // Invisible mode on or off: presence is rewritten at once, so others see the change.
  if (name === 'presence_enabled') applyPresenceEnabled(world, user, value === true);
  if (name === 'allow_private_data_export') sendExportConsent(world, user);
}
