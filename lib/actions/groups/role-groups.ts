/** Keeps users' direct membership of the role system groups in line with their roles. */
import type { SystemGroupName } from '../../entities/group.js';
import { ROLE, type Role, type User } from '../../entities/user.js';
import type { World } from '../../state/world.js';

const ROLE_GROUP = new Map<Role, SystemGroupName>([
  [ROLE.OWNER, 'role:owners'],
  [ROLE.ADMINISTRATOR, 'role:administrators'],
  [ROLE.MODERATOR, 'role:moderators'],
  [ROLE.MEMBER, 'role:members'],
  [ROLE.GUEST, 'role:everyone'],
]);

/** Whether a member is still provisional (joined less than the waiting period before `now`). */
export function isProvisional(world: World, user: User, now: number = world.now()): boolean {
  if (user.role !== ROLE.MEMBER) return false;
  const waitingMs = world.realm.waitingPeriodThreshold * 86_400_000;
  return now - user.dateJoined < waitingMs;
}

const ALL_ROLE_GROUPS: readonly SystemGroupName[] = [...ROLE_GROUP.values(), 'role:fullmembers'];

/** Puts the user directly into the group for its role (and `role:fullmembers` when it applies). */
export function syncRoleGroups(world: World, user: User): void {
  for (const name of ALL_ROLE_GROUPS) world.groups.get(world.systemGroupId(name))?.members.delete(user.id);
  joinRoleGroups(world, user);
}

/**
 * `syncRoleGroups` for a user in no role group yet (a new one): only the joining. A caller adding
 * many users at one moment passes that moment (the clock is read once, not per user).
 */
export function joinRoleGroups(world: World, user: User, now: number = world.now()): void {
  const name = ROLE_GROUP.get(user.role);
  if (name) world.groups.get(world.systemGroupId(name))?.members.add(user.id);
  if (user.role === ROLE.MEMBER && !isProvisional(world, user, now)) {
    world.groups.get(world.systemGroupId('role:fullmembers'))?.members.add(user.id);
  }
}
