/** Checks behind user administration (sections 3.2 and 4.15): who may administer whom, names, profile data. */
import { Audience } from '../../state/audience.js';
import { badRequest } from '../../errors.js';
import { isAdministrator, isOwner, type User } from '../../entities/user.js';
import { isValidEmail } from '../../input/email.js';
import { realmProperty } from '../../settings/realm-properties.js';
import type { World } from '../../state/world.js';
import { canAccessUser } from './access.js';

/** Active realm users who can access `target` (`get_user_ids_who_can_access_user`). */
/** Active users who can access `target`, as an audience: realm-wide user events cost the open queues. */
export function accessAudience(world: World, target: User): Audience {
  return new Audience(world, (id) => {
    const user = world.users.get(id);
    return user !== undefined && user.isActive && !user.isSystemBot && canAccessUser(world, user, target);
  });
}

export function userIdsWhoCanAccess(world: World, target: User): number[] {
  return [...accessAudience(world, target)];
}

/** `can_admin_user`: the bot's owner, or an administrator of the realm. */
export const canAdminUser = (actor: User, target: User): boolean => target.botOwnerId === actor.id || isAdministrator(actor);

/** Whether `user` is the only active human owner (`check_last_owner`). */
export function isLastHumanOwner(world: World, user: User): boolean {
  if (!isOwner(user) || user.isBot) return false;
  for (const other of world.users.values()) {
    if (other.id !== user.id && other.isActive && !other.isBot && isOwner(other)) return false;
  }
  return true;
}

export const MAX_NAME_LENGTH = 100;
export const MIN_NAME_LENGTH = 2;
const NAME_INVALID_CHARS = new Set(['*', '`', '\\', '>', '"', '@']);

/** Control, format, unassigned, surrogate and private-use code points (Python's "not printable" minus spaces). */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Cs}]/u;

/**
 * The real server's `check_full_name`: strips, then refuses names over 100 or under 2 code
 * points, forbidden or unprintable characters, and raw names ending in `|<digits>` (the mention syntax).
 */
export function checkFullName(raw: string, unique?: UniqueNameScope): string {
  const name = raw.trim();
  const length = [...name].length;
  if (length > MAX_NAME_LENGTH) throw badRequest('Name too long!');
  if (length < MIN_NAME_LENGTH) throw badRequest('Name too short!');
  if ([...name].some((c) => NAME_INVALID_CHARS.has(c)) || UNPRINTABLE.test(name)) throw badRequest('Invalid characters in name!');
  // On the raw name, as Python's `re.search(r"\|\d+$", full_name_raw)`: Unicode digits, and `$`
  // also matches before a final newline; so `Bob|12 ` passes and `Bob|12\n` does not.
  if (/\|\p{Nd}+\n?$/u.test(raw)) throw badRequest('Invalid format!');
  if (unique && realmProperty(unique.world, 'require_unique_names') === true) checkUniqueName(unique, name);
  return name;
}

/** The realm whose names a new name is compared with, and the user it belongs to (if any). */
export interface UniqueNameScope {
  readonly world: World;
  readonly exceptUserId: number | null;
}

/** NFKC, then Python's `casefold` approximated by upper- then lowercasing (ß and ss meet). */
const nameKey = (name: string): string => name.normalize('NFKC').toUpperCase().toLowerCase();

/** `require_unique_names`: no other account, bots and deactivated users included, has the name. */
function checkUniqueName(scope: UniqueNameScope, name: string): void {
  const key = nameKey(name);
  for (const user of scope.world.users.values()) {
    if (user.id !== scope.exceptUserId && !user.isSystemBot && nameKey(user.fullName) === key) {
      throw badRequest('Unique names required in this organization.');
    }
  }
}

/**
 * A new address for an existing account, with the texts of the real server's
 * `validate_email_change_request`: a valid address no account of the realm already has.
 */
export function checkNewEmailAddress(world: World, email: string): void {
  if (!isValidEmail(email)) throw badRequest('Invalid address.');
  const existing = world.usersByEmail.get(email.toLowerCase());
  if (existing?.isSystemBot) throw badRequest('Reserved for system bots.');
  if (existing) throw badRequest(existing.isActive ? 'Already has an account.' : 'Account has been deactivated.');
}
