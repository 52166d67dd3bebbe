/**
 * A group's permission settings through `PATCH /user_groups/{user_group_id}` as `{new, old}`
 * (level 259): the new value is stored and sent as a `user_group` update; an `old` that is not
 * the current value is refused with `EXPECTATION_MISMATCH` and changes nothing. And group
 * membership questions, `GET /user_groups/{id}/members/{user_id}` (level 127): direct, or through
 * subgroups at any depth.
 */
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { awaitEvent } from '../support/org-checks.js';
import { openStreamAs } from '../support/event-stream.js';
import type { Rule } from '../types.js';
import { GROUP_SETTINGS } from './user-group-settings.js';
import { isGroupUpdate, UPDATE } from './user-group-update.js';
import { GROUP_LEVELS, groupById, RuleGroups, systemGroups } from './user-groups-support.js';

/** Level 259: group settings are changed as `{new, old}`. */
const CHANGE_REQUEST_LEVEL = 259;

const settingsNewOld: Rule = {
  id: 'user-groups/update-settings-new-old',
  title: 'each group setting of the level takes {new, old}: with old the current value the new one is stored and sent as a user_group update; with any other old it answers 400 EXPECTATION_MISMATCH and changes nothing; a bare group ID is refused',
  endpoint: UPDATE,
  section: 'api/update-user-group; api/group-setting-values',
  levels: { min: CHANGE_REQUEST_LEVEL },
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const groups = new RuleGroups(ctx);
    const { id } = await groups.create(admin, [['name', ctx.name('settings')]]);
    const reader = ctx.as('member');
    const system = await systemGroups(reader);
    const moderators = system.get('role:moderators');
    const administrators = system.get('role:administrators');
    check(moderators !== undefined && administrators !== undefined, 'the system groups role:moderators and role:administrators are not listed');
    const queue = await openStreamAs(ctx, 'member', ['user_group']);
    const path = `/user_groups/${id}`;
    for (const spec of GROUP_SETTINGS.filter((setting) => ctx.featureLevel >= setting.since)) {
      const current = (await groupById(reader, id))[spec.name];
      const next = current === moderators ? administrators : moderators;
      const stale = current === administrators ? moderators : administrators;
      const mismatch = await admin.patch(path, [[spec.name, { new: next, old: stale === next ? { direct_members: [ctx.identity('member').userId], direct_subgroups: [] } : stale }]]);
      expectError(mismatch, { status: 400, code: 'EXPECTATION_MISMATCH' });
      expectEqual((await groupById(reader, id))[spec.name], current, `${spec.name} after a change with a stale old value`);
      expectSuccess(await admin.patch(path, [[spec.name, { new: next, old: current }]]));
      expectEqual((await groupById(reader, id))[spec.name], next, `${spec.name} after the change`);
      await awaitEvent(queue, isGroupUpdate(id, spec.name, next), `the change of ${spec.name}`);
    }
    expectError(await admin.patch(path, [['can_mention_group', moderators]]), { status: 400, code: 'BAD_REQUEST' });
  },
};

const memberShape = v.object({ is_user_group_member: v.bool() });

const membership: Rule = {
  id: 'user-group-members/is-member-direct-and-recursive',
  title: 'GET /user_groups/{id}/members/{user_id} answers true for direct members and members of subgroups at any depth, false for others; with direct_member_only true only for direct members; an unknown user or group answers 400 BAD_REQUEST',
  endpoint: 'GET /user_groups/{user_group_id}/members/{user_id}',
  section: 'api/get-is-user-group-member',
  levels: { min: GROUP_LEVELS.SUBGROUP_ENDPOINTS },
  writes: true,
  needs: ['admin', 'member', 'second-member', 'moderator'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const groups = new RuleGroups(ctx);
    const id = (who: 'member' | 'second-member' | 'moderator') => ctx.identity(who).userId;
    const top = (await groups.create(admin, [['name', ctx.name('top')], ['members', [id('second-member')]]])).id;
    const middle = (await groups.create(admin, [['name', ctx.name('middle')]])).id;
    const bottom = (await groups.create(admin, [['name', ctx.name('bottom')], ['members', [id('member')]]])).id;
    expectSuccess(await admin.post(`/user_groups/${top}/subgroups`, { add: [middle] }));
    expectSuccess(await admin.post(`/user_groups/${middle}/subgroups`, { add: [bottom] }));
    const client = ctx.as('member');
    const ask = async (group: number, userId: number, direct: boolean): Promise<boolean> => {
      const reply = await client.get(`/user_groups/${group}/members/${userId}`, { direct_member_only: direct });
      return expectShape(expectSuccess(reply), memberShape, 'body', reply).is_user_group_member;
    };
    const table: Array<[string, number, number, boolean, boolean]> = [
      ['the member, two subgroups down', top, id('member'), false, true],
      ['the member, two subgroups down, directly', top, id('member'), true, false],
      ['the member, one subgroup down', middle, id('member'), false, true],
      ['the member, directly in its group', bottom, id('member'), true, true],
      ['the second member, directly', top, id('second-member'), true, true],
      ['the second member, through the subgroups', top, id('second-member'), false, true],
      ['the second member in a subgroup it is not in', middle, id('second-member'), false, false],
      ['the moderator, in none of them', top, id('moderator'), false, false],
    ];
    for (const [what, group, userId, direct, expected] of table) expectEqual(await ask(group, userId, direct), expected, `is_user_group_member for ${what}${direct ? ' (direct_member_only)' : ''}`);
    expectError(await client.get(`/user_groups/${top}/members/${2_000_000_000}`), { status: 400, code: 'BAD_REQUEST' });
    expectError(await client.get(`/user_groups/${2_000_000_000}/members/${id('member')}`), { status: 400, code: 'BAD_REQUEST' });
  },
};

export const rules: readonly Rule[] = [settingsNewOld, membership];
