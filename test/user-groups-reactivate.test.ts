import t from 'tap';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

// Behaviours of the real server's test_reactivate_user_group and edit_user_group (level 386).
const HAMLET = 'hamlet@zulip.com';
const OTHELLO = 'othello@zulip.com';
const DESDEMONA = 'desdemona@zulip.com';

async function deactivatedGroup(s: TestServer, name: string, members: number[] = []): Promise<number> {
  const reply = await s.as(HAMLET).post('/user_groups/create', { name, description: '', members: JSON.stringify(members) });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  const id = [...s.world.groups.values()].find((group) => group.name === name)?.id as number;
  const off = await s.as(HAMLET).post(`/user_groups/${id}/deactivate`);
  if (off.status !== 200) throw new Error(JSON.stringify(off.body));
  return id;
}

const reactivate = (s: TestServer, id: number, email = HAMLET, deactivated = false) =>
  s.as(email).patch(`/user_groups/${id}`, { deactivated: JSON.stringify(deactivated) });

async function queue(s: TestServer, capable: boolean): Promise<(s: TestServer) => Promise<Array<Record<string, unknown>>>> {
  const othello = s.as(OTHELLO);
  const reply = await othello.post('/register', { fetch_event_types: [], event_types: ['user_group'], client_capabilities: { include_deactivated_groups: capable } });
  const queueId = reply.body.queue_id as string;
  return async () => {
    const events = await othello.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    return (events.body.events as Array<Record<string, unknown>>).map(({ id: _id, ...event }) => event);
  };
}

t.test('the manager reactivates a group with deactivated=false: it is listed again', async (t) => {
  const s = testServer();
  const id = await deactivatedGroup(s, 'phoenix');
  t.same((await reactivate(s, id)).body, { result: 'success', msg: '' });
  t.equal(s.world.groups.get(id)?.deactivated, false);
  const listed = (await s.as(OTHELLO).get('/user_groups')).body.user_groups as Array<{ id: number; deactivated: boolean }>;
  t.equal(listed.find((group) => group.id === id)?.deactivated, false);
});

t.test('clients keeping deactivated groups get the update; the others get the whole group as an add', async (t) => {
  const s = testServer();
  const id = await deactivatedGroup(s, 'returning', [s.id(OTHELLO), s.id(HAMLET)]);
  const [capable, plain] = [await queue(s, true), await queue(s, false)];
  await reactivate(s, id);
  t.same(await capable(s), [{ type: 'user_group', op: 'update', group_id: id, data: { deactivated: false } }]);
  const added = await plain(s);
  t.equal(added.length, 1);
  t.match(added[0], { type: 'user_group', op: 'add', group: { id, name: 'returning', deactivated: false, members: [s.id(HAMLET), s.id(OTHELLO)].sort((a, b) => a - b) } });
  t.notOk('for_reactivation' in (added[0] as object), 'the internal routing flag never reaches a client');
});

t.test('only users who manage the group may reactivate it; owners manage every group', async (t) => {
  const s = testServer();
  const id = await deactivatedGroup(s, 'guarded');
  t.same(errorOf(await reactivate(s, id, OTHELLO)), bad('Insufficient permission'));
  t.equal(s.world.groups.get(id)?.deactivated, true);
  t.equal((await reactivate(s, id, DESDEMONA)).status, 200);
  t.equal(s.world.groups.get(id)?.deactivated, false);
});

t.test('deactivated=false on an active group, and deactivated=true, change nothing and send nothing', async (t) => {
  const s = testServer();
  const id = await deactivatedGroup(s, 'steady');
  await reactivate(s, id);
  const watch = await queue(s, true);
  t.equal((await reactivate(s, id)).status, 200);
  t.equal((await reactivate(s, id, HAMLET, true)).status, 200);
  t.equal(s.world.groups.get(id)?.deactivated, false);
  t.same(await watch(s), []);
});

t.test('unknown groups are refused; a system group is never the caller\'s to change', async (t) => {
  const s = testServer();
  t.same(errorOf(await reactivate(s, 987654)), bad('Invalid user group'));
  t.same(errorOf(await reactivate(s, s.world.systemGroupId('role:members'), DESDEMONA)), bad('Insufficient permission'));
});

t.test('a deactivated group can be renamed from level 340; the rename reaches only clients keeping deactivated groups', async (t) => {
  const s = testServer();
  const id = await deactivatedGroup(s, 'dormant');
  const [capable, plain] = [await queue(s, true), await queue(s, false)];
  t.equal((await s.as(HAMLET).patch(`/user_groups/${id}`, { name: 'sleeping' })).status, 200);
  t.same(await capable(s), [{ type: 'user_group', op: 'update', group_id: id, data: { name: 'sleeping' } }]);
  t.same(await plain(s), []);
  const old = testServer({ featureLevel: 339 });
  const oldId = await deactivatedGroup(old, 'dormant');
  t.same(errorOf(await old.as(HAMLET).patch(`/user_groups/${oldId}`, { description: 'x' })), bad('User group is deactivated.'));
});

t.test('before level 386 deactivated is not a parameter: alone it is "No new data supplied"', async (t) => {
  const s = testServer({ featureLevel: 385 });
  const id = await deactivatedGroup(s, 'stuck');
  t.same(errorOf(await reactivate(s, id)), bad('No new data supplied'));
  t.equal(s.world.groups.get(id)?.deactivated, true);
});
