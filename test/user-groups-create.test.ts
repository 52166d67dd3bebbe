import t from 'tap';
import { namedGroup } from '../lib/entities/group.js';
import { activeRealmUserIds } from '../lib/queries/users/access.js';
import { recordEvents } from './support/events.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';
import { sys } from './support/user-groups.js';

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';

const create = (s: TestServer, params: Record<string, unknown>, email = HAMLET) =>
  s.as(email).post('/user_groups/create', { name: 'marketing', description: 'The marketing team.', members: [], ...params });
const groupNamed = (s: TestServer, name: string) => [...s.world.groups.values()].find((g) => g.name === name);

t.test('creating a group returns its ID and stores it with the creator-based defaults', async (t) => {
  const s = testServer();
  const hamlet = s.id(HAMLET);
  const reply = await create(s, { members: [s.id('othello@zulip.com'), hamlet, hamlet] });
  t.equal(reply.status, 200);
  const id = reply.body.group_id;
  t.same(Object.keys(reply.body).sort(), ['group_id', 'msg', 'result']);
  const listed = (await s.as(HAMLET).get('/user_groups')).body.user_groups.find((g: { id: number }) => g.id === id);
  t.same(listed, {
    id,
    name: 'marketing',
    description: 'The marketing team.',
    creator_id: hamlet,
    date_created: Math.floor(s.clock.now() / 1000),
    members: [hamlet, s.id('othello@zulip.com')],
    direct_subgroup_ids: [],
    is_system_group: false,
    can_add_members_group: { direct_members: [hamlet], direct_subgroups: [] },
    can_join_group: sys(s, 'role:nobody'),
    can_leave_group: sys(s, 'role:everyone'),
    can_manage_group: { direct_members: [hamlet], direct_subgroups: [] },
    can_mention_group: sys(s, 'role:everyone'),
    can_remove_members_group: sys(s, 'role:nobody'),
    deactivated: false,
  });
});

t.test('creation announces the group to every active user, then its subgroups', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  const fixtureGroup = groupNamed(s, 'hamletcharacters')?.id as number;
  const reply = await create(s, { members: [s.id(HAMLET)], subgroups: [fixtureGroup, sys(s, 'role:moderators'), fixtureGroup] });
  const id = reply.body.group_id;
  t.equal(events.length, 2);
  const everyone = activeRealmUserIds(s.world).sort((a, b) => a - b);
  t.same([...(events[0]?.userIds ?? [])].sort((a, b) => a - b), everyone);
  const added = events[0]?.event as unknown as { op: string; group: Record<string, unknown> };
  t.equal(added.op, 'add');
  t.same(added.group.direct_subgroup_ids, []);
  t.same(added.group.members, [s.id(HAMLET)]);
  t.same(events[1]?.event, { type: 'user_group', op: 'add_subgroups', group_id: id, direct_subgroup_ids: [sys(s, 'role:moderators'), fixtureGroup].sort((a, b) => a - b) });
  t.same((await s.as(HAMLET).get(`/user_groups/${id}/subgroups`, { direct_subgroup_only: true })).body.subgroups, [sys(s, 'role:moderators'), fixtureGroup].sort((a, b) => a - b));
});

t.test('guests, then bots, then users outside can_create_groups are refused before parsing', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as('polonius@zulip.com').post('/user_groups/create', { members: 'junk' })), bad('Not allowed for guest users'));
  t.same(errorOf(await s.as('default-bot@zulip.com').post('/user_groups/create', { members: 'junk' })), bad('This endpoint does not accept bot requests.'));
  s.world.realm.settings.set('can_create_groups', namedGroup(sys(s, 'role:administrators')));
  t.same(errorOf(await s.as(HAMLET).post('/user_groups/create', { members: 'junk' })), bad('Insufficient permission'));
  t.equal((await create(s, {}, IAGO)).status, 200);
});

