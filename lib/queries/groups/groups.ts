/** Group membership and group-setting evaluation. */
import type { GroupSetting, UserGroup } from '../../entities/group.js';
import { isGuest, type User } from '../../entities/user.js';
import type { World } from '../../state/world.js';

/** The group and every group below it, each once (cycles cannot happen but are tolerated). */
export function groupClosure(world: World, groupId: number): Set<number> {
  const seen = new Set<number>();
  const stack = [groupId];
  while (stack.length > 0) {
    const id = stack.pop() as number;
    if (seen.has(id)) continue;
    seen.add(id);
    const group = world.groups.get(id);
    if (group) for (const sub of group.subgroups) stack.push(sub);
  }
  return seen;
}

/** Every subgroup at any depth, excluding the group itself. */
export function recursiveSubgroups(world: World, groupId: number): Set<number> {
  const all = groupClosure(world, groupId);
  all.delete(groupId);
  return all;
}

export function isGroupMember(world: World, userId: number, groupId: number): boolean {
  for (const id of groupClosure(world, groupId)) if (world.groups.get(id)?.members.has(userId)) return true;
  return false;
}

/** Active users who are members at any depth. */
export function recursiveMembers(world: World, groupId: number): Set<number> {
  const members = new Set<number>();
  for (const id of groupClosure(world, groupId)) {
    for (const userId of world.groups.get(id)?.members ?? []) {
      if (world.users.get(userId)?.isActive) members.add(userId);
    }
  }
  return members;
}

export interface SettingOptions {
  /** Settings that may not be `role:everyone` never admit guests. */
  readonly allowEveryone?: boolean;
}

/** Whether `user` holds a permission expressed as a group-setting value. */
export function hasGroupSetting(world: World, user: User, setting: GroupSetting, options: SettingOptions = {}): boolean {
  if (!user.isActive) return false;
  if (options.allowEveryone === false && isGuest(user)) return false;
  if (setting.kind === 'group') return isGroupMember(world, user.id, setting.groupId);
  if (setting.members.has(user.id)) return true;
  for (const sub of setting.subgroups) if (isGroupMember(world, user.id, sub)) return true;
  return false;
}

/** Users holding a group-setting value (active only). */
export function usersWithGroupSetting(world: World, setting: GroupSetting): Set<number> {
  if (setting.kind === 'group') return recursiveMembers(world, setting.groupId);
  const users = new Set<number>();
  for (const id of setting.members) if (world.users.get(id)?.isActive) users.add(id);
  for (const sub of setting.subgroups) for (const id of recursiveMembers(world, sub)) users.add(id);
  return users;
}

/** The API form of a group-setting value: a group ID or `{direct_members, direct_subgroups}`. */
export function groupSettingToApi(world: World, setting: GroupSetting): number | { direct_members: number[]; direct_subgroups: number[] } {
  if (setting.kind === 'group') return setting.groupId;
  const activeMembers = [...setting.members].filter((id) => world.users.get(id)?.isActive === true);
  return {
    direct_members: activeMembers.sort((a, b) => a - b),
    direct_subgroups: [...setting.subgroups].sort((a, b) => a - b),
  };
}

export function groupByName(world: World, name: string): UserGroup | undefined {
  for (const group of world.groups.values()) if (group.name === name) return group;
  return undefined;
}
