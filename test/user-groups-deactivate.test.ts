import t from 'tap';
import { namedGroup } from '../lib/entities/group.js';
import { recordEvents } from './support/events.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const OTHELLO = 'othello@zulip.com';
const DESDEMONA = 'desdemona@zulip.com';

/** A group created by hamlet (who therefore manages it); returns its ID. */
async function newGroup(s: TestServer, name: string, extra: Record<string, unknown> = {}): Promise<number> {
  const reply = await s.as(HAMLET).post('/user_groups/create', { name, description: '', members: [], ...extra });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  // Looked up by name: below level 317 the response carries no group_id.
  const group = [...s.world.groups.values()].find((g) => g.name === name);
  if (!group) throw new Error('group not created');
  return group.id;
}

const deactivate = (s: TestServer, id: number, email = HAMLET) => s.as(email).post(`/user_groups/${id}/deactivate`);

t.test('the manager deactivates a group: it leaves the default listing and stays listed on request', async (t) => {
  const s = testServer();
  const id = await newGroup(s, 'doomed');
  const events = recordEvents(s);
  t.same((await deactivate(s, id)).body, { result: 'success', msg: '' });
  t.equal(s.world.groups.get(id)?.deactivated, true);
  const listed = (await s.as(HAMLET).get('/user_groups')).body.user_groups as Array<{ id: number }>;
  t.notOk(listed.some((group) => group.id === id));
  const all = (await s.as(HAMLET).get('/user_groups', { include_deactivated_groups: true })).body.user_groups as Array<{ id: number; deactivated: boolean }>;
  t.equal(all.find((group) => group.id === id)?.deactivated, true);
  t.same(
    events.map(({ event }) => event),
    [
      { type: 'user_group', op: 'update', group_id: id, data: { deactivated: true } },
      { type: 'user_group', op: 'remove', group_id: id },
    ],
  );
});

t.test('deactivation refuses unknown, already deactivated and system groups', async (t) => {
  const s = testServer();
  t.same(errorOf(await deactivate(s, 987654)), bad('Invalid user group'));
  const id = await newGroup(s, 'twice');
  await deactivate(s, id);
  t.same(errorOf(await deactivate(s, id)), bad('User group is deactivated.'));
  t.same(errorOf(await deactivate(s, s.world.systemGroupId('role:members'), DESDEMONA)), bad('Insufficient permission'));
});

t.test('only users who manage the group may deactivate it; owners manage every group', async (t) => {
  const s = testServer();
  const id = await newGroup(s, 'hamlets');
  t.same(errorOf(await deactivate(s, id, OTHELLO)), bad('Insufficient permission'));
  t.equal(s.world.groups.get(id)?.deactivated, false);
  t.equal((await deactivate(s, id, DESDEMONA)).status, 200);
});

t.test('a group in use is refused with its objections, and nothing changes', async (t) => {
  const s = testServer();
  const child = await newGroup(s, 'child');
  const parent = await newGroup(s, 'parent', { subgroups: [child] });
  const user = await newGroup(s, 'user', { can_mention_group: child });
  const events = recordEvents(s);
  const reply = await deactivate(s, child);
  t.same(reply.body, {
    result: 'error',
    msg: 'Cannot deactivate user group in use.',
    objections: [
      { type: 'subgroup', supergroup_ids: [parent] },
      { type: 'user_group', group_id: user, settings: ['can_mention_group'] },
    ],
    code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
  });
  t.equal(s.world.groups.get(child)?.deactivated, false);
  t.same(events, []);
  // Once its users are gone (deactivated), the group may go too.
  t.equal((await deactivate(s, user)).status, 200);
  t.equal((await deactivate(s, parent)).status, 200);
  t.equal((await deactivate(s, child)).status, 200);
});

t.test('channel and realm settings using the group (directly or inside an anonymous value) are objections', async (t) => {
  const s = testServer();
  const id = await newGroup(s, 'settings');
  const verona = s.world.streams.get(s.streamId('Verona'));
  verona?.settings.set('can_send_message_group', { kind: 'anonymous', members: new Set([s.id(HAMLET)]), subgroups: new Set([id]) });
  s.world.realm.settings.set('can_create_groups', namedGroup(id));
  const reply = await deactivate(s, id);
  t.same(reply.body.objections, [
    { type: 'channel', channel_id: s.streamId('Verona'), settings: ['can_send_message_group'] },
    { type: 'realm', settings: ['can_create_groups'] },
  ]);
});

t.test('before level 298 a group in use is refused with BAD_REQUEST and no objections', async (t) => {
  const s = testServer({ featureLevel: 297 });
  const child = await newGroup(s, 'child');
  const parent = await newGroup(s, 'parent');
  t.equal((await s.as(HAMLET).post(`/user_groups/${parent}/subgroups`, { add: [child] })).status, 200);
  const reply = await deactivate(s, child);
  t.same(reply.body, { result: 'error', msg: 'Cannot deactivate user group in use.', code: 'BAD_REQUEST' });
});

t.test('the endpoint exists from level 290', async (t) => {
  const old = testServer({ featureLevel: 289 });
  const reply = await old.as(HAMLET).post('/user_groups/create', { name: 'old', description: '', members: [] });
  t.equal(reply.status, 200);
  const id = [...old.world.groups.values()].find((group) => group.name === 'old')?.id as number;
  t.equal((await deactivate(old, id)).status, 404);
  const current = testServer({ featureLevel: 290 });
  const fresh = await newGroup(current, 'fresh');
  t.equal((await deactivate(current, fresh)).status, 200);
});

t.test('clients with include_deactivated_groups get the update event; the others get remove', async (t) => {
  const s = testServer();
  const id = await newGroup(s, 'announced');
  const othello = s.as(OTHELLO);
  const queue = async (capable: boolean) => {
    const reply = await othello.post('/register', { fetch_event_types: [], event_types: ['user_group'], client_capabilities: { include_deactivated_groups: capable } });
    return reply.body.queue_id as string;
  };
  const [capable, plain] = [await queue(true), await queue(false)];
  await deactivate(s, id);
  const events = async (queueId: string) => {
    const reply = await othello.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    return (reply.body.events as Array<Record<string, unknown>>).map(({ id: _id, ...event }) => event);
  };
  t.same(await events(capable), [{ type: 'user_group', op: 'update', group_id: id, data: { deactivated: true } }]);
  t.same(await events(plain), [{ type: 'user_group', op: 'remove', group_id: id }]);
});
