import t from 'tap';
import { checkEventsConvergeFor } from './support/apply-events.js';
import { CORDELIA, DESDEMONA, HAMLET, OTHELLO, POLONIUS } from './support/channels.js';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { bad, basic, Client, errorOf, testServer, type TestServer } from './support/harness.js';
import { sys } from './support/user-groups.js';

const IAGO_EMAIL = 'iago@zulip.com';

/** A group hamlet creates (so hamlet may manage it), with othello as a member. */
async function hamletsGroup(s: TestServer, name = 'editors'): Promise<number> {
  const reply = await s.as(HAMLET).post('/user_groups/create', { name, description: 'd', members: [s.id(OTHELLO)] });
  return reply.body.group_id as number;
}

t.test('PATCH /user_groups/{id} changes name, description and settings, announcing each to everyone', async (t) => {
  const s = testServer();
  const id = await hamletsGroup(s);
  const everyone = listenAll(s);
  const reply = await s.as(HAMLET).patch(`/user_groups/${id}`, {
    name: 'writers',
    description: 'People who write',
    can_mention_group: { new: sys(s, 'role:members') },
    can_join_group: { new: { direct_members: [s.id(CORDELIA)], direct_subgroups: [] }, old: sys(s, 'role:nobody') },
  });
  t.equal(reply.status, 200, reply.text);
  const group = s.world.groups.get(id);
  t.match(group, { name: 'writers', description: 'People who write' });
  const updates = (everyone.received().get(s.id(OTHELLO)) ?? []).filter(isEvent('user_group', 'update')).map((e) => e.data);
  t.same(updates, [
    { name: 'writers' },
    { description: 'People who write' },
    { can_join_group: { direct_members: [s.id(CORDELIA)], direct_subgroups: [] } },
    { can_mention_group: sys(s, 'role:members') },
  ]);
  checkRecipients(t, everyone.received(), isEvent('user_group', 'update'), activeIds(s), 'user_group/update');
  const again = await s.as(HAMLET).patch(`/user_groups/${id}`, { name: 'writers', can_mention_group: { new: sys(s, 'role:members') } });
  t.equal(again.status, 200, 'unchanged values are accepted');
  t.equal((everyone.received().get(s.id(OTHELLO)) ?? []).filter(isEvent('user_group', 'update')).length, 4, 'and send nothing');
});

const refusals: ReadonlyArray<readonly [string, (s: TestServer) => Record<string, unknown>, ReturnType<typeof bad>]> = [
  ['an empty name', () => ({ name: ' ' }), bad("User group name can't be empty!")],
  ['a reserved prefix', () => ({ name: 'role:x' }), bad("User group name cannot start with 'role:'.")],
  ['a taken name', () => ({ name: 'hamletcharacters' }), bad("User group 'hamletcharacters' already exists.")],
  ['an old value that does not match', (s) => ({ can_join_group: { new: sys(s, 'role:members'), old: sys(s, 'role:members') } }), { status: 400, code: 'EXPECTATION_MISMATCH', msg: "'old' value does not match the expected value." }],
  ['a system group a setting refuses', (s) => ({ can_manage_group: { new: sys(s, 'role:everyone') } }), bad("'can_manage_group' setting cannot be set to 'role:everyone' group.")],
  ['an unknown group', () => ({ can_join_group: { new: 9999 } }), bad('Invalid user group')],
  ['a plain group ID from level 259', (s) => ({ can_mention_group: sys(s, 'role:members') }), bad('can_mention_group is not a dict')],
];

for (const [what, params, expected] of refusals) {
  t.test(`PATCH /user_groups/{id} refuses ${what} and changes nothing`, async (t) => {
    const s = testServer();
    const id = await hamletsGroup(s);
    const before = JSON.stringify([...(s.world.groups.get(id)?.settings ?? [])]);
    t.same(errorOf(await s.as(HAMLET).patch(`/user_groups/${id}`, { description: 'changed', ...params(s) })), expected);
    t.equal(s.world.groups.get(id)?.description, 'd');
    t.equal(JSON.stringify([...(s.world.groups.get(id)?.settings ?? [])]), before);
  });
}

