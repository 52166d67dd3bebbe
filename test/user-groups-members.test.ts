import t from 'tap';
import { namedGroup } from '../lib/entities/group.js';
import type { ChatEvent } from '../lib/state/event-hub.js';
import { activeRealmUserIds } from '../lib/queries/users/access.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';
import { hamletsGroup, membersUpdate as update, sys } from './support/user-groups.js';

const HAMLET = 'hamlet@zulip.com';
const OTHELLO = 'othello@zulip.com';
const CORDELIA = 'cordelia@zulip.com';
const OWNER = 'desdemona@zulip.com';

/** The `user_group` events sent from now on (the membership DMs have their own tests). */
function recordEvents(s: TestServer): Array<{ event: ChatEvent; userIds: readonly number[] }> {
  const seen: Array<{ event: ChatEvent; userIds: readonly number[] }> = [];
  s.world.events.subscribe((event, userIds) => {
    if (event.type === 'user_group') seen.push({ event, userIds: [...userIds] });
  });
  return seen;
}

const members = (s: TestServer, groupId: number) => [...(s.world.groups.get(groupId)?.members ?? [])].sort((a, b) => a - b);


t.test('GET /user_groups lists every group sorted by ID, system groups included', async (t) => {
  const s = testServer();
  const groups = (await s.as(HAMLET).get('/user_groups')).body.user_groups;
  const ids = groups.map((g: { id: number }) => g.id);
  t.same(ids, [...ids].sort((a: number, b: number) => a - b));
  const owners = groups.find((g: { name: string }) => g.name === 'role:owners');
  t.same(owners, {
    id: sys(s, 'role:owners'),
    name: 'role:owners',
    description: 'Owners of this organization',
    creator_id: null,
    date_created: Math.floor(s.world.realm.dateCreated / 1000),
    members: [s.id(OWNER)],
    direct_subgroup_ids: [],
    is_system_group: true,
    can_add_members_group: sys(s, 'role:nobody'),
    can_join_group: sys(s, 'role:nobody'),
    can_leave_group: sys(s, 'role:nobody'),
    can_manage_group: sys(s, 'role:nobody'),
    can_mention_group: sys(s, 'role:nobody'),
    can_remove_members_group: sys(s, 'role:nobody'),
    deactivated: false,
  });
  t.same(groups.find((g: { name: string }) => g.name === 'role:administrators').direct_subgroup_ids, [sys(s, 'role:owners')]);
});

t.test('GET /user_groups refuses guests and bots', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as('polonius@zulip.com').get('/user_groups')), bad('Not allowed for guest users'));
  t.same(errorOf(await s.as('default-bot@zulip.com').get('/user_groups')), bad('This endpoint does not accept bot requests.'));
});

t.test('deactivated groups are listed only on request: include_deactivated_groups from 294, allow_deactivated at 290-293', async (t) => {
  const names = async (s: TestServer, params: Record<string, unknown>) => {
    const reply = await s.as(HAMLET).get('/user_groups', params);
    return { names: reply.body.user_groups.map((g: { name: string }) => g.name), ignored: reply.body.ignored_parameters_unsupported };
  };
  const deactivate = (s: TestServer) => {
    const group = [...s.world.groups.values()].find((g) => g.name === 'hamletcharacters');
    if (group) group.deactivated = true;
  };
  const s = testServer();
  deactivate(s);
  t.notOk((await names(s, {})).names.includes('hamletcharacters'));
  t.ok((await names(s, { include_deactivated_groups: true })).names.includes('hamletcharacters'));
  const ignored = await names(s, { allow_deactivated: true });
  t.notOk(ignored.names.includes('hamletcharacters'));
  t.same(ignored.ignored, ['allow_deactivated']);
  const v293 = testServer({ featureLevel: 293 });
  deactivate(v293);
  t.ok((await names(v293, { allow_deactivated: true })).names.includes('hamletcharacters'));
  t.same((await names(v293, { include_deactivated_groups: true })).ignored, ['include_deactivated_groups']);
  t.same(errorOf(await s.as(HAMLET).get('/user_groups', { include_deactivated_groups: 'yes' })), bad('include_deactivated_groups is not valid JSON'));
});

