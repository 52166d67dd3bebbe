/**
 * User groups: create (section 4.9), list, members and subgroups (section 4.18). Every endpoint
 * refuses guests and then bots before reading parameters (the real server's member-or-admin gate).
 */
import { deactivateUserGroup } from '../../../lib/actions/groups/user-group-deactivation.js';
import { updateUserGroupMembers, updateUserGroupSubgroups } from '../../../lib/actions/groups/user-group-members.js';
import { createUserGroup } from '../../../lib/actions/groups/user-groups.js';
import { badRequest, insufficientPermission, notForBots, notForGuests } from '../../../lib/errors.js';
import type { GroupPermissionSetting } from '../../../lib/entities/group.js';
import { isGuest } from '../../../lib/entities/user.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { type GroupSettingInput, groupSettingValue } from '../../../lib/input/group-setting-input.js';
import { canCreateGroups } from '../../../lib/queries/groups/user-group-permissions.js';
import { accessUserGroupForRead, groupMemberIds, groupSubgroupIds, userGroupsState } from '../../../lib/queries/groups/user-groups.js';
import { bool, int, list } from '../../../lib/input/schema.js';
import { authed, type AuthedContext, type RouteDef } from '../../app/endpoint.js';
import { json, str } from '../../app/params.js';
import { MAX_USER_IDS } from '../../../lib/input/limits.js';

/** Guests first, then bots (`require_member_or_admin`). */
function memberOrAdmin({ user }: AuthedContext): void {
  if (isGuest(user)) throw notForGuests();
  if (user.isBot) throw notForBots();
}

const groupId = (path: ReadonlyMap<string, string>): number => Number(path.get('user_group_id'));
const ids = json(list(int, MAX_USER_IDS));
const setting = json(groupSettingValue);

/** Parameters in the real server's order (alphabetical, as its signature declares them). */
const createParams = {
  can_add_members_group: setting.availableFrom(FEATURES.CAN_ADD_MEMBERS_GROUP),
  can_join_group: setting.availableFrom(FEATURES.CAN_JOIN_GROUP),
  can_leave_group: setting.availableFrom(FEATURES.CAN_LEAVE_GROUP),
  can_manage_group: setting.availableFrom(FEATURES.CAN_MANAGE_GROUP),
  can_mention_group: setting.availableFrom(FEATURES.CAN_MENTION_GROUP_RENAMED),
  can_mention_group_id: json(int).availableFrom(FEATURES.CAN_MENTION_GROUP_ID).availableBefore(FEATURES.CAN_MENTION_GROUP_RENAMED),
  can_remove_members_group: setting.availableFrom(FEATURES.CAN_REMOVE_MEMBERS_GROUP),
  description: str().required(),
  members: ids.required(),
  name: str().required(),
  subgroups: ids.default([]).availableFrom(FEATURES.CREATE_GROUP_SUBGROUPS, { otherwise: [] }),
};

const createGroup = authed({
  gate(ctx) {
    memberOrAdmin(ctx);
    if (!canCreateGroups(ctx.world, ctx.user)) throw insufficientPermission();
  },
  params: createParams,
  run({ world, user }, args) {
    // Before level 258 can_mention_group took only a group ID.
    if (args.can_mention_group !== undefined && typeof args.can_mention_group !== 'number' && !world.has(FEATURES.CAN_MENTION_GROUP_OBJECT)) {
      throw badRequest('can_mention_group is not an integer');
    }
    const settings = new Map<GroupPermissionSetting, GroupSettingInput>();
    const given: Array<[GroupPermissionSetting, GroupSettingInput | undefined]> = [
      ['can_add_members_group', args.can_add_members_group],
      ['can_join_group', args.can_join_group],
      ['can_leave_group', args.can_leave_group],
      ['can_manage_group', args.can_manage_group],
      ['can_mention_group', args.can_mention_group ?? args.can_mention_group_id],
      ['can_remove_members_group', args.can_remove_members_group],
    ];
    for (const [name, value] of given) if (value !== undefined) settings.set(name, value);
    const id = createUserGroup(world, user, {
      name: args.name,
      description: args.description,
      members: args.members,
      subgroups: args.subgroups,
      settings,
    });
    return world.has(FEATURES.CREATE_GROUP_RETURNS_ID) ? { group_id: id } : {};
  },
});

