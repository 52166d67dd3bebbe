/**
 * Reactivating a user group: `PATCH /user_groups/{user_group_id}` with `deactivated=false`
 * (level 386; the real server's `edit_user_group` and `do_reactivate_user_group`). Who may: those
 * who manage the group. Clients keeping deactivated groups (`include_deactivated_groups`) get a
 * `user_group` update with `data: {deactivated: false}`; the others get the group back as an add.
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { openStreamAs } from '../support/event-stream.js';
import { awaitEvent } from '../support/org-checks.js';
import { expectAllowed, type GroupSettingValue, realmGroupSetting, realmState, SettingHolders } from '../support/realm-permissions.js';
import type { Rule } from '../types.js';
import { UPDATE } from './user-group-update.js';
import { listGroups, RuleGroups } from './user-groups-support.js';

const REACTIVATION_LEVEL = 386;

/** The group as the listing with deactivated groups shows it. */
async function withDeactivated(client: ApiClient, id: number): Promise<JsonObject | undefined> {
  const reply = await client.get('/user_groups', { include_deactivated_groups: true });
  const groups = (expectSuccess(reply).user_groups ?? []) as JsonObject[];
  return groups.find((group) => group.id === id);
}

const isDeactivated = async (client: ApiClient, id: number): Promise<boolean | undefined> => (await withDeactivated(client, id))?.deactivated as boolean | undefined;

const reactivation: Rule = {
  id: 'user-groups/reactivate',
  title: 'deactivated=false reactivates a deactivated group for those who manage it (others are refused with 400 BAD_REQUEST and nothing changes): clients keeping deactivated groups get the update {deactivated: false}, the others the group as an add, and the group is listed again; an unknown group is refused',
  endpoint: UPDATE,
  section: 'api/update-user-group',
  levels: { min: REACTIVATION_LEVEL },
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const member = ctx.as('member');
    const groups = new RuleGroups(ctx);
    const name = ctx.name('phoenix');
    const { id } = await groups.create(admin, [['name', name]]);
    const path = `/user_groups/${id}`;
    expectSuccess(await admin.post(`${path}/deactivate`));
    const holders = new SettingHolders(admin);
    const manageAll = realmGroupSetting(await realmState(admin), 'realm_can_manage_all_groups');
    const manage = (await withDeactivated(admin, id))?.can_manage_group as GroupSettingValue | undefined;
    const memberId = ctx.identity('member').userId;
    const memberMay = (await holders.holds(manageAll, memberId)) || (manage !== undefined && (await holders.holds(manage, memberId)));
    expectAllowed(await member.patch(path, { deactivated: false }), memberMay, 'a member reactivating a group they may or may not manage');
    expectEqual(await isDeactivated(admin, id), !memberMay, 'whether the group is deactivated after the member\'s attempt');
    if (memberMay) expectSuccess(await admin.post(`${path}/deactivate`));

    const keeping = await openStreamAs(ctx, 'member', ['user_group'], { include_deactivated_groups: true });
    const dropping = await openStreamAs(ctx, 'member', ['user_group'], { include_deactivated_groups: false });
    expectSuccess(await admin.patch(path, { deactivated: false }));
    // Matched by content: with late delivery, the deactivation before the queues opened may still arrive.
    const reactivated = (e: JsonObject): boolean => e.type === 'user_group' && e.op === 'update' && e.group_id === id && (e.data as JsonObject | undefined)?.deactivated === false;
    const update = await awaitEvent(keeping, reactivated, 'the reactivation to a client keeping deactivated groups');
    expectEqual(update.data, { deactivated: false }, 'data of the reactivation update');
    const isAdd = (e: JsonObject): boolean => e.type === 'user_group' && e.op === 'add' && (e.group as JsonObject | undefined)?.id === id;
    const group = (await awaitEvent(dropping, isAdd, 'the reactivated group to a client without deactivated groups')).group as JsonObject;
    check(group.deactivated === false && group.name === name, `the add event should carry the group as it is, named ${JSON.stringify(name)}, with deactivated false; got ${JSON.stringify(group)}`);
    const listed = (await listGroups(member)).find((g) => g.id === id);
    check(listed !== undefined && listed.deactivated === false, `the reactivated group ${id} should be listed without include_deactivated_groups, with deactivated false`);
    expectSuccess(await admin.patch(path, { deactivated: false }));
    expectEqual(await isDeactivated(admin, id), false, 'deactivated after reactivating an active group');
    const unknown = expectError(await admin.patch(`/user_groups/${2_000_000_000}`, { deactivated: false }), { status: 400, code: 'BAD_REQUEST' });
    expectEqual(unknown.msg, 'Invalid user group', 'the error for an unknown group');
  },
};

export const rules: readonly Rule[] = [reactivation];
