/**
 * `POST /user_groups/create` (sections 2.10, 4.9): name, description, members and, from level
 * 311, subgroups; the response's `group_id` from level 317. Created groups are observed through
 * `GET /user_groups` and `GET /user_groups/{id}/members|subgroups`, and deactivated afterwards.
 * Group names carry the run tag; creating properties run a few times only (groups are never
 * deleted on a real server).
 */
import fc from 'fast-check';
import { check, expectAnyError, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { byCodePoint, printableText } from '../support/arbitraries.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import type { Rule, RuleContext } from '../types.js';
import { ascending, GROUP_LEVELS, groupById, groupList, listGroups, RuleGroups, systemGroups } from './user-groups-support.js';
import { NON_GUEST_READERS } from '../support/readers.js';

export const CREATE = 'POST /user_groups/create';
const CREATE_RUNS = 5;

/** IDs of the run's human identities (members to put in groups). */
export const humanIds = (ctx: RuleContext): number[] => ascending(ctx.identities.filter((identity) => !identity.isBot).map((identity) => identity.userId));

/** A name suffix that is data (`__proto__`, unicode, spaces), within the 100-code-point limit with the tag. */
const nameSuffix = fc
  .oneof(fc.constantFrom('', '__proto__', 'constructor', ' spaced out ', 'ünïcødé 😀', '<b>bold</b>', "o'neil"), printableText(16))
  .filter((suffix) => [...suffix].length <= 60);

const noCredentials = credentialsRequired({
  id: 'user-groups/requires-credentials',
  endpoint: CREATE,
  section: '4.9',
  requests: [['POST', '/user_groups/create', { name: 'x', description: 'x', members: [] }]],
});

const noCredentialsSubgroups = credentialsRequired({
  id: 'user-group-subgroups/requires-credentials',
  endpoint: 'POST /user_groups/{user_group_id}/subgroups',
  section: '4.18',
  levels: { min: GROUP_LEVELS.SUBGROUP_ENDPOINTS },
  requests: [['POST', '/user_groups/1/subgroups', { add: [2] }]],
});

async function createAndCheck(ctx: RuleContext, groups: RuleGroups, suffix: string, description: string, members: number[]): Promise<void> {
  const admin = ctx.as('admin');
  const reader = ctx.reader('admin');
  const name = `${ctx.name('group')}${suffix}`;
  const { id, reply } = await groups.create(admin, [['name', name], ['description', description], ['members', members]]);
  const base = { result: v.literal('success'), msg: v.literal('') };
  const shape = ctx.featureLevel >= GROUP_LEVELS.CREATE_RETURNS_ID ? v.object({ ...base, group_id: v.int({ min: 1 }) }, { exact: true }) : v.object(base, { exact: true });
  expectShape(reply.body, shape, 'body', reply);
  const group = await groupById(reader, id);
  expectEqual([group.name, group.description, ascending(group.members)], [name, description, ascending(members)], 'name, description and members as listed');
  if (ctx.featureLevel >= GROUP_LEVELS.IS_SYSTEM_GROUP) expectEqual(group.is_system_group, false, 'is_system_group');
  if (ctx.featureLevel >= GROUP_LEVELS.DIRECT_SUBGROUP_IDS) expectEqual(group.direct_subgroup_ids, [], 'direct_subgroup_ids');
  if (ctx.featureLevel >= GROUP_LEVELS.DEACTIVATION) expectEqual(group.deactivated, false, 'deactivated');
  if (ctx.featureLevel >= GROUP_LEVELS.CREATOR) expectEqual(group.creator_id, ctx.identity('admin').userId, 'creator_id');
  if (ctx.featureLevel >= GROUP_LEVELS.SUBGROUP_ENDPOINTS) expectEqual(await groupList(reader, id, 'members', true), ascending(members), 'GET members (direct)');
}

/** Creates groups of generated names, descriptions and members; each must be listed as created. */
async function createGroupsAndCheck(ctx: RuleContext): Promise<void> {
  const groups = new RuleGroups(ctx);
  await ctx.property('names, descriptions and members', [nameSuffix, printableText(40), fc.subarray(humanIds(ctx))], (suffix, description, members) => createAndCheck(ctx, groups, suffix, description, members), { maxRuns: CREATE_RUNS });
}

const createReturnsId: Rule = {
  id: 'user-groups/create-returns-group-id',
  title: 'creating a group answers its group_id; the group is listed with its name, description and members',
  endpoint: `${CREATE}, GET /user_groups, GET /user_groups/{user_group_id}/members`,
  section: '4.9; 2.10',
  levels: { min: GROUP_LEVELS.CREATE_RETURNS_ID },
  writes: true,
  needs: ['admin'],
  readers: NON_GUEST_READERS,
  run: createGroupsAndCheck,
};

const createBefore317: Rule = {
  id: 'user-groups/create-returns-no-group-id-before-317',
  title: 'before level 317 creating a group answers a plain success; the group is listed with its name, description and members',
  endpoint: CREATE,
  section: '4.9; 9.2',
  levels: { max: GROUP_LEVELS.CREATE_RETURNS_ID - 1 },
  writes: true,
  needs: ['admin'],
  readers: NON_GUEST_READERS,
  run: createGroupsAndCheck,
};

const absentMember: Rule = {
  id: 'user-groups/create-nonexistent-member-refused',
  title: 'members naming a user that does not exist answers 400 BAD_REQUEST and creates no group',
  endpoint: CREATE,
  section: '4.9; 7',
  writes: false,
  needs: ['admin'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const admin = ctx.as('admin');
    const reader = ctx.reader('admin');
    const listing = await reader.get('/users');
    const { members } = expectShape(expectSuccess(listing), v.object({ members: v.array(v.object({ user_id: v.int() })) }), 'body', listing);
    const known = new Set(members.map((user) => user.user_id));
    const absent = fc.integer({ min: 1, max: 2 ** 31 - 1 }).filter((id) => !known.has(id));
    await ctx.property('an absent user among real ones', [fc.subarray(humanIds(ctx)), absent, fc.nat()], async (real, missing, at) => {
      const list = [...real];
      list.splice(at % (list.length + 1), 0, missing);
      const name = ctx.name('absent-member');
      expectError(await admin.post('/user_groups/create', { name, description: '', members: list }), { status: 400, code: 'BAD_REQUEST' });
      check(!(await listGroups(reader)).some((group) => group.name === name), `a group named ${name} exists after a refused creation`);
    }, { maxRuns: 8 });
  },
};

const missingArguments: Rule = {
  id: 'user-groups/create-missing-argument-refused',
  title: 'a creation request without name or description answers 400 and creates nothing',
  endpoint: CREATE,
  section: '4.9; 7',
  writes: false,
  needs: ['admin'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const admin = ctx.as('admin');
    const reader = ctx.reader('admin');
    await ctx.property('one required parameter left out', [fc.constantFrom('name', 'description')], async (left) => {
      const name = ctx.name('missing');
      const params = Object.fromEntries(Object.entries({ name, description: 'd', members: [] }).filter(([key]) => key !== left));
      expectAnyError(await admin.post('/user_groups/create', params), 400);
      check(!(await listGroups(reader)).some((group) => group.name === name), `a group named ${name} exists after a refused creation`);
    }, { maxRuns: 4 });
  },
};

const createWithSubgroups: Rule = {
  id: 'user-groups/create-with-subgroups',
  title: 'from level 311 subgroups given at creation are the direct subgroups of the new group; an unknown one refuses the creation',
  endpoint: CREATE,
  section: '4.9',
  levels: { min: GROUP_LEVELS.CREATE_SUBGROUPS },
  writes: true,
  needs: ['admin'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const admin = ctx.as('admin');
    const reader = ctx.reader('admin');
    const groups = new RuleGroups(ctx);
    const children: number[] = [];
    for (let i = 0; i < 3; i++) children.push((await groups.create(admin, [['name', ctx.name('child')]])).id);
    const system = await systemGroups(reader);
    const candidates = [...children, ...['role:moderators', 'role:members'].map((name) => system.get(name)).filter((id): id is number => id !== undefined)];
    await ctx.property('subsets of groups', [fc.subarray(candidates, { minLength: 1 })], async (subgroups) => {
      const { id } = await groups.create(admin, [['name', ctx.name('parent')], ['subgroups', subgroups]]);
      expectEqual(await groupList(reader, id, 'subgroups', true), ascending(subgroups), 'direct subgroups of the new group');
    }, { maxRuns: 3 });
    const name = ctx.name('bad-subgroup');
    expectError(await admin.post('/user_groups/create', { name, description: '', members: [], subgroups: [children[0], 2_147_483_000] }), { status: 400, code: 'BAD_REQUEST' });
    check(!(await listGroups(reader)).some((group) => group.name === name), 'a group exists after a creation refused for its subgroups');
  },
};

const subgroupsBefore311: Rule = {
  id: 'user-groups/create-subgroups-ignored-before-311',
  title: 'before level 311 subgroups is not a creation parameter: it is reported as ignored and the group has no subgroups',
  endpoint: CREATE,
  section: '4.9; 9.2',
  levels: { min: 167, max: GROUP_LEVELS.CREATE_SUBGROUPS - 1 },
  writes: true,
  needs: ['admin'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const admin = ctx.as('admin');
    const reader = ctx.reader('admin');
    const groups = new RuleGroups(ctx);
    const child = (await groups.create(admin, [['name', ctx.name('child')]])).id;
    const { id, reply } = await groups.create(admin, [['name', ctx.name('parent')], ['subgroups', [child]]]);
    expectSuccess(reply, { ignored: ['subgroups'] });
    expectEqual(await groupList(reader, id, 'subgroups', true), [], 'direct subgroups');
  },
};

const unknownIgnored: Rule = {
  id: 'user-groups/create-unknown-parameters-ignored',
  title: 'unknown creation parameters are reported, sorted, in ignored_parameters_unsupported',
  endpoint: CREATE,
  section: '1 convention 4; 9.3',
  levels: { min: 167 },
  writes: true,
  needs: ['admin'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const groups = new RuleGroups(ctx);
    const names = ['color', 'is_system_group', 'creator_id', 'group_id', 'deactivated', ctx.runTag.replace(/-/g, '_')];
    await ctx.property('unknown names', [fc.subarray(names, { minLength: 1 })], async (unknown) => {
      const { reply } = await groups.create(admin, [['name', ctx.name('ignored')], ...unknown.map((name) => [name, 'x'] as const)]);
      expectSuccess(reply, { ignored: [...unknown].sort(byCodePoint) });
    }, { maxRuns: 2 });
  },
};

export const rules: readonly Rule[] = [noCredentials, noCredentialsSubgroups, createReturnsId, createBefore317, absentMember, missingArguments, createWithSubgroups, subgroupsBefore311, unknownIgnored];
