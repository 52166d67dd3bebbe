/**
 * `POST /user_groups/{user_group_id}/subgroups` (section 4.18; level 127): adding and removing
 * subgroups, observed through `GET /user_groups/{id}/subgroups` (direct and recursive). The
 * groups are created once per rule (run-tagged) and deactivated afterwards; each property run
 * starts by emptying their subgroups. A quieter identity reads them back (`NON_GUEST_READERS`).
 */
import fc from 'fast-check';
import type { ApiClient } from '../../client/api-client.js';
import { expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { expectSubgroupsAsModel, subgroupCommands, type SubgroupsModel } from '../../model/user-groups-model.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import type { Rule, RuleContext } from '../types.js';
import { checkUnknownParamsReported, type ParamPair } from '../conventions/unknown-parameters.js';
import { ascending, GROUP_LEVELS, groupList, RuleGroups, systemGroups } from './user-groups-support.js';
import { NON_GUEST_READERS } from '../support/readers.js';

const ENDPOINT = 'POST /user_groups/{user_group_id}/subgroups';
/** For rules that read the direct subgroups back. */
const READ_BACK = 'POST, GET /user_groups/{user_group_id}/subgroups';
const LEVELS = { min: GROUP_LEVELS.SUBGROUP_ENDPOINTS } as const;
const ABSENT_GROUP = 2_147_483_000;

/** `count` groups created as the admin, tracked for deactivation, and the client reading them back. */
async function makeGroups(ctx: RuleContext, count: number): Promise<{ admin: ApiClient; reader: ApiClient; ids: number[] }> {
  const admin = ctx.as('admin');
  const groups = new RuleGroups(ctx);
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push((await groups.create(admin, [['name', ctx.name('sub')]])).id);
  return { admin, reader: ctx.reader('admin'), ids };
}

/** Removes every direct subgroup of the groups (a fresh start for a property run). */
async function emptySubgroups(admin: ApiClient, reader: ApiClient, ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    const current = await groupList(reader, id, 'subgroups', true);
    if (current.length > 0) expectSuccess(await admin.post(`/user_groups/${id}/subgroups`, { delete: current }));
  }
}

const update = (admin: ApiClient, id: number, params: Record<string, unknown>) => admin.post(`/user_groups/${id}/subgroups`, params);

const addAndDelete: Rule = {
  id: 'user-group-subgroups/add-and-delete',
  title: 'added groups (user or system) become direct subgroups and deleted ones stop being subgroups',
  endpoint: READ_BACK,
  section: '4.18',
  levels: LEVELS,
  writes: true,
  needs: ['admin'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const { admin, reader, ids } = await makeGroups(ctx, 4);
    const [target, ...children] = ids as [number, ...number[]];
    const system = await systemGroups(reader);
    const candidates = [...children, ...['role:moderators', 'role:members'].map((name) => system.get(name)).filter((id): id is number => id !== undefined)];
    const plan = fc.subarray(candidates, { minLength: 1 }).chain((added) => fc.tuple(fc.constant(added), fc.subarray(added)));
    await ctx.property('added, then partly deleted', [plan], async ([added, removed]) => {
      await emptySubgroups(admin, reader, [target]);
      expectPlainSuccess(await update(admin, target, { add: added }));
      expectEqual(await groupList(reader, target, 'subgroups', true), ascending(added), 'direct subgroups after adding');
      if (removed.length === 0) return;
      expectPlainSuccess(await update(admin, target, { delete: removed }));
      expectEqual(await groupList(reader, target, 'subgroups', true), ascending(added.filter((id) => !removed.includes(id))), 'direct subgroups after deleting');
    }, { maxRuns: 10 });
  },
};

/** A chain top > middle > bottom, with the refused requests to check against it. */
async function chain(ctx: RuleContext): Promise<{ admin: ApiClient; reader: ApiClient; top: number; middle: number; bottom: number }> {
  const { admin, reader, ids } = await makeGroups(ctx, 3);
  const [top, middle, bottom] = ids as [number, number, number];
  expectSuccess(await update(admin, top, { add: [middle] }));
  expectSuccess(await update(admin, middle, { add: [bottom] }));
  return { admin, reader, top, middle, bottom };
}

async function expectChainIntact(reader: ApiClient, top: number, middle: number, bottom: number): Promise<void> {
  expectEqual(await groupList(reader, top, 'subgroups', true), [middle], 'direct subgroups of the top group');
  expectEqual(await groupList(reader, middle, 'subgroups', true), [bottom], 'direct subgroups of the middle group');
  expectEqual(await groupList(reader, bottom, 'subgroups', true), [], 'direct subgroups of the bottom group');
}

const cycles: Rule = {
  id: 'user-group-subgroups/cycle-refused',
  title: 'adding a group to itself or to one of its subgroups at any depth answers 400 BAD_REQUEST and changes nothing',
  endpoint: ENDPOINT,
  section: '4.18',
  levels: LEVELS,
  writes: true,
  needs: ['admin'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const { admin, reader, top, middle, bottom } = await chain(ctx);
    const pairs: Array<[number, number]> = [[top, top], [middle, middle], [bottom, bottom], [middle, top], [bottom, top], [bottom, middle]];
    // Every pair on every run: a group itself, its parent and its grandparent.
    for (const [target, sub] of pairs) {
      expectError(await update(admin, target, { add: [sub] }), { status: 400, code: 'BAD_REQUEST' });
      await expectChainIntact(reader, top, middle, bottom);
    }
  },
};