const listGroups = authed({
  gate: memberOrAdmin,
  params: {
    include_deactivated_groups: json(bool).default(false).availableFrom(FEATURES.INCLUDE_DEACTIVATED_GROUPS),
    // The name at levels 290-293; later servers ignore it.
    allow_deactivated: json(bool).default(false).availableFrom(FEATURES.GROUP_DEACTIVATION).availableBefore(FEATURES.INCLUDE_DEACTIVATED_GROUPS),
  },
  run({ world, user }, args) {
    const includeDeactivated = args.include_deactivated_groups ?? args.allow_deactivated ?? false;
    return { user_groups: userGroupsState(world, user, { includeDeactivated }) };
  },
});

const getMembers = authed({
  since: FEATURES.SUBGROUP_ENDPOINTS,
  gate: memberOrAdmin,
  params: { direct_member_only: json(bool).default(false) },
  run({ world, path }, args) {
    const group = accessUserGroupForRead(world, groupId(path));
    return { members: groupMemberIds(world, group, args.direct_member_only) };
  },
});

const updateMembers = authed({
  gate: memberOrAdmin,
  params: {
    delete: ids.default([]),
    add: ids.default([]),
    delete_subgroups: ids.default([]).availableFrom(FEATURES.CREATE_GROUP_SUBGROUPS, { otherwise: [] }),
    add_subgroups: ids.default([]).availableFrom(FEATURES.CREATE_GROUP_SUBGROUPS, { otherwise: [] }),
  },
  run({ world, user, path }, args) {
    const { add_subgroups: addSubgroups, delete_subgroups: deleteSubgroups } = args;
    if (args.add.length + args.delete.length + addSubgroups.length + deleteSubgroups.length === 0) {
      throw badRequest(
        world.has(FEATURES.CREATE_GROUP_SUBGROUPS)
          ? 'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".'
          : 'Nothing to do. Specify at least one of "add" or "delete".',
      );
    }
    updateUserGroupMembers(world, user, groupId(path), { add: args.add, delete: args.delete, addSubgroups, deleteSubgroups });
    return {};
  },
});

const getSubgroups = authed({
  since: FEATURES.SUBGROUP_ENDPOINTS,
  gate: memberOrAdmin,
  params: { direct_subgroup_only: json(bool).default(false) },
  run({ world, path }, args) {
    const group = accessUserGroupForRead(world, groupId(path));
    return { subgroups: groupSubgroupIds(world, group, args.direct_subgroup_only) };
  },
});

const updateSubgroups = authed({
  since: FEATURES.SUBGROUP_ENDPOINTS,
  gate: memberOrAdmin,
  params: { delete: ids.default([]), add: ids.default([]) },
  run({ world, user, path }, args) {
    if (args.add.length === 0 && args.delete.length === 0) throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
    updateUserGroupSubgroups(world, user, groupId(path), { add: args.add, delete: args.delete });
    return {};
  },
});

/**
 * Deactivation (level 290). The real view has no member-or-admin gate: guests and bots fail the
 * permission check instead, after the group lookup.
 */
const deactivateGroup = authed({
  since: FEATURES.GROUP_DEACTIVATION,
  params: {},
  run({ world, user, path }) {
    deactivateUserGroup(world, user, groupId(path));
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/user_groups', methods: { GET: listGroups } },
  { path: '/user_groups/create', methods: { POST: createGroup } },
  { path: '/user_groups/{user_group_id:int}/members', methods: { GET: getMembers, POST: updateMembers } },
  { path: '/user_groups/{user_group_id:int}/subgroups', methods: { GET: getSubgroups, POST: updateSubgroups } },
  { path: '/user_groups/{user_group_id:int}/deactivate', methods: { POST: deactivateGroup } },
];
