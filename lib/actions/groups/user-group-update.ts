/**
 * `PATCH /user_groups/{user_group_id}` (the real server's `edit_user_group`): name, description,
 * reactivation (`deactivated=false`, level 386) and the group's permission settings. Deactivated
 * groups can be edited from level 340. Only those who may manage the group may change it; system
 * groups never. Everything is checked first; then each change sends a `user_group` `update`
 * event with the changed field to every active user.
 */
import { ApiError, badRequest } from '../../errors.js';
import { GROUP_PERMISSION_SETTINGS, type GroupPermissionSetting, type GroupSetting, type UserGroup } from '../../entities/group.js';
import type { User } from '../../entities/user.js';
import { GROUP_SETTING_RULES } from '../../settings/defaults.js';
import { FEATURES } from '../../features/feature-levels.js';
import { type GroupSettingInput, resolveGroupSetting } from '../../input/group-setting-input.js';
import { activeRealmUserIds } from '../../queries/users/access.js';
import { groupSettingToApi } from '../../queries/groups/groups.js';
import { accessUserGroupForUpdate } from '../../queries/groups/user-group-permissions.js';
import { hasGroupSettingField } from '../../queries/groups/user-groups.js';
import type { World } from '../../state/world.js';
import { reactivateUserGroup } from './user-group-deactivation.js';
import { checkUserGroupName } from './user-groups.js';

/** A setting change: the new value and, optionally, the value the client believes is current. */
export interface GroupSettingChange {
  readonly new: GroupSettingInput;
  readonly old?: GroupSettingInput;
}

export interface UserGroupUpdate {
  readonly name?: string;
  readonly description?: string;
  /** Only `false` acts (reactivation); `true` is accepted and does nothing, as on the real server. */
  readonly deactivated?: boolean;
  readonly settings: ReadonlyMap<GroupPermissionSetting, GroupSettingChange>;
}

const sameValue = (world: World, a: GroupSetting, b: GroupSetting): boolean =>
  JSON.stringify(groupSettingToApi(world, a)) === JSON.stringify(groupSettingToApi(world, b));

/** Resolves a setting change; undefined when the value would not change (`validate_group_setting_value_change`). */
function planSetting(world: World, group: UserGroup, name: GroupPermissionSetting, change: GroupSettingChange): GroupSetting | undefined {
  const rules = GROUP_SETTING_RULES.get(name);
  const current = group.settings.get(name);
  if (!rules || !current) return undefined;
  const next = resolveGroupSetting(world, name, change.new, rules);
  if (change.old !== undefined && !sameValue(world, resolveGroupSetting(world, name, change.old, rules), current)) {
    throw new ApiError('EXPECTATION_MISMATCH', 400, "'old' value does not match the expected value.");
  }
  return sameValue(world, next, current) ? undefined : next;
}

export function updateUserGroup(world: World, actor: User, groupId: number, update: UserGroupUpdate): void {
  const nothing = update.name === undefined && update.description === undefined && update.deactivated === undefined;
  if (nothing && update.settings.size === 0) throw badRequest('No new data supplied');
  const group = accessUserGroupForUpdate(world, actor, groupId, [], world.has(FEATURES.DEACTIVATED_GROUP_EDITABLE));
  const name = update.name !== undefined && update.name !== group.name ? update.name : undefined;
  if (name !== undefined) {
    checkUserGroupName(name);
    for (const other of world.groups.values()) if (other.name === name) throw badRequest(`User group '${name}' already exists.`);
  }
  const description = update.description !== undefined && update.description !== group.description ? update.description : undefined;
  const settings: Array<[GroupPermissionSetting, GroupSetting]> = [];
  for (const setting of GROUP_PERMISSION_SETTINGS) {
    const change = update.settings.get(setting);
    const exists = hasGroupSettingField(world, setting) || (setting === 'can_mention_group' && world.has(FEATURES.CAN_MENTION_GROUP_ID));
    if (change === undefined || !exists) continue;
    const next = planSetting(world, group, setting, change);
    if (next) settings.push([setting, next]);
  }

  const everyone = activeRealmUserIds(world);
  const announce = (data: Record<string, unknown>): void => world.events.send({ type: 'user_group', op: 'update', group_id: group.id, data }, everyone);
  if (name !== undefined) {
    group.name = name;
    // The group's state rides along so clients without deactivated groups miss a deactivated group's rename.
    world.events.send({ type: 'user_group', op: 'update', group_id: group.id, data: { name }, deactivated: group.deactivated }, everyone);
  }
  if (description !== undefined) {
    group.description = description;
    announce({ description });
  }
  if (update.deactivated === false && group.deactivated) reactivateUserGroup(world, group);
  for (const [setting, value] of settings) {
    group.settings.set(setting, value);
    // Levels 191-197 named the mention setting `can_mention_group_id`.
    const key = setting === 'can_mention_group' && !world.has(FEATURES.CAN_MENTION_GROUP_RENAMED) ? 'can_mention_group_id' : setting;
    announce({ [key]: groupSettingToApi(world, value) });
  }
}
