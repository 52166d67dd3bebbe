/**
 * `PATCH /realm/user_settings_defaults` (section 4.3): changes the defaults new users get.
 * Existing users are never touched (their settings and drafts stay as they are).
 */
import { badRequest } from '../../errors.js';
import type { SettingValue } from '../../entities/user.js';
import { realmAudience  } from '../../queries/users/access.js';
import { availableNotificationSounds } from '../../queries/realm/user-settings-defaults.js';
import { SETTINGS_BY_NAME } from '../../settings/user-settings.js';
import type { World } from '../../state/world.js';

/** The real server's limit on `email_notifications_batching_period_seconds`: one week. */
export const MAX_EMAIL_BATCHING_PERIOD_SECONDS = 7 * 24 * 60 * 60;

/**
 * Checks done after parsing, in the real server's order (`check_settings_values`): the sound,
 * then the email batching period. `PATCH /settings` runs them too.
 */
export function checkSettingsValues(changes: ReadonlyMap<string, SettingValue>): void {
  const sound = changes.get('notification_sound');
  if (sound !== undefined && sound !== 'none' && !availableNotificationSounds().includes(String(sound))) {
    throw badRequest(`Invalid notification sound '${String(sound)}'`);
  }
  const period = changes.get('email_notifications_batching_period_seconds');
  if (typeof period === 'number' && (period <= 0 || period > MAX_EMAIL_BATCHING_PERIOD_SECONDS)) {
    throw badRequest(`Invalid email batching period: ${period} seconds`);
  }
}

/**
 * Applies parsed setting values (already type- and choice-checked, in parameter order). Each
 * value that differs from the stored default is saved and announced with one
 * `realm_user_settings_defaults` update event to every active user.
 */
export function updateUserSettingsDefaults(world: World, changes: ReadonlyMap<string, SettingValue>): void {
  checkSettingsValues(changes);
  const changed: Array<[string, SettingValue]> = [];
  for (const [name, value] of changes) {
    const definition = SETTINGS_BY_NAME.get(name);
    const current = world.userSettingsDefaults.get(name) ?? definition?.stockDefault;
    if (current !== value) changed.push([name, value]);
  }
  for (const [name, value] of changed) {
    world.userSettingsDefaults.set(name, value);
    world.events.send({ type: 'realm_user_settings_defaults', op: 'update', property: name, value }, realmAudience(world));
  }
}
