/**
 * Who may write user groups (test/support/write-auth.ts), as the real server's
 * zerver/views/user_groups.py and zerver/lib/user_groups.py decide: creating by
 * `can_create_groups` (members; never guests), changing a group by its `can_manage_group` (its
 * creator) or the realm's `can_manage_all_groups` (owners), joining by `can_join_group`, adding
 * others by `can_add_members_group`. The realm's `can_manage_all_groups` is owners only, so an
 * administrator may not change a member's group. Members and subgroups of a deactivated group may
 * change (level 391), but a deactivated group is never a subgroup.
 */
import { bad, INSUFFICIENT, NOT_FOR_BOTS, NOT_FOR_GUESTS, refuse, type Refusal, type Target, type WriteRule } from './write-auth.js';
import type { Scene } from './write-scene.js';

/** A request to `/user_groups/{id}{suffix}`. */
const group =
  (id: (sc: Scene) => number, suffix: string, params: (sc: Scene) => Record<string, unknown>): Target =>
  (sc) => ({ path: `/user_groups/${id(sc)}${suffix}`, params: params(sc) });

const NOT_THE_CREATOR = ['administrator', 'moderator', 'member'] as const;

/** Refused to everyone but the group's managers: guests and bots by the member-or-administrator gate first. */
const unmanaged = (target: string, alsoOwner = false): Refusal[] => [
  refuse(alsoOwner ? ['owner', ...NOT_THE_CREATOR] : NOT_THE_CREATOR, target, INSUFFICIENT),
  refuse('guest', target, NOT_FOR_GUESTS),
  refuse('bot', target, NOT_FOR_BOTS),
];

/** System groups follow roles: no caller changes them here, owners included. */
const systemGroupRefusals = unmanaged('a system group', true);

export const GROUP_RULES: readonly WriteRule[] = [
  {
    route: 'POST /user_groups/create',
    targets: { 'a new group': (sc, as) => ({ path: '/user_groups/create', params: { name: `group of ${as}`, description: 'd', members: [] } }) },
    refused: [refuse('guest', 'a new group', NOT_FOR_GUESTS), refuse('bot', 'a new group', NOT_FOR_BOTS)],
  },
  {
    route: 'PATCH /user_groups/{user_group_id:int}',
    targets: {
      "another user's group": group((sc) => sc.group, '', () => ({ description: 'taken over' })),
      'a deactivated group': group((sc) => sc.deactivatedGroup, '', () => ({ description: 'revived' })),
      'a system group': group((sc) => sc.systemGroup, '', () => ({ description: 'everyone' })),
    },
    refused: [
      ...systemGroupRefusals,
      ...unmanaged("another user's group"),
      refuse(NOT_THE_CREATOR, 'a deactivated group', INSUFFICIENT),
    ],
  },
  {
    route: 'POST /user_groups/{user_group_id:int}/members',
    targets: {
      "another user's group": group((sc) => sc.group, '/members', (sc) => ({ add: [sc.s.id('cordelia@zulip.com')] })),
      'a deactivated group': group((sc) => sc.deactivatedGroup, '/members', (sc) => ({ add: [sc.s.id('cordelia@zulip.com')] })),
      'a deactivated user': group((sc) => sc.group, '/members', (sc) => ({ add: [sc.deactivated] })),
      'a system group': group((sc) => sc.systemGroup, '/members', (sc) => ({ add: [sc.other] })),
    },
    refused: [
      ...systemGroupRefusals,
      ...unmanaged("another user's group"),
      // Members of a deactivated group may change (level 391): only the rights are checked.
      refuse(NOT_THE_CREATOR, 'a deactivated group', INSUFFICIENT),
      refuse('owner', 'a deactivated user', bad(/^Invalid user ID: \d+$/)),
    ],
  },
  {
    route: 'POST /user_groups/{user_group_id:int}/subgroups',
    targets: { "another user's group": group((sc) => sc.group, '/subgroups', (sc) => ({ add: [sc.deactivatedGroup] })) },
    refused: [...unmanaged("another user's group"), refuse('owner', "another user's group", bad('User group is deactivated.'))],
  },
  {
    route: 'POST /user_groups/{user_group_id:int}/deactivate',
    targets: { "another user's group": group((sc) => sc.group, '/deactivate', () => ({})) },
    // No member-or-administrator gate here: guests and bots get the permission error.
    refused: [refuse([...NOT_THE_CREATOR, 'guest', 'bot'], "another user's group", INSUFFICIENT)],
  },
];
