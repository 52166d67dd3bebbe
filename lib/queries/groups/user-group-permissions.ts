/**
 * Who may create and change user groups (behaviour reference §0.3, §3.3): the real server's
 * `access_user_group_for_update` and the realm's `can_create_groups`.
 */
import { badRequest, insufficientPermission } from '../../errors.js';
import type { GroupPermissionSetting, UserGroup } from '../../entities/group.js';
import { isModeratorOrAbove, type User } from '../../entities/user.js';
import { GROUP_SETTING_RULES } from '../../settings/defaults.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';
import { hasGroupSetting } from './groups.js';
import { hasGroupSettingField } from './user-groups.js';

/** What a modification does; each maps to the group setting that grants it besides managing. */
export type GroupOperation = 'add_members' | 'join' | 'remove_members' | 'leave' | 'add_subgroups' | 'remove_subgroups';

const OPERATION_SETTING = new Map<GroupOperation, GroupPermissionSetting | null>([
  ['add_members', 'can_add_members_group'],
  ['join', 'can_join_group'],
  ['remove_members', 'can_remove_members_group'],
  ['leave', 'can_leave_group'],
  ['add_subgroups', 'can_add_members_group'],
  // Removing subgroups needs can_manage_group (`test_permission_to_remove_subgroups_from_group`).
  ['remove_subgroups', null],
]);

/** Whether the user holds a group's setting (guests never hold settings that refuse role:everyone). */
function holds(world: World, user: User, group: UserGroup, setting: GroupPermissionSetting): boolean {
  const value = group.settings.get(setting);
  if (!value || !hasGroupSettingField(world, setting)) return false;
  return hasGroupSetting(world, user, value, { allowEveryone: GROUP_SETTING_RULES.get(setting)?.allowEveryone ?? false });
}

/** The realm's `can_create_groups`: the creation gate after the member-or-admin gate. */
export function canCreateGroups(world: World, user: User): boolean {
  const setting = world.realm.settings.get('can_create_groups');
  return setting !== undefined && hasGroupSetting(world, user, setting, { allowEveryone: false });
}

/** Whether the user may manage the group: the realm's `can_manage_all_groups` or the group's `can_manage_group`. */
export function canManageGroup(world: World, user: User, group: UserGroup): boolean {
  const all = world.realm.settings.get('can_manage_all_groups');
  if (all && hasGroupSetting(world, user, all, { allowEveryone: false })) return true;
  return holds(world, user, group, 'can_manage_group');
}

/**
 * Before level 283 (no `can_manage_group`), a user-defined group could be changed by
 * administrators, moderators and its own direct members.
 */
function legacyCanEdit(user: User, group: UserGroup): boolean {
  return isModeratorOrAbove(user) || group.members.has(user.id);
}

/**
 * The target of a modification: `Invalid user group` when unknown; `User group is deactivated.`
 * before level 391 (unless `allowDeactivated`); `Insufficient permission` for system groups and for
 * users who neither manage the group nor hold the setting of one of `operations`.
 */
export function accessUserGroupForUpdate(
  world: World,
  user: User,
  groupId: number,
  operations: readonly GroupOperation[],
  allowDeactivated = world.has(FEATURES.DEACTIVATED_GROUP_SUBGROUPS),
): UserGroup {
  const group = world.groups.get(groupId);
  if (!group) throw badRequest('Invalid user group');
  if (group.deactivated && !allowDeactivated) throw badRequest('User group is deactivated.');
  if (group.isSystemGroup) throw insufficientPermission();
  if (!world.has(FEATURES.CAN_MANAGE_GROUP)) {
    if (legacyCanEdit(user, group)) return group;
    throw insufficientPermission();
  }
  if (canManageGroup(world, user, group)) return group;
  for (const operation of operations) {
    const setting = OPERATION_SETTING.get(operation);
    if (setting && holds(world, user, group, setting)) return group;
  }
  throw insufficientPermission();
}