const alreadyOrNot: Rule = {
  id: 'user-group-subgroups/already-or-not-a-subgroup-refused',
  title: 'adding a direct subgroup again, or deleting a group that is no direct subgroup, answers 400 and the whole request changes nothing',
  endpoint: ENDPOINT,
  section: '4.18',
  levels: LEVELS,
  writes: true,
  needs: ['admin'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const { admin, reader, top, middle, bottom } = await chain(ctx);
    const { ids } = await makeGroups(ctx, 1);
    const spare = ids[0] as number;
    const requests: Array<[number, Record<string, unknown>]> = [
      [top, { add: [middle] }],
      [middle, { add: [bottom] }],
      [top, { delete: [bottom] }],
      [bottom, { delete: [top] }],
      [top, { delete: [spare] }],
      // The valid addition must be undone when the deletion fails.
      [top, { add: [spare], delete: [bottom] }],
      [middle, { add: [spare, bottom] }],
    ];
    // Every case on every run.
    for (const [target, params] of requests) {
      expectError(await update(admin, target, params), { status: 400, code: 'BAD_REQUEST' });
      await expectChainIntact(reader, top, middle, bottom);
    }
  },
};

const nothingToDo: Rule = {
  id: 'user-group-subgroups/nothing-to-do-refused',
  title: 'a request without groups to add or delete answers 400 BAD_REQUEST',
  endpoint: ENDPOINT,
  section: '4.18',
  levels: LEVELS,
  writes: true,
  needs: ['admin'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const { admin, ids } = await makeGroups(ctx, 1);
    await ctx.property('empty requests', [fc.constantFrom<Record<string, unknown>>({}, { add: [] }, { delete: [] }, { add: [], delete: [] })], async (params) => {
      expectError(await update(admin, ids[0] as number, params), { status: 400, code: 'BAD_REQUEST' });
    }, { maxRuns: 4 });
  },
};

const unknownGroups: Rule = {
  id: 'user-group-subgroups/unknown-or-system-group-refused',
  title: 'an unknown target, an unknown group to add or delete, or a system group as target answers 400 BAD_REQUEST',
  endpoint: READ_BACK,
  section: '4.18; 7',
  levels: LEVELS,
  writes: true,
  needs: ['admin'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const { admin, reader, ids } = await makeGroups(ctx, 2);
    const [group, other] = ids as [number, number];
    const system = [...(await systemGroups(reader)).values()];
    const before = await Promise.all(system.map((id) => groupList(reader, id, 'subgroups', true)));
    const requests = fc.oneof(
      fc.constant<[number, Record<string, unknown>]>([ABSENT_GROUP, { add: [other] }]),
      fc.constantFrom<Record<string, unknown>>({ add: [ABSENT_GROUP] }, { delete: [ABSENT_GROUP] }, { add: [other, ABSENT_GROUP] }).map((params): [number, Record<string, unknown>] => [group, params]),
      fc.constantFrom(...system).map((id): [number, Record<string, unknown>] => [id, { add: [group] }]),
    );
    await ctx.property('unknown or system groups', [requests], async ([target, params]) => {
      expectError(await update(admin, target, params), { status: 400, code: 'BAD_REQUEST' });
      expectEqual(await groupList(reader, group, 'subgroups', true), [], 'direct subgroups of our group');
    }, { maxRuns: 10 });
    expectEqual(await Promise.all(system.map((id) => groupList(reader, id, 'subgroups', true))), before, 'direct subgroups of the system groups');
  },
};

const unknownIgnored: Rule = {
  id: 'user-group-subgroups/unknown-parameters-ignored',
  title: 'unknown parameters are reported, sorted, in ignored_parameters_unsupported',
  endpoint: ENDPOINT,
  section: '1 convention 4; 9.3',
  levels: { min: 167 },
  writes: true,
  needs: ['admin'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const { admin, reader, ids } = await makeGroups(ctx, 2);
    const [group, child] = ids as [number, number];
    const send = async (pairs: ParamPair[]) => {
      const current = await groupList(reader, group, 'subgroups', true);
      const change: [string, string] = current.includes(child) ? ['delete', JSON.stringify([child])] : ['add', JSON.stringify([child])];
      return admin.post(`/user_groups/${group}/subgroups`, [change, ...pairs]);
    };
    await checkUnknownParamsReported(ctx, { declared: ['add', 'delete', 'user_group_id'], send, maxRuns: 6 });
  },
};

const GROUPS_IN_MODEL = 4;

const modelSequence: Rule = {
  id: 'user-group-subgroups/model-sequence',
  title: 'after any sequence of subgroup changes, the server agrees with the model of direct subgroups; cycles are always refused',
  endpoint: READ_BACK,
  section: '4.18',
  levels: LEVELS,
  writes: true,
  needs: ['admin'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const { admin, reader, ids } = await makeGroups(ctx, GROUPS_IN_MODEL);
    await ctx.assert(
      'add / delete sequences',
      fc.asyncProperty(fc.commands(subgroupCommands(GROUPS_IN_MODEL), { maxCommands: 8 }), async (cmds) => {
        await emptySubgroups(admin, reader, ids);
        const model: SubgroupsModel = { groups: ids, direct: new Map(ids.map((id) => [id, new Set<number>()])) };
        await fc.asyncModelRun(() => ({ model, real: { client: admin, reader } }), cmds);
        await expectSubgroupsAsModel(model, reader);
      }),
      { maxRuns: 10 },
    );
    await emptySubgroups(admin, reader, ids);
  },
};

export const rules: readonly Rule[] = [addAndDelete, cycles, alreadyOrNot, nothingToDo, unknownGroups, unknownIgnored, modelSequence];