t.test('group objects carry each field from its feature level', async (t) => {
  const keysAt = async (level: number) => {
    const s = testServer({ featureLevel: level });
    return Object.keys((await s.as(HAMLET).get('/user_groups')).body.user_groups[0]).sort();
  };
  t.same(await keysAt(92), ['description', 'id', 'members', 'name']);
  t.same(await keysAt(93), ['description', 'id', 'is_system_group', 'members', 'name']);
  t.same(await keysAt(127), ['description', 'id', 'is_system_group', 'members', 'name', 'subgroups']);
  t.same(await keysAt(131), ['description', 'direct_subgroup_ids', 'id', 'is_system_group', 'members', 'name']);
  t.same(await keysAt(191), ['can_mention_group_id', 'description', 'direct_subgroup_ids', 'id', 'is_system_group', 'members', 'name']);
  t.same(await keysAt(198), ['can_mention_group', 'description', 'direct_subgroup_ids', 'id', 'is_system_group', 'members', 'name']);
  t.ok((await keysAt(283)).includes('can_manage_group'));
  t.notOk((await keysAt(289)).includes('deactivated'));
  t.ok((await keysAt(290)).includes('deactivated'));
  t.notOk((await keysAt(291)).includes('creator_id'));
  t.ok((await keysAt(292)).includes('creator_id') && (await keysAt(292)).includes('date_created'));
  t.notOk((await keysAt(323)).includes('can_remove_members_group'));
  t.same((await keysAt(324)).filter((k) => k.startsWith('can_')), [
    'can_add_members_group',
    'can_join_group',
    'can_leave_group',
    'can_manage_group',
    'can_mention_group',
    'can_remove_members_group',
  ]);
});

t.test('GET members: recursive or direct, active users only from level 303', async (t) => {
  const s = testServer();
  const moderators = sys(s, 'role:moderators');
  const all = (await s.as(HAMLET).get(`/user_groups/${moderators}/members`)).body.members;
  t.same(all, [s.id(OWNER), s.id('iago@zulip.com'), s.id('shiva@zulip.com')].sort((a, b) => a - b));
  t.same((await s.as(HAMLET).get(`/user_groups/${moderators}/members`, { direct_member_only: true })).body.members, [s.id('shiva@zulip.com')]);
  const shiva = s.world.users.get(s.id('shiva@zulip.com'));
  if (shiva) shiva.isActive = false;
  t.same((await s.as(HAMLET).get(`/user_groups/${moderators}/members`, { direct_member_only: true })).body.members, []);
  const old = testServer({ featureLevel: 302 });
  const oldShiva = old.world.users.get(old.id('shiva@zulip.com'));
  if (oldShiva) oldShiva.isActive = false;
  const oldModerators = old.world.systemGroupId('role:moderators');
  t.same((await old.as(HAMLET).get(`/user_groups/${oldModerators}/members`, { direct_member_only: true })).body.members, [old.id('shiva@zulip.com')]);
  t.same((await old.as(HAMLET).get('/user_groups')).body.user_groups.find((g: { id: number }) => g.id === oldModerators).members, [old.id('shiva@zulip.com')]);
});

