/**
 * Deactivating a user group (`POST /user_groups/{id}/deactivate`, level 290; behaviour reference
 * §3.10; the real server's `access_user_group_for_deactivation` and `do_deactivate_user_group`).
 * Groups are never deleted on current servers: deactivation is how a group leaves use.
 */
import { ApiError, badRequest, insufficientPermission } from '../../errors.js';
import type { GroupSetting, UserGroup } from '../../entities/group.js';
import type { User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { toApiUserGroup } from '../../queries/groups/user-groups.js';
import { realmAudience } from '../../queries/users/access.js';
import { canManageGroup } from '../../queries/groups/user-group-permissions.js';
import type { World } from '../../state/world.js';

/** Where a group is still in use (the real server's objection objects, in its order). */
export type Objection =
  | { readonly type: 'subgroup'; readonly supergroup_ids: number[] }
  | { readonly type: 'channel'; readonly channel_id: number; readonly settings: string[] }
  | { readonly type: 'user_group'; readonly group_id: number; readonly settings: string[] }
  | { readonly type: 'realm'; readonly settings: string[] };

/** Whether a setting value names the group or is an anonymous group with it as a direct subgroup. */
const usesGroup = (value: GroupSetting, groupId: number): boolean =>
  value.kind === 'group' ? value.groupId === groupId : value.subgroups.has(groupId);

/** Setting names in the container's declaration order, as the real server iterates them. */
function settingsUsing<K extends string>(settings: ReadonlyMap<K, GroupSetting>, groupId: number): string[] {
  const names: string[] = [];
  for (const [name, value] of settings) if (usesGroup(value, groupId)) names.push(name);
  return names;
}

/** Every place that keeps an active use of the group: active supergroups, channel, group and realm settings. */
export function groupObjections(world: World, group: UserGroup): Objection[] {
  const objections: Objection[] = [];
  const ascending = <T extends { id: number }>(items: Iterable<T>): T[] => [...items].sort((a, b) => a.id - b.id);
  const supergroups = ascending(world.groups.values()).filter((other) => !other.deactivated && other.subgroups.has(group.id));
  if (supergroups.length > 0) objections.push({ type: 'subgroup', supergroup_ids: supergroups.map((other) => other.id) });
  for (const stream of ascending(world.streams.values())) {
    if (stream.isArchived) continue;
    const settings = settingsUsing(stream.settings, group.id);
    if (settings.length > 0) objections.push({ type: 'channel', channel_id: stream.id, settings });
  }
  for (const other of ascending(world.groups.values())) {
    if (other.deactivated) continue;
    const settings = settingsUsing(other.settings, group.id);
    if (settings.length > 0) objections.push({ type: 'user_group', group_id: other.id, settings });
  }
  const realmSettings = settingsUsing(world.realm.settings, group.id);
  if (realmSettings.length > 0) objections.push({ type: 'realm', settings: realmSettings });
  return objections;
}

/**
 * Deactivates a group the actor manages (the realm's `can_manage_all_groups` or the group's
 * `can_manage_group`). Checks, in the real server's order: unknown group, already deactivated,
 * system group, permission, then uses. Announces `user_group/update` with
 * `data: {deactivated: true}`; the event layer turns it into `remove` for clients without the
 * `include_deactivated_groups` capability.
 */
export function deactivateUserGroup(world: World, actor: User, groupId: number): void {
  const group = world.groups.get(groupId);
  if (!group) throw badRequest('Invalid user group');
  if (group.deactivated) throw badRequest('User group is deactivated.');
  if (group.isSystemGroup || !canManageGroup(world, actor, group)) throw insufficientPermission();
  const objections = groupObjections(world, group);
  if (objections.length > 0) {
    const msg = 'Cannot deactivate user group in use.';
    throw world.has(FEATURES.GROUP_IN_USE_ERROR) ? new ApiError('CANNOT_DEACTIVATE_GROUP_IN_USE', 400, msg, { objections }) : badRequest(msg);
  }
  group.deactivated = true;
  const everyone = realmAudience(world);
  world.events.send({ type: 'user_group', op: 'update', group_id: group.id, data: { deactivated: true } }, everyone);
  world.events.send({ type: 'user_group', op: 'remove', group_id: group.id }, everyone);
}

/**
 * Reactivates a group (`PATCH /user_groups/{id}` with `deactivated=false`, level 386; the real
 * server's `do_reactivate_user_group`): `user_group/update` with `data: {deactivated: false}` for
 * clients that keep deactivated groups, then the group as a `user_group/add` for the others, which
 * had dropped it. The add lists every direct member, as the real server's does.
 */
export function reactivateUserGroup(world: World, group: UserGroup): void {
  group.deactivated = false;
  const everyone = realmAudience(world);
  world.events.send({ type: 'user_group', op: 'update', group_id: group.id, data: { deactivated: false } }, everyone);
  const members = [...group.members].sort((a, b) => a - b);
  world.events.send({ type: 'user_group', op: 'add', group: { ...toApiUserGroup(world, group), members }, for_reactivation: true }, everyone);
}
