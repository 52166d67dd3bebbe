/**
 * Who may create groups and change their subgroups, role by role (sections 4.9 and 4.18; the
 * behaviour reference 3.3-3.4 and 3.9): creating needs the realm's `can_create_groups`; adding
 * subgroups needs the realm's `can_manage_all_groups` or the group's `can_manage_group` or
 * `can_add_members_group`, removing them `can_manage_all_groups` or `can_manage_group` only; a
 * guest is refused. Who holds what is read from the target (register, the group's settings).
 */
import type { IdentityName } from '../../credentials/types.js';
import { check, expectError, expectSuccess } from '../../expect/assert.js';
import { expectAllowed, type GroupSettingValue, holdersByRole, mayAct, realmGroupSetting, realmState, ROLES_AND_GUEST, roleTableRule, SettingHolders } from '../support/realm-permissions.js';
import type { Rule, RuleContext } from '../types.js';
import { CREATE } from './user-groups.js';
import { groupById, groupList, listGroups, RuleGroups } from './user-groups-support.js';

/** Level 299: the realm's can_create_groups and can_manage_all_groups. */
const REALM_GROUP_SETTINGS_LEVEL = 299;
/** Level 305: the group's can_add_members_group. */
const ADD_MEMBERS_LEVEL = 305;

const creationByRole = roleTableRule({
  id: 'user-groups/create-by-role',
  title: 'each role creates a group exactly when it holds the realm\'s can_create_groups; a guest never; a refused creation creates nothing',
  endpoint: CREATE,
  section: '4.9; 7',
  levels: { min: REALM_GROUP_SETTINGS_LEVEL },
}, async (ctx, admin) => {
  const groups = new RuleGroups(ctx);
  const may = await holdersByRole(ctx, await realmState(admin), 'realm_can_create_groups');
  for (const who of ROLES_AND_GUEST) {
    const name = ctx.name(`by-${who}`);
    const allowed = mayAct(may, who);
    const reply = await ctx.as(who).post('/user_groups/create', { name, description: '', members: [] });
    // The moderator lists the groups: every non-guest sees them alike.
    const created = (await listGroups(ctx.as('moderator'))).find((group) => group.name === name);
    if (created) groups.track(created.id);
    expectAllowed(reply, allowed, `the ${who} creating a group`);
    check(allowed === (created !== undefined), `a group of the ${who} is ${created ? '' : 'not '}listed`, reply);
  }
});

/** Whether `who` may add to and remove from the subgroups of `group`, from the settings the target shows. */
async function subgroupRights(ctx: RuleContext, holders: SettingHolders, manageAll: GroupSettingValue, groupId: number, who: IdentityName): Promise<{ add: boolean; remove: boolean }> {
  const group = await groupById(ctx.as('moderator'), groupId);
  const id = ctx.identity(who).userId;
  const manages = (await holders.holds(manageAll, id)) || (await holders.holds(group.can_manage_group as GroupSettingValue, id));
  return { add: manages || (await holders.holds(group.can_add_members_group as GroupSettingValue, id)), remove: manages };
}

const subgroupsByRole = roleTableRule({
  id: 'user-group-subgroups/permissions-by-role',
  title: 'adding subgroups is allowed to holders of can_manage_all_groups, can_manage_group or can_add_members_group, removing them only to the first two (the creator of a group by default); others and guests get 400 BAD_REQUEST and nothing changes',
  endpoint: 'POST /user_groups/{user_group_id}/subgroups',
  section: '4.18; 7',
  levels: { min: ADD_MEMBERS_LEVEL },
  needs: ['second-member'],
}, async (ctx, admin) => {
  const creator = ctx.as('member');
  const state = await realmState(admin);
  if ((await holdersByRole(ctx, state, 'realm_can_create_groups', ['member'])).get('member') !== true) ctx.skip('the realm does not let members create groups');
  const groups = new RuleGroups(ctx);
  const child = (await groups.create(admin, [['name', ctx.name('child')]])).id;
  const adders = { direct_members: [ctx.identity('second-member').userId], direct_subgroups: [] };
  // The member's group: its creator manages it; the second member may only add to it.
  const group = (await groups.create(creator, [['name', ctx.name('owned')], ['can_add_members_group', adders]])).id;
  const manageAll = realmGroupSetting(state, 'realm_can_manage_all_groups');
  const holders = new SettingHolders(admin);
  const subgroups = () => groupList(ctx.as('moderator'), group, 'subgroups', true);
  for (const who of ['owner', 'admin', 'moderator', 'second-member', 'member'] as const) {
    const rights = await subgroupRights(ctx, holders, manageAll, group, who);
    const client = ctx.as(who);
    expectAllowed(await client.post(`/user_groups/${group}/subgroups`, { add: [child] }), rights.add, `the ${who} adding a subgroup`);
    if (!rights.add) {
      check((await subgroups()).length === 0, `the ${who}'s refused addition changed the subgroups`);
      expectSuccess(await creator.post(`/user_groups/${group}/subgroups`, { add: [child] }));
    }
    expectAllowed(await client.post(`/user_groups/${group}/subgroups`, { delete: [child] }), rights.remove, `the ${who} removing a subgroup`);
    if (!rights.remove) {
      check((await subgroups()).includes(child), `the ${who}'s refused removal changed the subgroups`);
      expectSuccess(await creator.post(`/user_groups/${group}/subgroups`, { delete: [child] }));
    }
  }
  expectError(await ctx.as('guest').post(`/user_groups/${group}/subgroups`, { add: [child] }), { status: 400, code: 'BAD_REQUEST' });
  check((await subgroups()).length === 0, 'the guest\'s refused addition changed the subgroups');
});

export const rules: readonly Rule[] = [creationByRole, subgroupsByRole];