t.test('GET members refuses unknown and deactivated groups, guests and bots; it exists from level 127', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(HAMLET).get('/user_groups/123456/members')), bad('Invalid user group'));
  const group = [...s.world.groups.values()].find((g) => g.name === 'hamletcharacters');
  if (group) group.deactivated = true;
  t.same(errorOf(await s.as(HAMLET).get(`/user_groups/${group?.id}/members`)), bad('User group is deactivated.'));
  t.same(errorOf(await s.as('polonius@zulip.com').get('/user_groups/123456/members')), bad('Not allowed for guest users'));
  t.same(errorOf(await s.as('default-bot@zulip.com').get('/user_groups/123456/members')), bad('This endpoint does not accept bot requests.'));
  const old = testServer({ featureLevel: 126 });
  t.equal((await old.as(HAMLET).get(`/user_groups/${old.world.systemGroupId('role:members')}/members`)).status, 405);
});

t.test('adding members sends add_members to every active user', async (t) => {
  const s = testServer();
  const id = await hamletsGroup(s);
  const events = recordEvents(s);
  const reply = await update(s, id, { add: [s.id(OTHELLO), s.id(CORDELIA), s.id(OTHELLO)] });
  t.same(reply.body, { result: 'success', msg: '' });
  const added = [s.id(CORDELIA), s.id(OTHELLO)].sort((a, b) => a - b);
  t.same(members(s, id), [...added, s.id(HAMLET)].sort((a, b) => a - b));
  t.same(events.map((e) => e.event), [{ type: 'user_group', op: 'add_members', group_id: id, user_ids: added }]);
  t.same([...(events[0]?.userIds ?? [])].sort((a, b) => a - b), activeRealmUserIds(s.world).sort((a, b) => a - b));
});

t.test('add: the group is checked before the users, then existing membership', async (t) => {
  const s = testServer();
  const id = await hamletsGroup(s);
  t.same(errorOf(await update(s, 123456, { add: [1111] })), bad('Invalid user group'));
  t.same(errorOf(await update(s, id, { add: [s.id(OTHELLO), 1111] })), bad('Invalid user ID: 1111'));
  t.same(errorOf(await update(s, id, { add: [4] })), bad('Invalid user ID: 4'));
  const othello = s.world.users.get(s.id(OTHELLO));
  if (othello) othello.isActive = false;
  t.same(errorOf(await update(s, id, { add: [s.id(OTHELLO)] })), bad(`Invalid user ID: ${s.id(OTHELLO)}`));
  t.same(errorOf(await update(s, id, { add: [s.id(CORDELIA), s.id(HAMLET)] })), bad(`User ${s.id(HAMLET)} is already a member of this group`));
  t.same(members(s, id), [s.id(HAMLET)]);
});

t.test('delete: users are resolved first, then the group, then membership', async (t) => {
  const s = testServer();
  const id = await hamletsGroup(s, [HAMLET, OTHELLO]);
  t.same(errorOf(await update(s, 123456, { delete: [1111] })), bad('Invalid user ID: 1111'));
  t.same(errorOf(await update(s, 123456, { delete: [s.id(OTHELLO)] })), bad('Invalid user group'));
  t.same(errorOf(await update(s, id, { delete: [s.id(OTHELLO), s.id(CORDELIA)] })), bad(`There is no member '${s.id(CORDELIA)}' in this user group`));
  const events = recordEvents(s);
  t.equal((await update(s, id, { delete: [s.id(OTHELLO)] })).status, 200);
  t.same(members(s, id), [s.id(HAMLET)]);
  t.same(events.map((e) => e.event), [{ type: 'user_group', op: 'remove_members', group_id: id, user_ids: [s.id(OTHELLO)] }]);
});

t.test('nothing to do: the message names the parameters of the emulated level', async (t) => {
  const s = testServer();
  const id = await hamletsGroup(s);
  t.same(errorOf(await update(s, id, {})), bad('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".'));
  t.same(errorOf(await update(s, id, { add: [], delete: [] })), bad('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".'));
  const old = testServer({ featureLevel: 310 });
  const oldId = await hamletsGroup(old);
  t.same(errorOf(await update(old, oldId, { add_subgroups: [1] })), bad('Nothing to do. Specify at least one of "add" or "delete".'));
});