t.test('required parameters and member validation', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(HAMLET).post('/user_groups/create', {})), {
    status: 400,
    code: 'REQUEST_VARIABLE_MISSING',
    msg: "Missing 'description' argument",
  });
  t.same(errorOf(await s.as(HAMLET).post('/user_groups/create', { name: 'x', description: '' })), {
    status: 400,
    code: 'REQUEST_VARIABLE_MISSING',
    msg: "Missing 'members' argument",
  });
  t.same(errorOf(await create(s, { members: [s.id(HAMLET), 1111] })), bad('Invalid user ID: 1111'));
  // Cross-realm system bots are not users of the realm; realm bots may be members.
  t.same(errorOf(await create(s, { members: [4] })), bad('Invalid user ID: 4'));
  t.equal((await create(s, { name: 'bots', members: [s.id('default-bot@zulip.com')] })).status, 200);
  t.same(errorOf(await create(s, { members: 'x' })), bad('members is not valid JSON'));
});

t.test('deactivated users cannot be members from level 303', async (t) => {
  for (const [level, ok] of [[302, true], [303, false]] as const) {
    const s = testServer({ featureLevel: level });
    const othello = s.world.users.get(s.id('othello@zulip.com'));
    if (othello) othello.isActive = false;
    const reply = await create(s, { members: [s.id('othello@zulip.com')] });
    if (ok) t.equal(reply.status, 200, `level ${level}`);
    else t.same(errorOf(reply), bad(`Invalid user ID: ${s.id('othello@zulip.com')}`), `level ${level}`);
  }
});

t.test('group names: not blank, at most 100 code points, no reserved prefix, stored unstripped', async (t) => {
  const s = testServer();
  t.same(errorOf(await create(s, { name: '' })), bad("User group name can't be empty!"));
  t.same(errorOf(await create(s, { name: ' \t ' })), bad("User group name can't be empty!"));
  t.same(errorOf(await create(s, { name: '😎'.repeat(101) })), bad('User group name cannot exceed 100 characters.'));
  t.equal((await create(s, { name: '😎'.repeat(100) })).status, 200);
  for (const prefix of ['@', 'role:', 'user:', 'stream:', 'channel:']) {
    t.same(errorOf(await create(s, { name: `${prefix}team` })), bad(`User group name cannot start with '${prefix}'.`));
  }
  t.equal((await create(s, { name: 'Role:team' })).status, 200);
  t.equal((await create(s, { name: ' spaced ' })).status, 200);
  t.ok(groupNamed(s, ' spaced '));
});

t.test('names are unique in the realm, deactivated groups included; __proto__ is an ordinary name', async (t) => {
  const s = testServer();
  t.same(errorOf(await create(s, { name: 'hamletcharacters' })), bad("User group 'hamletcharacters' already exists."));
  const fixtureGroup = groupNamed(s, 'hamletcharacters');
  if (fixtureGroup) fixtureGroup.deactivated = true;
  t.same(errorOf(await create(s, { name: 'hamletcharacters' })), bad("User group 'hamletcharacters' already exists."));
  for (const name of ['__proto__', 'constructor', 'toString']) {
    const reply = await create(s, { name });
    t.equal(reply.status, 200, name);
    const listed = (await s.as(HAMLET).get('/user_groups')).body.user_groups.find((g: { id: number }) => g.id === reply.body.group_id);
    t.equal(listed.name, name);
  }
  t.same(errorOf(await create(s, { name: '__proto__' })), bad("User group '__proto__' already exists."));
});

const SETTINGS = ['can_add_members_group', 'can_join_group', 'can_leave_group', 'can_manage_group', 'can_mention_group', 'can_remove_members_group'] as const;
const EVERYONE_ALLOWED = new Set(['can_leave_group', 'can_mention_group']);

