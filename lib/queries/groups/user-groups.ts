/** Reading user groups and their API shape (section 4.9; behaviour reference §3.1, §3.5-3.8). */
import { badRequest } from '../../errors.js';
import type { GroupPermissionSetting, UserGroup } from '../../entities/group.js';
import type { User } from '../../entities/user.js';
import { type Feature, FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';
import { groupSettingToApi, recursiveSubgroups } from './groups.js';

/** The level each group setting appears at in group objects and as a creation parameter. */
export const GROUP_SETTING_SINCE: ReadonlyMap<GroupPermissionSetting, Feature> = new Map<GroupPermissionSetting, Feature>([
  ['can_add_members_group', FEATURES.CAN_ADD_MEMBERS_GROUP],
  ['can_join_group', FEATURES.CAN_JOIN_GROUP],
  ['can_leave_group', FEATURES.CAN_LEAVE_GROUP],
  ['can_manage_group', FEATURES.CAN_MANAGE_GROUP],
  ['can_mention_group', FEATURES.CAN_MENTION_GROUP_RENAMED],
  ['can_remove_members_group', FEATURES.CAN_REMOVE_MEMBERS_GROUP],
]);

/** Whether the emulated server has this group setting (under its current name). */
export const hasGroupSettingField = (world: World, setting: GroupPermissionSetting): boolean => {
  const since = GROUP_SETTING_SINCE.get(setting);
  return since === undefined || world.has(since);
};

const ascending = (ids: Iterable<number>): number[] => [...ids].sort((a, b) => a - b);

/** Deactivated users are hidden from group memberships from level 303. */
function visibleUser(world: World, userId: number): boolean {
  const user = world.users.get(userId);
  if (!user) return false;
  return user.isActive || !world.has(FEATURES.DEACTIVATED_USERS_HIDDEN_IN_GROUPS);
}

/** A group object as `GET /user_groups` and `user_group/add` events carry it at the emulated level. */
export function toApiUserGroup(world: World, group: UserGroup): Record<string, unknown> {
  const out: Record<string, unknown> = { id: group.id, name: group.name, description: group.description };
  if (world.has(FEATURES.GROUP_CREATOR)) {
    out.creator_id = group.creatorId;
    out.date_created = group.dateCreated === null ? null : Math.floor(group.dateCreated / 1000);
  }
  out.members = ascending([...group.members].filter((id) => visibleUser(world, id)));
  if (world.has(FEATURES.DIRECT_SUBGROUP_IDS)) out.direct_subgroup_ids = ascending(group.subgroups);
  // Levels 127-130 called the field `subgroups`.
  else if (world.has(FEATURES.SUBGROUP_ENDPOINTS)) out.subgroups = ascending(group.subgroups);
  if (world.has(FEATURES.IS_SYSTEM_GROUP)) out.is_system_group = group.isSystemGroup;
  for (const [setting, value] of group.settings) {
    if (hasGroupSettingField(world, setting)) out[setting] = groupSettingToApi(world, value);
  }
  const mention = group.settings.get('can_mention_group');
  if (mention && !world.has(FEATURES.CAN_MENTION_GROUP_RENAMED) && world.has(FEATURES.CAN_MENTION_GROUP_ID)) {
    out.can_mention_group_id = groupSettingToApi(world, mention);
  }
  if (world.has(FEATURES.GROUP_DEACTIVATION)) out.deactivated = group.deactivated;
  return out;
}

export interface UserGroupsOptions {
  readonly includeDeactivated: boolean;
}

/** Every group of the realm, system groups included, sorted by ID (`GET /user_groups`, register's `realm_user_groups`). */
export function userGroupsState(world: World, _user: User, options: UserGroupsOptions): Record<string, unknown>[] {
  return ascending(world.groups.keys())
    .map((id) => world.groups.get(id) as UserGroup)
    .filter((group) => options.includeDeactivated || !group.deactivated)
    .map((group) => toApiUserGroup(world, group));
}

/** The read access of the members and subgroups endpoints: unknown and deactivated groups are refused. */
export function accessUserGroupForRead(world: World, groupId: number): UserGroup {
  const group = world.groups.get(groupId);
  if (!group) throw badRequest('Invalid user group');
  if (group.deactivated) throw badRequest('User group is deactivated.');
  return group;
}

/** Members at any depth (or direct ones only), sorted; deactivated users hidden from level 303. */
export function groupMemberIds(world: World, group: UserGroup, directOnly: boolean): number[] {
  const groups = directOnly ? [group.id] : [group.id, ...recursiveSubgroups(world, group.id)];
  const members = new Set<number>();
  for (const id of groups) for (const userId of world.groups.get(id)?.members ?? []) if (visibleUser(world, userId)) members.add(userId);
  return ascending(members);
}

/** Subgroups at any depth excluding the group itself (or direct ones only), sorted. */
export function groupSubgroupIds(world: World, group: UserGroup, directOnly: boolean): number[] {
  return ascending(directOnly ? group.subgroups : recursiveSubgroups(world, group.id));
}