t.test('system groups can never be edited, not even by owners', async (t) => {
  const s = testServer();
  t.same(errorOf(await update(s, sys(s, 'role:members'), { add: [s.id(OTHELLO)] }, OWNER)), bad('Insufficient permission'));
  t.same(errorOf(await update(s, sys(s, 'role:members'), { delete: [s.id(HAMLET)] }, OWNER)), bad('Insufficient permission'));
});

t.test('managing: the group\'s can_manage_group or the realm\'s can_manage_all_groups (owners by default)', async (t) => {
  const s = testServer();
  const id = await hamletsGroup(s);
  const denied = bad('Insufficient permission');
  t.same(errorOf(await update(s, id, { add: [s.id(CORDELIA)] }, OTHELLO)), denied);
  // Administrators are not in role:owners, the default of can_manage_all_groups.
  t.same(errorOf(await update(s, id, { add: [s.id(CORDELIA)] }, 'iago@zulip.com')), denied);
  t.equal((await update(s, id, { add: [s.id(CORDELIA)] }, OWNER)).status, 200);
  s.world.realm.settings.set('can_manage_all_groups', namedGroup(sys(s, 'role:administrators')));
  t.equal((await update(s, id, { delete: [s.id(CORDELIA)] }, 'iago@zulip.com')).status, 200);
});

t.test('joining needs can_join_group (from 301); adding others needs can_add_members_group (from 305)', async (t) => {
  const s = testServer();
  const id = await hamletsGroup(s, [HAMLET], { can_join_group: sys(s, 'role:members') });
  t.same(errorOf(await update(s, id, { add: [s.id(CORDELIA)] }, OTHELLO)), bad('Insufficient permission'));
  t.equal((await update(s, id, { add: [s.id(OTHELLO)] }, OTHELLO)).status, 200);
  const adders = await hamletsGroup(s, [HAMLET], { can_add_members_group: sys(s, 'role:members') });
  t.equal((await update(s, adders, { add: [s.id(CORDELIA)] }, OTHELLO)).status, 200);

  const v300 = testServer({ featureLevel: 300 });
  const oldId = await hamletsGroup(v300);
  const group = v300.world.groups.get(oldId);
  group?.settings.set('can_join_group', namedGroup(v300.world.systemGroupId('role:members')));
  t.same(errorOf(await update(v300, oldId, { add: [v300.id(OTHELLO)] }, OTHELLO)), bad('Insufficient permission'));
  const v304 = testServer({ featureLevel: 304 });
  const id304 = await hamletsGroup(v304);
  v304.world.groups.get(id304)?.settings.set('can_add_members_group', namedGroup(v304.world.systemGroupId('role:members')));
  t.same(errorOf(await update(v304, id304, { add: [v304.id(CORDELIA)] }, OTHELLO)), bad('Insufficient permission'));
});

t.test('leaving needs can_leave_group (from 308); removing others needs can_remove_members_group (from 324)', async (t) => {
  const s = testServer();
  const id = await hamletsGroup(s, [HAMLET, OTHELLO, CORDELIA]);
  t.same(errorOf(await update(s, id, { delete: [s.id(CORDELIA)] }, OTHELLO)), bad('Insufficient permission'));
  t.equal((await update(s, id, { delete: [s.id(OTHELLO)] }, OTHELLO)).status, 200);
  const removers = await hamletsGroup(s, [HAMLET, CORDELIA], { can_remove_members_group: sys(s, 'role:members') });
  t.equal((await update(s, removers, { delete: [s.id(CORDELIA)] }, OTHELLO)).status, 200);

  const v307 = testServer({ featureLevel: 307 });
  const id307 = await hamletsGroup(v307, [HAMLET, OTHELLO]);
  t.same(errorOf(await update(v307, id307, { delete: [v307.id(OTHELLO)] }, OTHELLO)), bad('Insufficient permission'));
  const v323 = testServer({ featureLevel: 323 });
  const id323 = await hamletsGroup(v323, [HAMLET, CORDELIA]);
  v323.world.groups.get(id323)?.settings.set('can_remove_members_group', namedGroup(v323.world.systemGroupId('role:members')));
  t.same(errorOf(await update(v323, id323, { delete: [v323.id(CORDELIA)] }, OTHELLO)), bad('Insufficient permission'));
});

