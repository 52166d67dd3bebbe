import t from 'tap';
import { recordEvents } from './support/events.js';
import { errorOf, testServer, type TestServer } from './support/harness.js';

const OTHELLO = 'othello@zulip.com';

async function send(s: TestServer, topic: string, to = 'Verona'): Promise<number> {
  const reply = await s.as('hamlet@zulip.com').post('/messages', { type: 'stream', to, topic, content: 'x' });
  if (reply.status !== 200) throw new Error(`send failed: ${reply.text}`);
  return reply.body.id as number;
}

const isRead = (s: TestServer, id: number, userId = 12): boolean => s.world.messages.get(id)?.flags.get(userId)?.has('read') === true;

t.test('marks the user\'s messages of the topic read and tells only that user', async (t) => {
  const s = testServer();
  const a = await send(s, 'lunch');
  const b = await send(s, 'Lunch');
  const other = await send(s, 'dinner');
  const events = recordEvents(s);
  const reply = await s.as(OTHELLO).post('/mark_topic_as_read', { stream_id: s.streamId('Verona'), topic_name: 'lunch' });
  t.same(reply.body, { result: 'success', msg: '' });
  t.ok(isRead(s, a) && isRead(s, b), 'topic names match case-insensitively');
  t.notOk(isRead(s, other));
  t.notOk(isRead(s, a, 8), 'other users keep their unread messages');
  t.same(events, [
    { event: { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [a, b], all: false }, userIds: [12] },
  ]);
});

t.test('sends no event when nothing changes', async (t) => {
  const s = testServer();
  await send(s, 'lunch');
  const params = { stream_id: s.streamId('Verona'), topic_name: 'lunch' };
  await s.as(OTHELLO).post('/mark_topic_as_read', params);
  const events = recordEvents(s);
  t.equal((await s.as(OTHELLO).post('/mark_topic_as_read', params)).status, 200);
  t.same(events, []);
});

t.test('a topic without messages of the user is "No such topic"', async (t) => {
  const s = testServer();
  await send(s, 'lunch');
  t.same(errorOf(await s.as(OTHELLO).post('/mark_topic_as_read', { stream_id: s.streamId('Verona'), topic_name: 'abc' })), {
    status: 400,
    code: 'BAD_REQUEST',
    msg: "No such topic 'abc'",
  });
});

t.test('the channel needs content access and must be active', async (t) => {
  const s = testServer();
  const invalid = { status: 400, code: 'BAD_REQUEST', msg: 'Invalid channel ID' };
  t.same(errorOf(await s.as(OTHELLO).post('/mark_topic_as_read', { stream_id: 12345678, topic_name: 'x' })), invalid);
  t.same(errorOf(await s.as(OTHELLO).post('/mark_topic_as_read', { stream_id: s.streamId('core team'), topic_name: 'x' })), invalid);
  const id = await send(s, 'lunch');
  const verona = s.world.streams.get(s.streamId('Verona'));
  if (verona) verona.isArchived = true;
  t.same(errorOf(await s.as(OTHELLO).post('/mark_topic_as_read', { stream_id: s.streamId('Verona'), topic_name: 'lunch' })), invalid);
  t.notOk(isRead(s, id));
});

t.test('the empty-topic display name means the empty topic from level 334', async (t) => {
  const s = testServer();
  const empty = await send(s, '');
  const named = await send(s, 'named');
  await s.as(OTHELLO).post('/mark_topic_as_read', { stream_id: s.streamId('Verona'), topic_name: 'general chat' });
  t.ok(isRead(s, empty));
  t.notOk(isRead(s, named), 'only the empty topic');
  const old = testServer({ featureLevel: 333 });
  const literal = await send(old, 'general chat');
  await old.as(OTHELLO).post('/mark_topic_as_read', { stream_id: old.streamId('Verona'), topic_name: 'general chat' });
  t.ok(isRead(old, literal), 'below 334 it is an ordinary name');
});

t.test('both parameters are required, topic_name first', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(OTHELLO).post('/mark_topic_as_read', {})), {
    status: 400,
    code: 'REQUEST_VARIABLE_MISSING',
    msg: "Missing 'topic_name' argument",
  });
  t.same(errorOf(await s.as(OTHELLO).post('/mark_topic_as_read', { topic_name: 'x' })), {
    status: 400,
    code: 'REQUEST_VARIABLE_MISSING',
    msg: "Missing 'stream_id' argument",
  });
  t.same(errorOf(await s.as(OTHELLO).post('/mark_topic_as_read', { topic_name: 'x', stream_id: '"3"' })), {
    status: 400,
    code: 'BAD_REQUEST',
    msg: 'stream_id is not an integer',
  });
});
