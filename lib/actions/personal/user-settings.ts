/**
 * `PATCH /settings`: a user changes their own settings, name, password or email (the real
 * server's `json_change_settings` and `do_change_user_setting`).
 *
 * In the real server's order: the settings values are checked (`default_language`,
 * `notification_sound`, the email batching period); the password change is checked and applied;
 * the email change and the full name are checked; then the name, each changed setting in
 * parameter order, and the time zone last are applied. As there, a bad email address or name
 * leaves the new password in place.
 */
import { timingSafeEqual } from 'node:crypto';
import { badRequest } from '../../errors.js';
import { isAdministrator, type SettingValue, type User } from '../../entities/user.js';
import { realmProperty } from '../../settings/realm-properties.js';
import type { RateLimiter } from '../../state/rate-limit.js';
import { isAvailableLanguage } from '../../queries/personal/user-settings.js';
import { checkFullName, accessAudience, checkNewEmailAddress } from '../../queries/users/users-admin.js';
import type { World } from '../../state/world.js';
import { applySetting, currentSetting } from './user-setting-effects.js';
import { checkSettingsValues } from '../realm/user-settings-defaults.js';

/** What the request asks for; absent fields are left alone. */
export interface OwnSettingsChange {
  /** Parsed personal settings, in parameter (alphabetical) order. */
  readonly settings: ReadonlyMap<string, SettingValue>;
  readonly fullName?: string | undefined;
  readonly email?: string | undefined;
  readonly oldPassword?: string | undefined;
  readonly newPassword?: string | undefined;
  /** Already checked to be a known IANA name. */
  readonly timezone?: string | undefined;
}

export interface OwnSettingsOutcome {
  /** The stored name, when the request changed it (the stripped form). */
  readonly fullName?: string;
  /** Whether an email change was requested (the real server mails a confirmation link). */
  readonly emailChangeStarted: boolean;
}

function samePassword(stored: string, given: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `authenticate` with the old password, counted by the failed-login limiter of `POST
 * /fetch_api_key` (`authenticate_by_username`); then the strength check, which on a
 * development server refuses only the empty password.
 */
function checkPasswordChange(world: World, user: User, change: OwnSettingsChange, attempts: RateLimiter): void {
  const key = user.deliveryEmail;
  const wait = attempts.attempt(key);
  if (wait !== undefined) throw badRequest(`You're making too many attempts! Try again in ${Math.trunc(wait)} seconds.`);
  const old = change.oldPassword;
  if (!world.realm.emailAuthEnabled || user.password === null || old === undefined || !samePassword(user.password, old)) {
    throw badRequest('Wrong password!');
  }
  attempts.clear(key);
  if (change.newPassword === '') throw badRequest('New password is too weak!');
}

/**
 * `validate_email_change_request`, for an address other than the current one. The change itself
 * is a confirmation email the user must follow, so nothing is stored here.
 */
function checkEmailChange(world: World, user: User, requested: string): boolean {
  if (realmProperty(world, 'email_changes_disabled') === true && !isAdministrator(user)) {
    throw badRequest('Email address changes are disabled in this organization.');
  }
  const email = requested.trim();
  if (email === user.deliveryEmail) return false;
  checkNewEmailAddress(world, email);
  return true;
}

/** Checks and applies the request in the real view's order, with its events. */
export function changeOwnSettings(world: World, user: User, change: OwnSettingsChange, attempts: RateLimiter): OwnSettingsOutcome {
  const language = change.settings.get('default_language');
  if (language !== undefined && !isAvailableLanguage(String(language))) throw badRequest('Invalid default_language');
  checkSettingsValues(change.settings);
  if (change.newPassword !== undefined) {
    checkPasswordChange(world, user, change, attempts);
    user.password = change.newPassword;
  }
  const emailChangeStarted = change.email !== undefined && checkEmailChange(world, user, change.email);
  // Like the real server: any different spelling is checked (and stored stripped), even one
  // that strips to the current name; with name changes disabled a non-administrator's new name
  // is dropped without an error.
  const nameLocked = realmProperty(world, 'name_changes_disabled') === true && !isAdministrator(user);
  const fullName = change.fullName !== undefined && change.fullName !== user.fullName && !nameLocked ? checkFullName(change.fullName, { world, exceptUserId: user.id }) : undefined;
  const settings = [...change.settings].filter(([name, value]) => currentSetting(user, name) !== value);
  const timezone = change.timezone !== undefined && change.timezone !== user.timezone ? change.timezone : undefined;

  if (fullName !== undefined) {
    user.fullName = fullName;
    world.events.send({ type: 'realm_user', op: 'update', person: { user_id: user.id, full_name: fullName } }, accessAudience(world, user));
  }
  for (const [name, value] of settings) applySetting(world, user, name, value);
  if (timezone !== undefined) applySetting(world, user, 'timezone', timezone);
  return { ...(fullName === undefined ? {} : { fullName }), emailChangeStarted };
}