t.test('before level 283 moderators and the group\'s own members may edit it', async (t) => {
  const s = testServer({ featureLevel: 282 });
  const id = await hamletsGroup(s, [HAMLET, CORDELIA]);
  t.equal((await update(s, id, { add: [s.id('ZOE@zulip.com')] }, CORDELIA)).status, 200);
  t.same(errorOf(await update(s, id, { add: [s.id('AARON@zulip.com')] }, OTHELLO)), bad('Insufficient permission'));
  t.equal((await update(s, id, { add: [s.id('AARON@zulip.com')] }, 'shiva@zulip.com')).status, 200);
});

t.test('members of a deactivated group can change from level 391 only', async (t) => {
  for (const [level, ok] of [[390, false], [391, true]] as const) {
    const s = testServer({ featureLevel: level });
    const id = await hamletsGroup(s);
    const group = s.world.groups.get(id);
    if (group) group.deactivated = true;
    const reply = await update(s, id, { add: [s.id(OTHELLO)] });
    if (ok) t.equal(reply.status, 200, `level ${level}`);
    else t.same(errorOf(reply), bad('User group is deactivated.'), `level ${level}`);
  }
});

t.test('a request is one transaction: a later failure undoes earlier steps and sends nothing', async (t) => {
  const s = testServer();
  const id = await hamletsGroup(s);
  const events = recordEvents(s);
  const before = s.world.messages.size;
  const reply = await update(s, id, { add: [s.id(OTHELLO)], delete: [s.id(CORDELIA)] });
  t.same(errorOf(reply), bad(`There is no member '${s.id(CORDELIA)}' in this user group`));
  t.same(members(s, id), [s.id(HAMLET)]);
  t.equal(events.length, 0);
  t.equal(s.world.messages.size, before, 'no membership DM either');
  t.same(errorOf(await update(s, id, { add: [s.id(OTHELLO)], add_subgroups: [123456] })), bad('Invalid user group ID: 123456'));
  t.same(members(s, id), [s.id(HAMLET)]);
  t.equal(events.length, 0);
  // Steps see each other's effects: add then delete of the same user succeeds.
  t.equal((await update(s, id, { add: [s.id(OTHELLO)], delete: [s.id(OTHELLO)] })).status, 200);
  t.same(events.map((e) => e.event.op), ['add_members', 'remove_members']);
  t.same(members(s, id), [s.id(HAMLET)]);
});

t.test('add_subgroups and delete_subgroups exist on the members endpoint from level 311', async (t) => {
  const s = testServer();
  const id = await hamletsGroup(s);
  const events = recordEvents(s);
  t.equal((await update(s, id, { add: [s.id(OTHELLO)], add_subgroups: [sys(s, 'role:moderators')] })).status, 200);
  t.same([...(s.world.groups.get(id)?.subgroups ?? [])], [sys(s, 'role:moderators')]);
  t.equal((await update(s, id, { delete_subgroups: [sys(s, 'role:moderators')] })).status, 200);
  t.same(events.map((e) => e.event.op), ['add_members', 'add_subgroups', 'remove_subgroups']);
  const old = testServer({ featureLevel: 310 });
  const oldId = await hamletsGroup(old);
  const reply = await update(old, oldId, { add: [old.id(OTHELLO)], add_subgroups: [old.world.systemGroupId('role:moderators')] });
  t.same(reply.body.ignored_parameters_unsupported, ['add_subgroups']);
  t.equal(old.world.groups.get(oldId)?.subgroups.size, 0);
});
