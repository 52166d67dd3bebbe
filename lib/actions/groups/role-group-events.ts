/**
 * Role-group membership changes with their events: the real server announces every system
 * group membership change with `user_group` `add_members` / `remove_members` events to all users.
 */
import { syncRoleGroups } from './role-groups.js';
import type { User } from '../../entities/user.js';
import { realmAudience  } from '../../queries/users/access.js';
import type { World } from '../../state/world.js';

function directGroupsOf(world: World, userId: number): Set<number> {
  const ids = new Set<number>();
  for (const groupId of world.systemGroups.values()) if (world.groups.get(groupId)?.members.has(userId)) ids.add(groupId);
  return ids;
}

/** Puts users into the groups of their roles and announces each membership that changed. */
export function syncRoleGroupsWithEvents(world: World, users: readonly User[]): void {
  const added = new Map<number, number[]>();
  const removed = new Map<number, number[]>();
  for (const user of users) {
    const before = directGroupsOf(world, user.id);
    syncRoleGroups(world, user);
    const after = directGroupsOf(world, user.id);
    for (const id of after) if (!before.has(id)) added.set(id, [...(added.get(id) ?? []), user.id]);
    for (const id of before) if (!after.has(id)) removed.set(id, [...(removed.get(id) ?? []), user.id]);
  }
  const everyone = realmAudience(world);
  for (const [groupId, userIds] of removed) world.events.send({ type: 'user_group', op: 'remove_members', group_id: groupId, user_ids: userIds }, everyone);
  for (const [groupId, userIds] of added) world.events.send({ type: 'user_group', op: 'add_members', group_id: groupId, user_ids: userIds }, everyone);
}

/** Re-evaluates `role:fullmembers` for every member after the waiting period changed. */
export function syncFullMembers(world: World): void {
  const users = [...world.users.values()].filter((user) => !user.isSystemBot);
  syncRoleGroupsWithEvents(world, users);
}
