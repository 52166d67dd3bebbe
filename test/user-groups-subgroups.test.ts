import t from 'tap';
import { namedGroup } from '../lib/entities/group.js';
import { activeRealmUserIds } from '../lib/queries/users/access.js';
import { recordEvents } from './support/events.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';
import { sys } from './support/user-groups.js';

const HAMLET = 'hamlet@zulip.com';
const OTHELLO = 'othello@zulip.com';

const subgroupsOf = (s: TestServer, id: number) => [...(s.world.groups.get(id)?.subgroups ?? [])].sort((a, b) => a - b);

/** A group created by hamlet, who therefore manages it. */
async function newGroup(s: TestServer, extra: Record<string, unknown> = {}, email = HAMLET): Promise<number> {
  const name = `group${s.world.groups.size}`;
  const reply = await s.as(email).post('/user_groups/create', { name, description: '', members: [], ...extra });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  const group = [...s.world.groups.values()].find((g) => g.name === name);
  if (!group) throw new Error('group not created');
  return group.id;
}
const update = (s: TestServer, id: number, params: Record<string, unknown>, email = HAMLET) => s.as(email).post(`/user_groups/${id}/subgroups`, params);

t.test('GET subgroups: every depth excluding the group itself, or direct ones only', async (t) => {
  const s = testServer();
  const moderators = sys(s, 'role:moderators');
  t.same((await s.as(HAMLET).get(`/user_groups/${moderators}/subgroups`)).body, {
    result: 'success',
    msg: '',
    subgroups: [sys(s, 'role:owners'), sys(s, 'role:administrators')].sort((a, b) => a - b),
  });
  t.same((await s.as(HAMLET).get(`/user_groups/${moderators}/subgroups`, { direct_subgroup_only: true })).body.subgroups, [sys(s, 'role:administrators')]);
  t.same(errorOf(await s.as(HAMLET).get('/user_groups/123456/subgroups')), bad('Invalid user group'));
  t.same(errorOf(await s.as('polonius@zulip.com').get(`/user_groups/${moderators}/subgroups`)), bad('Not allowed for guest users'));
  t.same(errorOf(await s.as('default-bot@zulip.com').get(`/user_groups/${moderators}/subgroups`)), bad('This endpoint does not accept bot requests.'));
});

t.test('the subgroups endpoints exist from level 127', async (t) => {
  const old = testServer({ featureLevel: 126 });
  const id = old.world.systemGroupId('role:members');
  t.equal((await old.as(HAMLET).get(`/user_groups/${id}/subgroups`)).status, 404);
  t.equal((await update(old, id, { add: [1] })).status, 404);
  const current = testServer({ featureLevel: 127 });
  t.equal((await current.as(HAMLET).get(`/user_groups/${id}/subgroups`)).status, 200);
});

t.test('adding subgroups sends add_subgroups to every active user; duplicates collapse; system groups allowed', async (t) => {
  const s = testServer();
  const id = await newGroup(s);
  const child = await newGroup(s);
  const events = recordEvents(s);
  const reply = await update(s, id, { add: [child, sys(s, 'role:moderators'), child] });
  t.same(reply.body, { result: 'success', msg: '' });
  const expected = [child, sys(s, 'role:moderators')].sort((a, b) => a - b);
  t.same(subgroupsOf(s, id), expected);
  t.same(events.map((e) => e.event), [{ type: 'user_group', op: 'add_subgroups', group_id: id, direct_subgroup_ids: expected }]);
  t.same([...(events[0]?.userIds ?? [])].sort((a, b) => a - b), activeRealmUserIds(s.world).sort((a, b) => a - b));
  t.same((await s.as(HAMLET).get(`/user_groups/${id}/members`)).body.members, [s.id('desdemona@zulip.com'), s.id('iago@zulip.com'), s.id('shiva@zulip.com')].sort((a, b) => a - b));
});

