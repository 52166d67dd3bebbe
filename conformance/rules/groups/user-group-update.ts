/**
 * `PATCH /user_groups/{user_group_id}` (the real server's `edit_user_group`): the name (the
 * creation rules: at most 100 code points and no reserved prefix from level 260, unique, not
 * blank), the description, who may change a group (from level 299 the holders of the realm's
 * `can_manage_all_groups` or of the group's `can_manage_group`), and the `user_group` update
 * event each change sends with the changed field.
 */
import type { JsonObject } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { filledTo } from '../channels/subscribe-support.js';
import { awaitEvent } from '../support/org-checks.js';
import { openStreamAs } from '../support/event-stream.js';
import { expectAllowed, type GroupSettingValue, realmGroupSetting, realmState, SettingHolders } from '../support/realm-permissions.js';
import type { Rule } from '../types.js';
import { groupById, RuleGroups, systemGroups } from './user-groups-support.js';

export const UPDATE = 'PATCH /user_groups/{user_group_id}';
const SECTION = 'api/update-user-group';
/** Level from which names are checked as at creation (length, reserved prefixes). */
const NAME_CHECKS_LEVEL = 260;
const NAME_MAX = 100;

/** Whether `event` is the `user_group` update of `groupId` whose data carries `field` = `value`. */
export const isGroupUpdate = (groupId: number, field: string, value: unknown) => (event: JsonObject): boolean =>
  isUpdateOf(groupId)(event) && JSON.stringify((event.data as JsonObject | undefined)?.[field]) === JSON.stringify(value);

/** Whether `event` is a `user_group` update of `groupId`. */
const isUpdateOf = (groupId: number) => (event: JsonObject): boolean => event.type === 'user_group' && event.op === 'update' && event.group_id === groupId;

/** The next `user_group` update of the group (the change just made) must carry exactly `data`. */
async function expectUpdateData(queue: Parameters<typeof awaitEvent>[0], groupId: number, data: JsonObject, what: string): Promise<void> {
  expectEqual((await awaitEvent(queue, isUpdateOf(groupId), what)).data, data, `data of the user_group update after ${what}`);
}

const nameAndDescription: Rule = {
  id: 'user-groups/update-name-and-description',
  title: 'a new name (up to 100 code points from level 260) or description is stored and sent to members as a user_group update with that field; a longer, reserved, taken or blank name, no change at all, an unknown group and a system group are refused with 400 BAD_REQUEST',
  endpoint: UPDATE,
  section: SECTION,
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const groups = new RuleGroups(ctx);
    const { id } = await groups.create(admin, [['name', ctx.name('group')], ['description', 'first']]);
    const other = ctx.name('other');
    await groups.create(admin, [['name', other]]);
    const reader = ctx.as('member');
    const queue = await openStreamAs(ctx, 'member', ['user_group']);
    const path = `/user_groups/${id}`;
    const description = filledTo('Description: ', 2000, ['d', ' ', 'é', '😀']);
    expectSuccess(await admin.patch(path, { description }));
    await expectUpdateData(queue, id, { description }, 'the new description');
    const name = ctx.featureLevel >= NAME_CHECKS_LEVEL ? filledTo(ctx.name('renamed'), NAME_MAX, ['😀', 'n']) : ctx.name('renamed');
    expectSuccess(await admin.patch(path, { name }));
    await expectUpdateData(queue, id, { name }, 'the new name');
    const stored = await groupById(reader, id);
    expectEqual([stored.name, stored.description], [name, description], 'name and description after the changes');
    const refusals: Array<[string, Record<string, unknown>]> = [
      ['the name of another group', { name: other }],
      ['a blank name', { name: '   ' }],
      ['no change at all', {}],
    ];
    if (ctx.featureLevel >= NAME_CHECKS_LEVEL) refusals.push([`a name of ${NAME_MAX + 1} code points`, { name: filledTo(ctx.name('long'), NAME_MAX + 1, ['n']) }], ['a reserved prefix', { name: `role:${ctx.name('x')}` }]);
    for (const [what, params] of refusals) {
      const reply = await admin.patch(path, params);
      check(reply.status === 400 && reply.body?.code === 'BAD_REQUEST', `${what} should be refused with 400 BAD_REQUEST; answered HTTP ${reply.status} ${String(reply.body?.code ?? '')}`, reply);
    }
    const after = await groupById(reader, id);
    expectEqual([after.name, after.description], [name, description], 'name and description after the refusals');
    expectError(await admin.patch(`/user_groups/${2_000_000_000}`, { description: 'x' }), { status: 400, code: 'BAD_REQUEST' });
    const members = (await systemGroups(reader)).get('role:members');
    if (members !== undefined) {
      expectError(await admin.patch(`/user_groups/${members}`, { description: ctx.name('system') }), { status: 400, code: 'BAD_REQUEST' });
      check((await groupById(reader, members)).description !== ctx.name('system'), 'the system group role:members was changed');
    }
  },
};

/** Level 299: the realm's `can_manage_all_groups`. */
const MANAGE_ALL_LEVEL = 299;

const byRole: Rule = {
  id: 'user-groups/update-by-role',
  title: 'each role changes a group exactly when it holds the realm\'s can_manage_all_groups or the group\'s can_manage_group; a guest never; a refused change changes nothing',
  endpoint: UPDATE,
  section: SECTION,
  levels: { min: MANAGE_ALL_LEVEL },
  writes: true,
  needs: ['owner', 'admin', 'moderator', 'member', 'second-member', 'guest'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const groups = new RuleGroups(ctx);
    const managers = { direct_members: [ctx.identity('second-member').userId], direct_subgroups: [] };
    const { id } = await groups.create(admin, [['name', ctx.name('managed')], ['can_manage_group', managers]]);
    const manageAll = realmGroupSetting(await realmState(admin), 'realm_can_manage_all_groups');
    const holders = new SettingHolders(admin);
    const reader = ctx.as('second-member');
    const manage = (await groupById(reader, id)).can_manage_group as GroupSettingValue;
    for (const who of ['owner', 'admin', 'moderator', 'member', 'second-member'] as const) {
      const userId = ctx.identity(who).userId;
      const allowed = (await holders.holds(manageAll, userId)) || (await holders.holds(manage, userId));
      const description = ctx.name(`by-${who}`);
      expectAllowed(await ctx.as(who).patch(`/user_groups/${id}`, { description }), allowed, `the ${who} changing the group`);
      expectEqual((await groupById(reader, id)).description === description, allowed, `whether the ${who}'s description was stored`);
    }
    expectError(await ctx.as('guest').patch(`/user_groups/${id}`, { description: ctx.name('by-guest') }), { status: 400, code: 'BAD_REQUEST' });
  },
};

export const rules: readonly Rule[] = [nameAndDescription, byRole];