t.test('every group setting accepts groups and anonymous values and refuses the forbidden system groups', async (t) => {
  const s = testServer();
  const fixtureGroup = groupNamed(s, 'hamletcharacters')?.id as number;
  let n = 0;
  const stored = async (setting: string, value: unknown) => {
    const reply = await create(s, { name: `g${n++}`, [setting]: value });
    t.equal(reply.status, 200, `${setting} = ${JSON.stringify(value)}`);
    return (await s.as(HAMLET).get('/user_groups')).body.user_groups.find((g: { id: number }) => g.id === reply.body.group_id)[setting];
  };
  for (const setting of SETTINGS) {
    t.equal(await stored(setting, sys(s, 'role:moderators')), sys(s, 'role:moderators'));
    if (setting === 'can_mention_group') {
      // Section 4.9; real servers accept it (a recorded deviation).
      t.same(errorOf(await create(s, { [setting]: sys(s, 'role:owners') })), bad(`'${setting}' setting cannot be set to 'role:owners' group.`));
    } else t.equal(await stored(setting, sys(s, 'role:owners')), sys(s, 'role:owners'));
    t.equal(await stored(setting, sys(s, 'role:nobody')), sys(s, 'role:nobody'));
    t.equal(await stored(setting, fixtureGroup), fixtureGroup);
    const anonymous = { direct_members: [s.id('othello@zulip.com'), s.id(IAGO)], direct_subgroups: [fixtureGroup] };
    t.same(await stored(setting, anonymous), { direct_members: [s.id(IAGO), s.id('othello@zulip.com')], direct_subgroups: [fixtureGroup] });
    t.equal(await stored(setting, { direct_members: [], direct_subgroups: [fixtureGroup] }), fixtureGroup);
    t.equal(await stored(setting, { direct_members: [], direct_subgroups: [] }), sys(s, 'role:nobody'));
    t.same(errorOf(await create(s, { [setting]: sys(s, 'role:internet') })), bad(`'${setting}' setting cannot be set to 'role:internet' group.`));
    if (EVERYONE_ALLOWED.has(setting)) t.equal(await stored(setting, sys(s, 'role:everyone')), sys(s, 'role:everyone'));
    else t.same(errorOf(await create(s, { [setting]: sys(s, 'role:everyone') })), bad(`'${setting}' setting cannot be set to 'role:everyone' group.`));
    t.same(errorOf(await create(s, { [setting]: 123456 })), bad('Invalid user group'));
    t.same(errorOf(await create(s, { [setting]: { direct_members: [1111], direct_subgroups: [] } })), bad('Invalid user ID: 1111'));
    t.same(errorOf(await create(s, { [setting]: { direct_members: [], direct_subgroups: [123456] } })), bad('Invalid user group ID: 123456'));
  }
  const fixture = s.world.groups.get(fixtureGroup);
  if (fixture) fixture.deactivated = true;
  for (const setting of SETTINGS) {
    t.same(errorOf(await create(s, { [setting]: fixtureGroup })), bad('User group is deactivated.'));
    t.same(errorOf(await create(s, { [setting]: { direct_members: [s.id(IAGO)], direct_subgroups: [fixtureGroup] } })), bad('User group is deactivated.'));
  }
});

t.test('initial subgroups: unknown IDs, then deactivated groups, are refused', async (t) => {
  const s = testServer();
  const fixtureGroup = groupNamed(s, 'hamletcharacters');
  t.same(errorOf(await create(s, { subgroups: [sys(s, 'role:members'), 123456] })), bad('Invalid user group ID: 123456'));
  if (fixtureGroup) fixtureGroup.deactivated = true;
  t.same(errorOf(await create(s, { subgroups: [fixtureGroup?.id, 123456] })), bad('Invalid user group ID: 123456'));
  t.same(errorOf(await create(s, { subgroups: [fixtureGroup?.id] })), bad('User group is deactivated.'));
});

