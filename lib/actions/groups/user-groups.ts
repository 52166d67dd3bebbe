/** Creating user groups (section 4.9; behaviour reference §3.4). */
import { badRequest } from '../../errors.js';
import { GROUP_PERMISSION_SETTINGS, type GroupPermissionSetting, type GroupSetting, type UserGroup } from '../../entities/group.js';
import type { User } from '../../entities/user.js';
import { defaultGroupSettings, GROUP_SETTING_RULES } from '../../settings/defaults.js';
import { FEATURES } from '../../features/feature-levels.js';
import { type GroupSettingInput, resolveGroupSetting } from '../../input/group-setting-input.js';
import { realmAudience  } from '../../queries/users/access.js';
import { toApiUserGroup } from '../../queries/groups/user-groups.js';
import { codePointLength, pythonStrip } from '../../input/topic-names.js';
import type { World } from '../../state/world.js';

const MAX_GROUP_NAME_LENGTH = 100;
/** Checked in this order, case-sensitively (`check_user_group_name`). */
const RESERVED_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'] as const;

/** The real server's name rules; the name itself is stored unstripped. */
export function checkUserGroupName(name: string): void {
  if (pythonStrip(name) === '') throw badRequest("User group name can't be empty!");
  if (codePointLength(name) > MAX_GROUP_NAME_LENGTH) throw badRequest(`User group name cannot exceed ${MAX_GROUP_NAME_LENGTH} characters.`);
  for (const prefix of RESERVED_PREFIXES) {
    if (name.startsWith(prefix)) throw badRequest(`User group name cannot start with '${prefix}'.`);
  }
}

/**
 * Resolves user IDs for a group operation: each must be a user of the realm (bots included,
 * cross-realm system bots not) and, from level 303, active. The first offender in request order
 * gives `Invalid user ID: <id>`. Returns the distinct IDs, ascending.
 */
export function groupUserIds(world: World, ids: readonly number[]): number[] {
  const allowDeactivated = !world.has(FEATURES.DEACTIVATED_USERS_HIDDEN_IN_GROUPS);
  for (const id of ids) {
    const user = world.users.get(id);
    if (!user || user.isSystemBot || (!user.isActive && !allowDeactivated)) throw badRequest(`Invalid user ID: ${id}`);
  }
  return [...new Set(ids)].sort((a, b) => a - b);
}

/**
 * Groups that may become subgroups: unknown IDs first (`Invalid user group ID: <id>`, request
 * order), then deactivated ones. System groups are allowed. Returns the distinct IDs, ascending.
 */
export function potentialSubgroupIds(world: World, ids: readonly number[]): number[] {
  for (const id of ids) if (!world.groups.has(id)) throw badRequest(`Invalid user group ID: ${id}`);
  for (const id of ids) if (world.groups.get(id)?.deactivated) throw badRequest('User group is deactivated.');
  return [...new Set(ids)].sort((a, b) => a - b);
}

export interface CreateUserGroupInput {
  readonly name: string;
  readonly description: string;
  readonly members: readonly number[];
  readonly subgroups: readonly number[];
  /** Only the settings the request gave; the rest take their defaults. */
  readonly settings: ReadonlyMap<GroupPermissionSetting, GroupSettingInput>;
}

/**
 * Creates a group, all or nothing, and announces it to every active user: `user_group/add`,
 * then `add_subgroups` when subgroups were given (added without permission checks, the creator's
 * privilege). Returns the new group's ID.
 */
export function createUserGroup(world: World, creator: User, input: CreateUserGroupInput): number {
  const members = groupUserIds(world, input.members);
  checkUserGroupName(input.name);
  const settings = defaultGroupSettings(world, creator.id);
  for (const name of GROUP_PERMISSION_SETTINGS) {
    const value = input.settings.get(name);
    const rules = GROUP_SETTING_RULES.get(name);
    if (value === undefined || rules === undefined) continue;
    const resolved: GroupSetting = resolveGroupSetting(world, name, value, rules);
    settings.set(name, resolved);
  }
  // Names are unique in the realm, deactivated and system groups included (compared exactly).
  for (const group of world.groups.values()) {
    if (group.name === input.name) throw badRequest(`User group '${input.name}' already exists.`);
  }
  const subgroups = potentialSubgroupIds(world, input.subgroups);

  const group: UserGroup = {
    id: world.ids.next('group'),
    name: input.name,
    description: input.description,
    members: new Set(members),
    subgroups: new Set(),
    isSystemGroup: false,
    creatorId: creator.id,
    dateCreated: world.now(),
    deactivated: false,
    settings,
  };
  world.groups.set(group.id, group);
  const everyone = realmAudience(world);
  world.events.send({ type: 'user_group', op: 'add', group: toApiUserGroup(world, group) }, everyone);
  if (subgroups.length > 0) {
    for (const id of subgroups) group.subgroups.add(id);
    world.events.send({ type: 'user_group', op: 'add_subgroups', group_id: group.id, direct_subgroup_ids: subgroups }, everyone);
  }
  return group.id;
}