t.test('add: target first, then unknown IDs, deactivated groups, existing subgroups, cycles', async (t) => {
  const s = testServer();
  const top = await newGroup(s);
  const middle = await newGroup(s);
  const bottom = await newGroup(s);
  t.same(errorOf(await update(s, 123456, { add: [123457] })), bad('Invalid user group'));
  t.same(errorOf(await update(s, sys(s, 'role:members'), { add: [top] }, 'desdemona@zulip.com')), bad('Insufficient permission'));
  t.same(errorOf(await update(s, top, { add: [middle, 123456] })), bad('Invalid user group ID: 123456'));
  await update(s, top, { add: [middle] });
  await update(s, middle, { add: [bottom] });
  t.same(errorOf(await update(s, top, { add: [middle] })), bad(`User group ${middle} is already a subgroup of this group.`));
  t.same(errorOf(await update(s, middle, { add: [top] })), bad(`User group ${middle} is already a subgroup of one of the passed subgroups.`));
  t.same(errorOf(await update(s, bottom, { add: [top] })), bad(`User group ${bottom} is already a subgroup of one of the passed subgroups.`));
  t.same(errorOf(await update(s, top, { add: [top] })), bad(`User group ${top} is already a subgroup of one of the passed subgroups.`));
  const other = await newGroup(s);
  const otherGroup = s.world.groups.get(other);
  if (otherGroup) otherGroup.deactivated = true;
  t.same(errorOf(await update(s, top, { add: [other, 123456] })), bad('Invalid user group ID: 123456'));
  t.same(errorOf(await update(s, top, { add: [other] })), bad('User group is deactivated.'));
  t.same(subgroupsOf(s, top), [middle]);
  t.same(subgroupsOf(s, bottom), []);
});

t.test('delete: checks membership of the subgroup and sends remove_subgroups', async (t) => {
  const s = testServer();
  const id = await newGroup(s);
  const child = await newGroup(s);
  await update(s, id, { add: [child] });
  t.same(errorOf(await update(s, id, { delete: [123456] })), bad('Invalid user group ID: 123456'));
  t.same(errorOf(await update(s, id, { delete: [sys(s, 'role:members')] })), bad(`User group ${sys(s, 'role:members')} is not a subgroup of this group.`));
  const events = recordEvents(s);
  t.equal((await update(s, id, { delete: [child] })).status, 200);
  t.same(events.map((e) => e.event), [{ type: 'user_group', op: 'remove_subgroups', group_id: id, direct_subgroup_ids: [child] }]);
  t.same(errorOf(await update(s, id, { delete: [child] })), bad(`User group ${child} is not a subgroup of this group.`));
});

t.test('adding needs can_add_members_group or managing; removing needs managing', async (t) => {
  const s = testServer();
  const id = await newGroup(s, { can_add_members_group: sys(s, 'role:members') });
  const child = await newGroup(s);
  t.equal((await update(s, id, { add: [child] }, OTHELLO)).status, 200);
  t.same(errorOf(await update(s, id, { delete: [child] }, OTHELLO)), bad('Insufficient permission'));
  const removable = await newGroup(s, { can_remove_members_group: sys(s, 'role:members') });
  await update(s, removable, { add: [child] });
  t.same(errorOf(await update(s, removable, { delete: [child] }, OTHELLO)), bad('Insufficient permission'));
  t.equal((await update(s, id, { delete: [child] })).status, 200);
  s.world.realm.settings.set('can_manage_all_groups', namedGroup(sys(s, 'role:members')));
  t.equal((await update(s, removable, { delete: [child] }, OTHELLO)).status, 200);
});

t.test('nothing to do, and a failing delete undoes the add in the same request', async (t) => {
  const s = testServer();
  const id = await newGroup(s);
  const child = await newGroup(s);
  t.same(errorOf(await update(s, id, {})), bad('Nothing to do. Specify at least one of "add" or "delete".'));
  t.same(errorOf(await update(s, id, { add: [], delete: [] })), bad('Nothing to do. Specify at least one of "add" or "delete".'));
  const events = recordEvents(s);
  t.same(errorOf(await update(s, id, { add: [child], delete: [sys(s, 'role:members')] })), bad(`User group ${sys(s, 'role:members')} is not a subgroup of this group.`));
  t.same(subgroupsOf(s, id), []);
  t.equal(events.length, 0);
  t.equal((await update(s, id, { add: [child], delete: [child] })).status, 200);
  t.same(events.map((e) => e.event.op), ['add_subgroups', 'remove_subgroups']);
});

t.test('subgroups of a deactivated group can change from level 391 only', async (t) => {
  for (const [level, ok] of [[390, false], [391, true]] as const) {
    const s = testServer({ featureLevel: level });
    const id = await newGroup(s);
    const group = s.world.groups.get(id);
    if (group) group.deactivated = true;
    const reply = await update(s, id, { add: [s.world.systemGroupId('role:members')] });
    if (ok) t.equal(reply.status, 200, `level ${level}`);
    else t.same(errorOf(reply), bad('User group is deactivated.'), `level ${level}`);
  }
});

t.test('parameters are JSON lists of integers', async (t) => {
  const s = testServer();
  const id = await newGroup(s);
  t.same(errorOf(await update(s, id, { add: 'x' })), bad('add is not valid JSON'));
  t.same(errorOf(await update(s, id, { delete: [1, 'a'] })), bad('delete[1] is not an integer'));
  t.same(errorOf(await update(s, id, { add: 5 })), bad('add is not a list'));
});