t.test('a failed creation creates no group, uses no name and sends no event', async (t) => {
  const s = testServer();
  const before = s.world.groups.size;
  const events = recordEvents(s);
  const failures = [
    { members: [1111] },
    { name: '' },
    { can_manage_group: sys(s, 'role:internet') },
    { name: 'hamletcharacters' },
    { subgroups: [123456] },
  ];
  for (const params of failures) t.equal((await create(s, params)).status, 400, JSON.stringify(params));
  t.equal(s.world.groups.size, before);
  t.equal(events.length, 0);
  t.equal((await create(s, {})).status, 200);
});

t.test('each setting parameter exists from its feature level and is ignored below it', async (t) => {
  const levels: Array<[string, number]> = [
    ['can_add_members_group', 305],
    ['can_join_group', 301],
    ['can_leave_group', 308],
    ['can_manage_group', 283],
    ['can_mention_group', 198],
    ['can_remove_members_group', 324],
  ];
  for (const [setting, level] of levels) {
    const below = testServer({ featureLevel: level - 1 });
    const ignored = await create(below, { [setting]: below.world.systemGroupId('role:members') });
    t.equal(ignored.status, 200, `${setting} below ${level}`);
    t.same(ignored.body.ignored_parameters_unsupported, [setting]);
    const listed = (await below.as(HAMLET).get('/user_groups')).body.user_groups;
    t.notOk(Object.hasOwn(listed.at(-1), setting), `${setting} absent from groups below ${level}`);
    const at = testServer({ featureLevel: level });
    const reply = await create(at, { [setting]: at.world.systemGroupId('role:members') });
    t.notOk(reply.body.ignored_parameters_unsupported);
    const group = (await at.as(HAMLET).get('/user_groups')).body.user_groups.at(-1);
    t.equal(group[setting], at.world.systemGroupId('role:members'), `${setting} at ${level}`);
  }
});

t.test('can_mention_group: named can_mention_group_id before 198, integer only before 258', async (t) => {
  const old = testServer({ featureLevel: 197 });
  const members = old.world.systemGroupId('role:members');
  const reply = await create(old, { can_mention_group_id: members });
  t.notOk(reply.body.ignored_parameters_unsupported);
  const group = (await old.as(HAMLET).get('/user_groups')).body.user_groups.at(-1);
  t.equal(group.can_mention_group_id, members);
  t.notOk(Object.hasOwn(group, 'can_mention_group'));
  t.same((await create(old, { name: 'other', can_mention_group: members })).body.ignored_parameters_unsupported, ['can_mention_group']);
  t.same(errorOf(await create(old, { name: 'third', can_mention_group_id: 'x' })), bad('can_mention_group_id is not valid JSON'));
  const before = testServer({ featureLevel: 190 });
  t.same((await create(before, { can_mention_group_id: members })).body.ignored_parameters_unsupported, ['can_mention_group_id']);

  const anonymous = { direct_members: [old.id(HAMLET)], direct_subgroups: [] };
  const v257 = testServer({ featureLevel: 257 });
  t.same(errorOf(await create(v257, { can_mention_group: anonymous })), bad('can_mention_group is not an integer'));
  t.same((await create(v257, { name: 'later', can_mention_group_id: 1 })).body.ignored_parameters_unsupported, ['can_mention_group_id']);
  const v258 = testServer({ featureLevel: 258 });
  t.equal((await create(v258, { can_mention_group: anonymous })).status, 200);
});

t.test('the response carries group_id from level 317 and subgroups exist from 311', async (t) => {
  const old = testServer({ featureLevel: 316 });
  t.same((await create(old, {})).body, { result: 'success', msg: '' });
  const v310 = testServer({ featureLevel: 310 });
  const reply = await create(v310, { subgroups: [v310.world.systemGroupId('role:members')] });
  t.same(reply.body.ignored_parameters_unsupported, ['subgroups']);
  t.same((await v310.as(HAMLET).get('/user_groups')).body.user_groups.at(-1).direct_subgroup_ids, []);
});
