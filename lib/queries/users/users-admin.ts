/** Checks behind user administration (sections 3.2 and 4.15): who may administer whom, names, profile data. */
import { Audience } from '../../state/audience.js';
import { badRequest } from '../../errors.js';
import { isAdministrator, isOwner, type User } from '../../entities/user.js';
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
 * points, forbidden or unprintable characters, and names ending in `|<digits>` (the mention syntax).
 */
export function checkFullName(raw: string): string {
  const name = raw.trim();
  const length = [...name].length;
  if (length > MAX_NAME_LENGTH) throw badRequest('Name too long!');
  if (length < MIN_NAME_LENGTH) throw badRequest('Name too short!');
  if ([...name].some((c) => NAME_INVALID_CHARS.has(c)) || UNPRINTABLE.test(name)) throw badRequest('Invalid characters in name!');
  if (/\|\d+$/.test(name)) throw badRequest('Invalid format!');
  return name;
}
