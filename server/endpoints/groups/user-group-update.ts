/**
 * Changing a user group and asking about one member: `PATCH /user_groups/{user_group_id}` and
 * `GET /user_groups/{user_group_id}/members/{user_id}` (level 127), as the real server has them.
 */
import { type GroupSettingChange, updateUserGroup } from '../../../lib/actions/groups/user-group-update.js';
import { badRequest, notForBots, notForGuests } from '../../../lib/errors.js';
import type { GroupPermissionSetting } from '../../../lib/entities/group.js';
import { isGuest } from '../../../lib/entities/user.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { groupSettingValue } from '../../../lib/input/group-setting-input.js';
import { isGroupMember } from '../../../lib/queries/groups/groups.js';
import { accessUserGroupForRead } from '../../../lib/queries/groups/user-groups.js';
import { accessUserById } from '../../../lib/queries/users/users.js';
import { bool, int, object, optional, required, union } from '../../../lib/input/schema.js';
import { authed, type AuthedContext, type RouteDef } from '../../app/endpoint.js';
import { json, str } from '../../app/params.js';

/** Guests first, then bots (`require_member_or_admin`). */
function memberOrAdmin({ user }: AuthedContext): void {
  if (isGuest(user)) throw notForGuests();
  if (user.isBot) throw notForBots();
}

const changeRequest = object({ new: required(groupSettingValue), old: optional(groupSettingValue) });
/** From level 259 a change is `{new, old?}`; before, only `can_mention_group` existed, as a plain group ID. */
const change = json(changeRequest);
const mentionChange = json(union(int, changeRequest));

const editGroup = authed({
  gate: memberOrAdmin,
  params: {
    name: str(),
    description: str(),
    can_add_members_group: change.availableFrom(FEATURES.CAN_ADD_MEMBERS_GROUP),
    can_join_group: change.availableFrom(FEATURES.CAN_JOIN_GROUP),
    can_leave_group: change.availableFrom(FEATURES.CAN_LEAVE_GROUP),
    can_manage_group: change.availableFrom(FEATURES.CAN_MANAGE_GROUP),
    can_mention_group: mentionChange.availableFrom(FEATURES.CAN_MENTION_GROUP_RENAMED),
    can_remove_members_group: change.availableFrom(FEATURES.CAN_REMOVE_MEMBERS_GROUP),
    deactivated: json(bool).availableFrom(FEATURES.GROUP_REACTIVATION),
    can_mention_group_id: json(int).availableFrom(FEATURES.CAN_MENTION_GROUP_ID).availableBefore(FEATURES.CAN_MENTION_GROUP_RENAMED),
  },
  run({ world, user, path }, args) {
    const modern = world.has(FEATURES.GROUP_SETTING_CHANGE_REQUEST);
    const mention = args.can_mention_group;
    if (mention !== undefined && modern && typeof mention === 'number') throw badRequest('can_mention_group is not a dict');
    if (mention !== undefined && !modern && typeof mention !== 'number') throw badRequest('can_mention_group is not an integer');
    const settings = new Map<GroupPermissionSetting, GroupSettingChange>();
    const given: Array<[GroupPermissionSetting, GroupSettingChange | undefined]> = [
      ['can_add_members_group', args.can_add_members_group],
      ['can_join_group', args.can_join_group],
      ['can_leave_group', args.can_leave_group],
      ['can_manage_group', args.can_manage_group],
      ['can_mention_group', typeof mention === 'number' ? { new: mention } : mention],
      ['can_remove_members_group', args.can_remove_members_group],
    ];
    if (args.can_mention_group_id !== undefined) given.push(['can_mention_group', { new: args.can_mention_group_id }]);
    for (const [name, value] of given) if (value !== undefined) settings.set(name, value);
    updateUserGroup(world, user, Number(path.get('user_group_id')), {
      ...(args.name === undefined ? {} : { name: args.name }),
      ...(args.description === undefined ? {} : { description: args.description }),
      ...(args.deactivated === undefined ? {} : { deactivated: args.deactivated }),
      settings,
    });
    return {};
  },
});

/** Whether a user belongs to the group, directly or (unless `direct_member_only`) through subgroups. */
const isMember = authed({
  since: FEATURES.SUBGROUP_ENDPOINTS,
  gate: memberOrAdmin,
  params: { direct_member_only: json(bool).default(false) },
  run({ world, user, path }, args) {
    const group = accessUserGroupForRead(world, Number(path.get('user_group_id')));
    const target = accessUserById(world, user, Number(path.get('user_id')), { allowDeactivated: false, allowBots: false });
    const member = args.direct_member_only ? group.members.has(target.id) : isGroupMember(world, target.id, group.id);
    return { is_user_group_member: member };
  },
});

export const routes: RouteDef[] = [
  { path: '/user_groups/{user_group_id:int}', methods: { PATCH: editGroup } },
  { path: '/user_groups/{user_group_id:int}/members/{user_id:int}', methods: { GET: isMember } },
];