t.test('PATCH /user_groups/{id}: system groups, non-managers, guests and bots are refused', async (t) => {
  const s = testServer();
  const id = await hamletsGroup(s);
  t.same(errorOf(await s.as(DESDEMONA).patch(`/user_groups/${sys(s, 'role:members')}`, { description: 'x' })), bad('Insufficient permission'));
  t.same(errorOf(await s.as(OTHELLO).patch(`/user_groups/${id}`, { description: 'x' })), bad('Insufficient permission'), 'a member who may not manage it');
  t.same(errorOf(await s.as(HAMLET).patch('/user_groups/9999', { description: 'x' })), bad('Invalid user group'));
  t.same(errorOf(await s.as(HAMLET).patch('/user_groups/9999', {})), bad('No new data supplied'), 'no data, before the group lookup');
  t.same(errorOf(await s.as(POLONIUS).patch(`/user_groups/${id}`, { description: 'x' })), bad('Not allowed for guest users'));
  const bot = s.world.usersByEmail.get('default-bot@zulip.com');
  t.same(errorOf(await new Client(s.app, basic('default-bot@zulip.com', bot?.apiKey ?? '')).patch(`/user_groups/${id}`, { description: 'x' })), bad('This endpoint does not accept bot requests.'));
  t.equal((await s.as(DESDEMONA).patch(`/user_groups/${id}`, { description: 'by the owner' })).status, 200, 'owners manage every group');
});

t.test('below level 259 can_mention_group takes a plain group ID, and below 198 it is can_mention_group_id', async (t) => {
  // Before level 283 administrators, moderators and the group's members may edit it.
  const s = testServer({ featureLevel: 258 });
  await s.as(HAMLET).post('/user_groups/create', { name: 'old', description: 'd', members: [] });
  const id = [...s.world.groups.values()].find((g) => g.name === 'old')?.id;
  t.equal((await s.as(IAGO_EMAIL).patch(`/user_groups/${id}`, { can_mention_group: sys(s, 'role:members') })).status, 200);
  t.same(errorOf(await s.as(IAGO_EMAIL).patch(`/user_groups/${id}`, { can_mention_group: { new: sys(s, 'role:members') } })), bad('can_mention_group is not an integer'));
  const older = testServer({ featureLevel: 197 });
  await older.as(HAMLET).post('/user_groups/create', { name: 'older', description: 'd', members: [] });
  const group = [...older.world.groups.values()].find((g) => g.name === 'older');
  const everyone = listenAll(older);
  t.equal((await older.as(IAGO_EMAIL).patch(`/user_groups/${group?.id}`, { can_mention_group_id: sys(older, 'role:members') })).status, 200);
  t.same((everyone.received().get(older.id(HAMLET)) ?? []).filter(isEvent('user_group', 'update')).map((e) => e.data), [{ can_mention_group_id: sys(older, 'role:members') }]);
});

t.test('GET /user_groups/{id}/members/{user_id} answers membership, direct or through subgroups', async (t) => {
  const s = testServer();
  const inner = await hamletsGroup(s, 'inner');
  const outer = (await s.as(HAMLET).post('/user_groups/create', { name: 'outer', description: 'd', members: [s.id(CORDELIA)], subgroups: [inner] })).body.group_id as number;
  const ask = (user: string, params = {}) => s.as(HAMLET).get(`/user_groups/${outer}/members/${s.id(user)}`, params);
  t.same((await ask(OTHELLO)).body, { result: 'success', msg: '', is_user_group_member: true });
  t.equal((await ask(OTHELLO, { direct_member_only: true })).body.is_user_group_member, false);
  t.equal((await ask(CORDELIA, { direct_member_only: true })).body.is_user_group_member, true);
  t.equal((await ask(DESDEMONA)).body.is_user_group_member, false);
  t.same(errorOf(await s.as(HAMLET).get(`/user_groups/${outer}/members/9999`)), bad('No such user'));
  t.same(errorOf(await s.as(HAMLET).get(`/user_groups/${outer}/members/${s.id('default-bot@zulip.com')}`)), bad('No such user'));
  t.same(errorOf(await s.as(HAMLET).get(`/user_groups/9999/members/${s.id(OTHELLO)}`)), bad('Invalid user group'));
  t.same(errorOf(await s.as(POLONIUS).get(`/user_groups/${outer}/members/${s.id(OTHELLO)}`)), bad('Not allowed for guest users'));
  t.equal((await testServer({ featureLevel: 126 }).as(HAMLET).get(`/user_groups/1/members/1`)).status, 404, 'from level 127');
});

t.test('group updates converge for observers', async (t) => {
  const s = testServer();
  const id = await hamletsGroup(s);
  const [events] = await checkEventsConvergeFor(t, [s.as(OTHELLO), s.as(DESDEMONA)], {
    fetchEventTypes: ['realm_user_groups'],
    eventTypes: ['user_group'],
    action: () => s.as(HAMLET).patch(`/user_groups/${id}`, { name: 'renamed', can_leave_group: { new: sys(s, 'role:nobody') } }),
  });
  checkEventShapes(t, events ?? []);
});
