/**
 * `PATCH /streams/{id}` (api/update-stream) group settings: from level 320 every `can_*_group`
 * the level has, as `{"new": value, "old": value}`, with `old` checked against the current value
 * (`EXPECTATION_MISMATCH` otherwise, changing nothing); before 320 the bare group ID of
 * `can_remove_subscribers_group` (named `..._id` before 197). Every change is read back.
 */
import fc from 'fast-check';
import type { JsonObject } from '../../client/api-client.js';
import { expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { realmGroupSetting, realmState, SettingHolders } from '../support/realm-permissions.js';
import type { Rule, RuleContext } from '../types.js';
import { systemGroups } from '../groups/user-groups-support.js';
import { CHANNEL_SETTINGS, DELETE_POLICY_SETTING, DELETE_SETTINGS } from './subscribe-group-settings.js';
import { updateRule } from './streams-update.js';
import { patchChannel, readChannel, STREAM_LEVELS } from './streams-support.js';

/** The channel group settings the administrator may change at the run's level (message deletion only for holders of the realm policy). */
async function changeableSettings(ctx: RuleContext): Promise<string[]> {
  const admin = ctx.as('admin');
  let settings = CHANNEL_SETTINGS.filter((setting) => ctx.featureLevel >= setting.since).map((setting) => setting.name);
  if (ctx.featureLevel >= 407 && !(await new SettingHolders(admin).holds(realmGroupSetting(await realmState(admin), DELETE_POLICY_SETTING), ctx.identity('admin').userId))) {
    settings = settings.filter((name) => !DELETE_SETTINGS.includes(name));
  }
  return settings;
}

const change = (value: unknown, old?: unknown): string => JSON.stringify(old === undefined ? { new: value } : { new: value, old });

const newAndOld = updateRule({
  id: 'streams-update/group-settings-new-and-old',
  title: "every channel group setting of the level changes with {new, old} when old is the current value (read back), stays with a no-op new, takes an anonymous group, and is refused with 400 EXPECTATION_MISMATCH when old is not current, leaving every setting as it was; a bare group ID is refused",
  section: 'api/update-stream; changelog 320',
  levels: { min: STREAM_LEVELS.GROUP_CHANGE_OBJECT },
}, async (ctx, channel) => {
  const admin = ctx.as('admin');
  const settings = await changeableSettings(ctx);
  const system = await systemGroups(admin);
  const administrators = system.get('role:administrators')!;
  const members = system.get('role:members')!;
  const before = await readChannel(ctx, ctx.as('member'), channel);
  expectSuccess(await patchChannel(admin, channel, settings.map((name) => [name, change(administrators, before[name])] as const)));
  const expectAll = async (expected: (name: string) => unknown, what: string): Promise<JsonObject> => {
    const stream = await readChannel(ctx, ctx.as('member'), channel);
    for (const name of settings) expectEqual(stream[name], expected(name), `${name} after ${what}`);
    return stream;
  };
  await expectAll(() => administrators, 'setting every group to role:administrators with old set to the current values');
  const wrongOld = fc.oneof(fc.constant<unknown>(members), fc.constant<unknown>({ direct_members: [ctx.identity('member').userId], direct_subgroups: [] }));
  await ctx.property('settings x wrong old values', [fc.constantFrom(...settings), wrongOld], async (name, old) => {
    expectError(await patchChannel(admin, channel, [[name, change(members, old)]]), { status: 400, code: 'EXPECTATION_MISMATCH' });
  }, { maxRuns: 6 });
  const first = settings[0]!;
  expectSuccess(await patchChannel(admin, channel, [[first, change(administrators)]]));
  expectError(await patchChannel(admin, channel, [[first, administrators]]), { status: 400, code: 'BAD_REQUEST' });
  await expectAll(() => administrators, 'the refused and no-op changes');
  const anonymous = { direct_members: [ctx.identity('member').userId], direct_subgroups: [administrators] };
  expectSuccess(await patchChannel(admin, channel, [[first, change(anonymous, administrators)]]));
  await expectAll((name) => (name === first ? anonymous : administrators), `${first} set to an anonymous group`);
});

const bareId = updateRule({
  id: 'streams-update/can-remove-subscribers-group-id-before-320',
  title: 'before level 320 can_remove_subscribers_group (can_remove_subscribers_group_id before 197) takes a bare group ID, read back; the {new, old} form is refused with 400 BAD_REQUEST',
  section: 'api/update-stream; changelog 142, 197, 320',
  levels: { min: STREAM_LEVELS.CAN_REMOVE_SUBSCRIBERS, max: STREAM_LEVELS.GROUP_CHANGE_OBJECT - 1 },
}, async (ctx, channel) => {
  const admin = ctx.as('admin');
  const name = ctx.featureLevel >= STREAM_LEVELS.CAN_REMOVE_SUBSCRIBERS_RENAMED ? 'can_remove_subscribers_group' : 'can_remove_subscribers_group_id';
  const administrators = (await systemGroups(admin)).get('role:administrators')!;
  expectSuccess(await patchChannel(admin, channel, [[name, administrators]]));
  expectEqual((await readChannel(ctx, admin, channel))[name], administrators, `${name} after setting role:administrators`);
  const members = (await systemGroups(admin)).get('role:members')!;
  expectError(await patchChannel(admin, channel, [[name, change(members)]]), { status: 400, code: 'BAD_REQUEST' });
  expectEqual((await readChannel(ctx, admin, channel))[name], administrators, `${name} after the refused object form`);
});

export const rules: readonly Rule[] = [newAndOld, bareId];
