import t from 'tap';
import { CORDELIA, HAMLET, IAGO, OTHELLO, POLONIUS } from './support/channels.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

async function send(s: TestServer, to = 'Verona', from = HAMLET): Promise<number> {
  const reply = await s.as(from).post('/messages', { type: 'stream', to, topic: 'lunch', content: 'x' });
  if (reply.status !== 200) throw new Error(reply.text);
  return reply.body.id as number;
}

const receipts = (s: TestServer, email: string, id: number) => s.as(email).get(`/messages/${id}/read_receipts`);
const read = (s: TestServer, email: string, id: number) => s.as(email).post('/messages/flags', { messages: [id], op: 'add', flag: 'read' });

t.test('lists the active users who read the message, never the sender, without those who turned receipts off', async (t) => {
  const s = testServer();
  const id = await send(s);
  t.same((await receipts(s, OTHELLO, id)).body, { result: 'success', msg: '', user_ids: [] }, 'the sender is left out');
  await read(s, OTHELLO, id);
  await read(s, CORDELIA, id);
  await read(s, POLONIUS, id);
  t.same((await receipts(s, HAMLET, id)).body.user_ids, [s.id(CORDELIA), s.id(OTHELLO), s.id(POLONIUS)]);
  await s.as(CORDELIA).patch('/settings', { send_read_receipts: false });
  const polonius = s.world.users.get(s.id(POLONIUS));
  if (polonius) polonius.isActive = false;
  t.same((await receipts(s, HAMLET, id)).body.user_ids, [s.id(OTHELLO)]);
  await s.as(OTHELLO).post('/messages/flags', { messages: [id], op: 'remove', flag: 'read' });
  t.same((await receipts(s, HAMLET, id)).body.user_ids, [], 'marking unread takes the receipt back');
});

t.test('needs read access and read receipts on in the realm; exists from level 137', async (t) => {
  const s = testServer();
  const secret = await send(s, 'core team', IAGO);
  t.same(errorOf(await receipts(s, OTHELLO, secret)), bad('Invalid message(s)'));
  t.same(errorOf(await receipts(s, OTHELLO, 999_999)), bad('Invalid message(s)'));
  const id = await send(s);
  s.world.realmProperties.set('enable_read_receipts', false);
  t.same(errorOf(await receipts(s, OTHELLO, id)), bad('Read receipts are disabled in this organization.'));
  t.equal((await s.as(OTHELLO).post('/register', { fetch_event_types: ['realm'] })).body.realm_enable_read_receipts, false);
  t.same(errorOf(await receipts(s, OTHELLO, secret)), bad('Invalid message(s)'), 'access is checked first');
  const old = testServer({ featureLevel: 136 });
  t.equal((await receipts(old, OTHELLO, await send(old))).status, 404);
});

t.test('archived channels answer from level 360', async (t) => {
  for (const [level, ok] of [[415, true], [360, true], [359, false]] as const) {
    const s = testServer({ featureLevel: level });
    const id = await send(s);
    const verona = s.world.streams.get(s.streamId('Verona'));
    if (verona) verona.isArchived = true;
    t.equal((await receipts(s, OTHELLO, id)).status === 200, ok, `level ${level}`);
  }
});

t.test('leaves out readers the requester muted and readers who muted the requester', async (t) => {
  const s = testServer();
  const id = await send(s);
  await read(s, OTHELLO, id);
  await read(s, CORDELIA, id);
  t.same((await receipts(s, IAGO, id)).body.user_ids, [s.id(CORDELIA), s.id(OTHELLO)]);
  t.equal((await s.as(IAGO).post(`/users/me/muted_users/${s.id(OTHELLO)}`)).status, 200);
  t.equal((await s.as(CORDELIA).post(`/users/me/muted_users/${s.id(IAGO)}`)).status, 200);
  t.same((await receipts(s, IAGO, id)).body.user_ids, [], 'othello is muted by iago; cordelia muted iago');
  t.same((await receipts(s, HAMLET, id)).body.user_ids, [s.id(CORDELIA), s.id(OTHELLO)], 'others still see both');
});

t.test('PATCH /realm enable_read_receipts turns them off for everyone', async (t) => {
  const s = testServer();
  const id = await send(s);
  t.equal((await s.as('desdemona@zulip.com').patch('/realm', { enable_read_receipts: false })).status, 200);
  t.same(errorOf(await receipts(s, HAMLET, id)), bad('Read receipts are disabled in this organization.'));
});
