/** Reading a group-setting value from a request (section 1, convention 7) and checking it. */
import { MAX_USER_IDS } from './limits.js';
import { badRequest } from '../errors.js';
import type { GroupSetting, SystemGroupName } from '../entities/group.js';
import type { SettingRules } from '../settings/defaults.js';
import { int, list, object, required, type Schema, union } from './schema.js';
import type { World } from '../state/world.js';

export type GroupSettingInput = number | { direct_members: number[]; direct_subgroups: number[] };

export const groupSettingValue: Schema<GroupSettingInput> = union(
  int,
  object({ direct_members: required(list(int, MAX_USER_IDS)), direct_subgroups: required(list(int, MAX_USER_IDS)) }),
);

const ruleFor = (rules: SettingRules, name: SystemGroupName): boolean => {
  if (name === 'role:everyone') return rules.allowEveryone;
  if (name === 'role:internet') return rules.allowInternet;
  if (name === 'role:owners') return rules.allowOwners !== false;
  if (name === 'role:nobody') return rules.allowNobody;
  return true;
};

function checkNamedGroup(world: World, settingName: string, groupId: number, rules: SettingRules): void {
  const group = world.groups.get(groupId);
  if (!group) throw badRequest('Invalid user group');
  if (group.deactivated) throw badRequest('User group is deactivated.');
  for (const [name, id] of world.systemGroups) {
    if (id === groupId && !ruleFor(rules, name)) {
      throw badRequest(`'${settingName}' setting cannot be set to '${name}' group.`);
    }
  }
}

/**
 * The members and subgroups of an anonymous group-setting value, checked in that order:
 * `Invalid user ID: <id>` for unknown, deactivated or cross-realm users,
 * `Invalid user group ID: <id>` for unknown groups, `User group is deactivated.`.
 */
export function checkAnonymousGroup(world: World, input: Exclude<GroupSettingInput, number>): { members: Set<number>; subgroups: Set<number> } {
  const members = new Set<number>();
  for (const id of input.direct_members) {
    const user = world.users.get(id);
    if (!user || !user.isActive || user.isSystemBot) throw badRequest(`Invalid user ID: ${id}`);
    members.add(id);
  }
  const subgroups = new Set<number>();
  for (const id of input.direct_subgroups) {
    const group = world.groups.get(id);
    if (!group) throw badRequest(`Invalid user group ID: ${id}`);
    if (group.deactivated) throw badRequest('User group is deactivated.');
    subgroups.add(id);
  }
  return { members, subgroups };
}

/**
 * Normalises and validates a group-setting value: one subgroup and no members collapse to that
 * group, an empty value to `role:nobody`; unknown or deactivated users and groups are refused.
 */
export function resolveGroupSetting(world: World, settingName: string, input: GroupSettingInput, rules: SettingRules): GroupSetting {
  if (typeof input === 'number') {
    checkNamedGroup(world, settingName, input, rules);
    return { kind: 'group', groupId: input };
  }
  const { members, subgroups } = checkAnonymousGroup(world, input);
  if (members.size === 0 && subgroups.size === 1) {
    const only = subgroups.values().next().value as number;
    checkNamedGroup(world, settingName, only, rules);
    return { kind: 'group', groupId: only };
  }
  if (members.size === 0 && subgroups.size === 0) {
    const nobody = world.systemGroupId('role:nobody');
    checkNamedGroup(world, settingName, nobody, rules);
    return { kind: 'group', groupId: nobody };
  }
  return { kind: 'anonymous', members, subgroups };
}
