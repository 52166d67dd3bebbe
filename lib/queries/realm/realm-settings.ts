/** Rules and comparison for the realm's group permission settings (`Realm.REALM_PERMISSION_GROUP_SETTINGS`). */
import { ApiError, badRequest } from '../../errors.js';
import type { GroupSetting, SystemGroupName } from '../../entities/group.js';
import type { RealmPermissionSetting } from '../../entities/realm.js';
import { checkAnonymousGroup, type GroupSettingInput } from '../../input/group-setting-input.js';
import type { World } from '../../state/world.js';
import { groupSettingToApi } from '../groups/groups.js';

export interface RealmGroupSettingRules {
  readonly requireSystemGroup: boolean;
  readonly allowNobody: boolean;
  readonly allowEveryone: boolean;
  /** When set, the only system groups the setting may name. */
  readonly allowedSystemGroups?: readonly SystemGroupName[];
}

const rule = (allowNobody: boolean, allowEveryone: boolean, extra: Partial<RealmGroupSettingRules> = {}): RealmGroupSettingRules => ({
  requireSystemGroup: false,
  allowNobody,
  allowEveryone,
  ...extra,
});

/** In parameter (alphabetical) order, which is the order the real server checks and applies them. */
export const REALM_GROUP_SETTING_RULES: ReadonlyMap<RealmPermissionSetting, RealmGroupSettingRules> = new Map([
  ['can_access_all_users_group', rule(false, true, { requireSystemGroup: true, allowedSystemGroups: ['role:everyone', 'role:members'] })],
  ['can_add_custom_emoji_group', rule(true, false)],
  ['can_add_subscribers_group', rule(true, false)],
  ['can_create_bots_group', rule(true, false)],
  ['can_create_groups', rule(true, false)],
  ['can_create_private_channel_group', rule(true, false)],
  ['can_create_public_channel_group', rule(true, false)],
  [
    'can_create_web_public_channel_group',
    rule(true, false, { requireSystemGroup: true, allowedSystemGroups: ['role:moderators', 'role:administrators', 'role:owners', 'role:nobody'] }),
  ],
  ['can_create_write_only_bots_group', rule(true, false)],
  ['can_delete_any_message_group', rule(true, false)],
  ['can_delete_own_message_group', rule(true, true)],
  ['can_invite_users_group', rule(true, false)],
  ['can_manage_all_groups', rule(false, false)],
  ['can_manage_billing_group', rule(false, false)],
  ['can_mention_many_users_group', rule(true, true)],
  ['can_move_messages_between_channels_group', rule(true, false)],
  ['can_move_messages_between_topics_group', rule(true, true)],
  ['can_resolve_topics_group', rule(true, true)],
  ['can_set_delete_message_policy_group', rule(true, false)],
  ['can_set_topics_policy_group', rule(true, true)],
  ['can_summarize_topics_group', rule(true, true)],
  ['create_multiuse_invite_group', rule(true, false)],
  ['direct_message_initiator_group', rule(true, true)],
  ['direct_message_permission_group', rule(true, true)],
] as Array<[RealmPermissionSetting, RealmGroupSettingRules]>);

const systemGroupRequired = (name: string): ApiError => new ApiError('SYSTEM_GROUP_REQUIRED', 400, `'${name}' must be a system user group.`);

function systemName(world: World, groupId: number): SystemGroupName | undefined {
  for (const [name, id] of world.systemGroups) if (id === groupId) return name;
  return undefined;
}

/** `check_setting_configuration_for_system_groups`, in its order. */
function checkNamedGroup(world: World, setting: string, groupId: number, rules: RealmGroupSettingRules): void {
  const group = world.groups.get(groupId);
  if (!group) throw badRequest('Invalid user group');
  if (group.deactivated) throw badRequest('User group is deactivated.');
  const name = systemName(world, groupId);
  if (rules.requireSystemGroup && !group.isSystemGroup) throw systemGroupRequired(setting);
  const refuse = (n: string) => badRequest(`'${setting}' setting cannot be set to '${n}' group.`);
  if (name === 'role:internet') throw refuse(name);
  if (name === 'role:nobody' && !rules.allowNobody) throw refuse(name);
  if (name === 'role:everyone' && !rules.allowEveryone) throw refuse(name);
  if (rules.allowedSystemGroups && (!name || !rules.allowedSystemGroups.includes(name))) throw refuse(name ?? group.name);
}

/** `parse_group_setting_value`: no members and one subgroup is that group; empty is `role:nobody`. */
function normalize(world: World, input: GroupSettingInput): GroupSettingInput {
  if (typeof input === 'number' || input.direct_members.length > 0) return input;
  if (input.direct_subgroups.length === 0) return world.systemGroupId('role:nobody');
  if (input.direct_subgroups.length === 1) return input.direct_subgroups[0] as number;
  return input;
}

/** An expected (`old`) value, normalised but not validated: it is only compared. */
export function expectedGroupSetting(world: World, input: GroupSettingInput): GroupSetting {
  const value = normalize(world, input);
  if (typeof value === 'number') return { kind: 'group', groupId: value };
  return { kind: 'anonymous', members: new Set(value.direct_members), subgroups: new Set(value.direct_subgroups) };
}

/** Normalises and validates a new value for a realm setting, with the real server's messages. */
export function resolveRealmGroupSetting(world: World, setting: string, input: GroupSettingInput, rules: RealmGroupSettingRules): GroupSetting {
  const value = normalize(world, input);
  if (typeof value === 'number') {
    checkNamedGroup(world, setting, value, rules);
    return { kind: 'group', groupId: value };
  }
  if (rules.requireSystemGroup) throw systemGroupRequired(setting);
  return { kind: 'anonymous', ...checkAnonymousGroup(world, value) };
}

/** Whether two values are the same setting as the API shows it (member and subgroup sets compared). */
export function sameGroupSetting(world: World, a: GroupSetting, b: GroupSetting): boolean {
  return JSON.stringify(groupSettingToApi(world, a)) === JSON.stringify(groupSettingToApi(world, b));
}
