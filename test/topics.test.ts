import t from 'tap';
import { CORDELIA, HAMLET, IAGO, ofType, OTHELLO, POLONIUS, recordEvents, SHIVA, DESDEMONA } from './support/channels.js';
import { bad, errorOf, testServer, withoutSeededMessages, type TestServer } from './support/harness.js';

async function send(s: TestServer, topic: string, to = 'Verona', from = HAMLET): Promise<number> {
  const reply = await s.as(from).post('/messages', { type: 'stream', to, topic, content: 'x' });
  if (reply.status !== 200) throw new Error(reply.text);
  return reply.body.id as number;
}

const topics = (s: TestServer, email: string, channel: string, params: Record<string, unknown> = {}) =>
  s.as(email).get(`/users/me/${s.streamId(channel)}/topics`, params);

t.test('topics come most recent first, case variants merged under the latest name, with their latest message ID', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  await send(s, 'lunch');
  const dinner = await send(s, 'dinner');
  const lunch = await send(s, 'Lunch');
  t.same((await topics(s, OTHELLO, 'Verona')).body, {
    result: 'success',
    msg: '',
    topics: [
      { name: 'Lunch', max_id: lunch },
      { name: 'dinner', max_id: dinner },
    ],
  });
  t.same((await topics(s, OTHELLO, 'Denmark')).body.topics, [], 'a channel without messages');
});

t.test('the empty topic is "general chat" unless allow_empty_topic_name, a parameter from level 334', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const id = await send(s, '');
  t.same((await topics(s, OTHELLO, 'Verona')).body.topics, [{ name: 'general chat', max_id: id }]);
  t.same((await topics(s, OTHELLO, 'Verona', { allow_empty_topic_name: true })).body.topics, [{ name: '', max_id: id }]);
  t.same(errorOf(await topics(s, OTHELLO, 'Verona', { allow_empty_topic_name: 'yes' })), bad('allow_empty_topic_name is not valid JSON'));
  const old = testServer({ fixture: withoutSeededMessages(), featureLevel: 333 });
  await send(old, 'lunch');
  t.same((await topics(old, OTHELLO, 'Verona', { allow_empty_topic_name: true })).body.ignored_parameters_unsupported, ['allow_empty_topic_name']);
});

t.test('only channels with content access; with protected history only topics the user received', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const core = s.world.streams.get(s.streamId('core team'));
  if (core) core.historyPublicToSubscribers = false;
  await send(s, 'before', 'core team', IAGO);
  await s.as(IAGO).post('/users/me/subscriptions', { subscriptions: [{ name: 'core team' }], principals: [s.id(CORDELIA)] });
  const after = await send(s, 'after', 'core team', IAGO);
  t.same((await topics(s, CORDELIA, 'core team')).body.topics, [{ name: 'after', max_id: after }]);
  const invalid = bad('Invalid channel ID');
  t.same(errorOf(await topics(s, OTHELLO, 'core team')), invalid, 'a private channel the user is not in');
  t.same(errorOf(await topics(s, POLONIUS, 'Denmark')), invalid, 'a guest outside a public channel');
  t.same(errorOf(await s.as(OTHELLO).get('/users/me/999999/topics')), invalid);
});

t.test('administrators delete a topic (any case, general chat for the empty one): delete_message events and complete', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const a = await send(s, 'lunch');
  const b = await send(s, 'LUNCH', 'Verona', OTHELLO);
  const kept = await send(s, 'dinner');
  const empty = await send(s, '');
  const events = recordEvents(s);
  const reply = await s.as(IAGO).post(`/streams/${s.streamId('Verona')}/delete_topic`, { topic_name: 'Lunch' });
  t.same(reply.body, { result: 'success', msg: '', complete: true });
  t.notOk(s.world.messages.has(a) || s.world.messages.has(b));
  t.ok(s.world.messages.has(kept));
  t.same(ofType(events, 'delete_message').map((e) => e.event), [
    { type: 'delete_message', message_ids: [a, b], stream_id: s.streamId('Verona'), topic: 'lunch', message_type: 'stream' },
  ]);
  await s.as(DESDEMONA).post(`/streams/${s.streamId('Verona')}/delete_topic`, { topic_name: 'general chat' });
  t.notOk(s.world.messages.has(empty), 'owners too; the display name means the empty topic');
  const old = testServer({ fixture: withoutSeededMessages(), featureLevel: 210 });
  await send(old, 'lunch');
  t.same((await old.as(IAGO).post(`/streams/${old.streamId('Verona')}/delete_topic`, { topic_name: 'lunch' })).body, { result: 'success', msg: '' });
});

t.test('deleting a topic is for administrators only, checked before the parameters', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const id = await send(s, 'lunch');
  const path = `/streams/${s.streamId('Verona')}/delete_topic`;
  for (const email of [SHIVA, HAMLET, POLONIUS]) {
    t.same(errorOf(await s.as(email).post(path, { topic_name: 'lunch' })), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' }, email);
    t.same(errorOf(await s.as(email).post(path, {})), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
  }
  t.ok(s.world.messages.has(id));
  t.same(errorOf(await s.as(IAGO).post(path, {})), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'topic_name' argument" });
  t.same(errorOf(await s.as(IAGO).post('/streams/999999/delete_topic', { topic_name: 'lunch' })), bad('Invalid channel ID'));
});

t.test('deleting a topic clears its visibility policies, and a topic without messages is complete too', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  await send(s, 'noise');
  await s.as(OTHELLO).post('/user_topics', { stream_id: s.streamId('Verona'), topic: 'Noise', visibility_policy: 1 });
  const events = recordEvents(s);
  t.equal((await s.as(IAGO).post(`/streams/${s.streamId('Verona')}/delete_topic`, { topic_name: 'noise' })).status, 200);
  // The sender followed the topic by starting it (automatically_follow_topics_policy).
  t.same(ofType(events, 'user_topic').map((e) => [e.userIds, e.event.visibility_policy]), [[[s.id(HAMLET)], 0], [[s.id(OTHELLO)], 0]]);
  t.equal((await s.as(IAGO).post(`/streams/${s.streamId('Verona')}/delete_topic`, { topic_name: 'nothing here' })).body.complete, true);
});
