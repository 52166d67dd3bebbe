import t from 'tap';
import { CORDELIA, HAMLET, OTHELLO } from './support/channels.js';
import { testServer, withoutSeededMessages, type TestServer } from './support/harness.js';

async function ok(reply: Promise<{ status: number; text: string; body: { id?: number } }>): Promise<number> {
  const r = await reply;
  if (r.status !== 200) throw new Error(r.text);
  return r.body.id ?? 0;
}

const unread = async (s: TestServer, email: string, params: Record<string, unknown> = {}) =>
  (await s.as(email).post('/register', { fetch_event_types: ['message', 'update_message_flags'], ...params })).body.unread_msgs;

t.test('unread_msgs has the real shape: conversations sorted, topics merged by case, mentions, count and old_unreads_missing', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const hamlet = s.as(HAMLET);
  const a = await ok(hamlet.post('/messages', { type: 'stream', to: 'Verona', topic: 'Lunch', content: 'hi @**Cordelia, Lear\'s daughter**' }));
  const b = await ok(hamlet.post('/messages', { type: 'stream', to: 'Verona', topic: 'lunch', content: 'more' }));
  const dm = await ok(hamlet.post('/messages', { type: 'direct', to: [s.id(CORDELIA)], content: 'dm' }));
  const group = await ok(hamlet.post('/messages', { type: 'direct', to: [s.id(CORDELIA), s.id(OTHELLO)], content: 'group' }));
  t.same(await unread(s, CORDELIA), {
    pms: [{ other_user_id: s.id(HAMLET), sender_id: s.id(HAMLET), unread_message_ids: [dm] }],
    streams: [{ stream_id: s.streamId('Verona'), topic: 'Lunch', unread_message_ids: [a, b] }],
    huddles: [{ user_ids_string: [s.id(CORDELIA), s.id(HAMLET), s.id(OTHELLO)].sort((x, y) => x - y).join(','), unread_message_ids: [group] }],
    mentions: [a],
    count: 4,
    old_unreads_missing: false,
  });
  t.notOk('unread_msgs' in (await s.as(CORDELIA).post('/register', { fetch_event_types: ['message'] })).body, 'needs update_message_flags too');
  t.same((await unread(s, HAMLET)).count, 0, 'the sender read their own messages');
});

t.test('muted channels and topics stay listed but leave count; wildcard mentions there are not mentions', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  await ok(s.as(CORDELIA).post('/user_topics', { stream_id: s.streamId('Verona'), topic: 'quiet', visibility_policy: 1 }));
  const muted = await ok(s.as(HAMLET).post('/messages', { type: 'stream', to: 'Verona', topic: 'quiet', content: '@**all** hello' }));
  const loud = await ok(s.as(HAMLET).post('/messages', { type: 'stream', to: 'Verona', topic: 'loud', content: '@**all** hello' }));
  // This server's Markdown does not render wildcard mentions, so the flag is set as the real server would.
  for (const id of [muted, loud]) s.world.messages.get(id)?.flags.get(s.id(CORDELIA))?.add('stream_wildcard_mentioned');
  const state = await unread(s, CORDELIA);
  t.same(state.streams.map((x: { unread_message_ids: number[] }) => x.unread_message_ids), [[loud], [muted]]);
  t.equal(state.count, 1);
  t.same(state.mentions, [loud]);
  const sub = s.world.subscriptions.get(s.streamId('Verona'))?.get(s.id(CORDELIA));
  if (sub) sub.isMuted = true;
  t.equal((await unread(s, CORDELIA)).count, 0, 'a muted channel');
  await ok(s.as(CORDELIA).post('/user_topics', { stream_id: s.streamId('Verona'), topic: 'loud', visibility_policy: 2 }));
  t.equal((await unread(s, CORDELIA)).count, 1, 'an unmuted topic of a muted channel counts');
});

t.test('older levels: sender_id alone before 119, sender_ids on topics before 90, no old_unreads_missing before 44', async (t) => {
  for (const level of [118, 89, 43]) {
    const s = testServer({ fixture: withoutSeededMessages(), featureLevel: level });
    await ok(s.as(HAMLET).post('/messages', { type: 'stream', to: 'Verona', topic: 'lunch', content: 'x' }));
    await ok(s.as(HAMLET).post('/messages', { type: 'private', to: [s.id(CORDELIA)], content: 'x' }));
    const state = await unread(s, CORDELIA);
    t.same(state.pms[0], { sender_id: s.id(HAMLET), unread_message_ids: [2] }, `pms at ${level}`);
    t.equal('sender_ids' in state.streams[0], level < 90, `sender_ids at ${level}`);
    if (level < 90) t.same(state.streams[0].sender_ids, [s.id(HAMLET)]);
    t.equal('old_unreads_missing' in state, level >= 44, `old_unreads_missing at ${level}`);
  }
});

t.test('the empty topic is "general chat" for clients without empty_topic_name', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  await ok(s.as(HAMLET).post('/messages', { type: 'stream', to: 'Verona', topic: '', content: 'x' }));
  t.equal((await unread(s, CORDELIA)).streams[0].topic, 'general chat');
  t.equal((await unread(s, CORDELIA, { client_capabilities: { empty_topic_name: true } })).streams[0].topic, '');
});
