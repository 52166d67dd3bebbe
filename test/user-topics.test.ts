import t from 'tap';
import { mutedTopicsState, userTopicsState } from '../lib/queries/personal/user-topics.js';
import { recordEvents } from './support/events.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';

const hamletOf = (s: TestServer) => {
  const user = s.world.users.get(s.id(HAMLET));
  if (!user) throw new Error('no hamlet');
  return user;
};
const set = (s: TestServer, stream_id: number, topic: string, visibility_policy: number, email = HAMLET) =>
  s.as(email).post('/user_topics', { stream_id, topic, visibility_policy });

t.test('muting a topic stores it and sends muted_topics then user_topic to the user only', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  const verona = s.streamId('Verona');
  const reply = await set(s, verona, 'Verona3', 1);
  t.same(reply.body, { result: 'success', msg: '' });
  const now = Math.floor(s.clock.now() / 1000);
  t.same(
    events.map((e) => [e.event, e.userIds]),
    [
      [{ type: 'muted_topics', muted_topics: [['Verona', 'Verona3', now]] }, [s.id(HAMLET)]],
      [{ type: 'user_topic', stream_id: verona, topic_name: 'Verona3', last_updated: now, visibility_policy: 1 }, [s.id(HAMLET)]],
    ],
  );
  t.same(userTopicsState(s.world, hamletOf(s)), [{ stream_id: verona, topic_name: 'Verona3', visibility_policy: 1, last_updated: now }]);
});

t.test('topics match case-insensitively and keep their first spelling', async (t) => {
  const s = testServer();
  const verona = s.streamId('Verona');
  await set(s, verona, 'Verona3', 1);
  const events = recordEvents(s);
  s.clock.advance(10_000);
  await set(s, verona, 'VERONA3', 3);
  const now = Math.floor(s.clock.now() / 1000);
  t.same(userTopicsState(s.world, hamletOf(s)), [{ stream_id: verona, topic_name: 'Verona3', visibility_policy: 3, last_updated: now }]);
  // The event names the topic as the request spelled it.
  t.same(events[1]?.event, { type: 'user_topic', stream_id: verona, topic_name: 'VERONA3', last_updated: now, visibility_policy: 3 });
  t.same(events[0]?.event, { type: 'muted_topics', muted_topics: [] });
  await set(s, verona, 'verona3', 0);
  t.same(userTopicsState(s.world, hamletOf(s)), []);
});

t.test('setting the current policy or removing a missing one succeeds without events', async (t) => {
  const s = testServer();
  const verona = s.streamId('Verona');
  await set(s, verona, 'topic', 2);
  const before = structuredClone(userTopicsState(s.world, hamletOf(s)));
  const events = recordEvents(s);
  s.clock.advance(60_000);
  t.equal((await set(s, verona, 'TOPIC', 2)).status, 200);
  t.equal((await set(s, verona, 'other', 0)).status, 200);
  t.equal(events.length, 0);
  t.same(userTopicsState(s.world, hamletOf(s)), before);
});

t.test('parameters: required, topic at most 60 code points and not stripped, policy in 0..3', async (t) => {
  const s = testServer();
  const verona = s.streamId('Verona');
  const hamlet = s.as(HAMLET);
  t.same(errorOf(await hamlet.post('/user_topics', { topic: 'x', visibility_policy: 1 })), {
    status: 400,
    code: 'REQUEST_VARIABLE_MISSING',
    msg: "Missing 'stream_id' argument",
  });
  t.same(errorOf(await hamlet.post('/user_topics', { stream_id: verona, visibility_policy: 1 })), {
    status: 400,
    code: 'REQUEST_VARIABLE_MISSING',
    msg: "Missing 'topic' argument",
  });
  t.same(errorOf(await set(s, verona, 'x'.repeat(61), 1)), bad('topic is too long (limit: 60 characters)'));
  t.equal((await set(s, verona, '😎'.repeat(60), 1)).status, 200);
  t.same(errorOf(await set(s, verona, 'x', 4)), bad('Invalid visibility_policy: Value error, Not in the list of possible values'));
  t.same(errorOf(await hamlet.post('/user_topics', { stream_id: verona, topic: 'x', visibility_policy: 'abc' })), bad('visibility_policy is not valid JSON'));
  t.same(errorOf(await hamlet.post('/user_topics', { stream_id: '"3"', topic: 'x', visibility_policy: 1 })), bad('stream_id is not an integer'));
  await set(s, verona, '  padded  ', 1);
  t.same(mutedTopicsState(s.world, hamletOf(s)).map((row) => row[1]), ['😎'.repeat(60), '  padded  ']);
});

t.test('followed (3) is accepted from level 219 only', async (t) => {
  const old = testServer({ featureLevel: 218 });
  t.same(errorOf(await set(old, old.streamId('Verona'), 'x', 3)), bad('Invalid visibility_policy: Value error, Not in the list of possible values'));
  t.equal((await set(old, old.streamId('Verona'), 'x', 2)).status, 200);
  const current = testServer({ featureLevel: 219 });
  t.equal((await set(current, current.streamId('Verona'), 'x', 3)).status, 200);
});

t.test('the endpoint exists from level 170', async (t) => {
  const old = testServer({ featureLevel: 169 });
  t.equal((await set(old, old.streamId('Verona'), 'x', 1)).status, 404);
  const current = testServer({ featureLevel: 170 });
  t.equal((await set(current, current.streamId('Verona'), 'x', 1)).status, 200);
});

t.test('setting a policy needs content access to an active channel', async (t) => {
  const s = testServer();
  const invalid = bad('Invalid channel ID');
  t.same(errorOf(await set(s, 999999, 'x', 1)), invalid);
  t.same(errorOf(await set(s, s.streamId('core team'), 'x', 1, 'othello@zulip.com')), invalid);
  t.same(errorOf(await set(s, s.streamId('Denmark'), 'x', 1, 'polonius@zulip.com')), invalid);
  t.equal((await set(s, s.streamId('core team'), 'x', 1)).status, 200);
  const denmark = s.world.streams.get(s.streamId('Denmark'));
  if (denmark) denmark.isArchived = true;
  t.same(errorOf(await set(s, s.streamId('Denmark'), 'x', 1)), invalid);
  t.equal(s.world.userTopics.get(s.id('othello@zulip.com'))?.size ?? 0, 0);
});

t.test('removing a policy only needs the channel to exist', async (t) => {
  const s = testServer();
  const denmark = s.streamId('Denmark');
  await set(s, denmark, 'muted here', 1);
  const stream = s.world.streams.get(denmark);
  if (stream) stream.isArchived = true;
  // Archived channels drop out of the lists but the row is still there to remove.
  t.same(userTopicsState(s.world, hamletOf(s)), []);
  const events = recordEvents(s);
  t.equal((await set(s, denmark, 'MUTED HERE', 0)).status, 200);
  t.equal(events.length, 2);
  t.equal(s.world.userTopics.get(s.id(HAMLET))?.size, 0);
  t.equal((await set(s, s.streamId('core team'), 'x', 0, 'othello@zulip.com')).status, 200);
  t.same(errorOf(await set(s, 999999, 'x', 0)), bad('Invalid channel ID'));
});

t.test('the empty-topic display name means the empty topic from level 334', async (t) => {
  const s = testServer();
  const verona = s.streamId('Verona');
  const events = recordEvents(s);
  await set(s, verona, 'general chat', 1);
  t.same(userTopicsState(s.world, hamletOf(s)).map((row) => row.topic_name), ['']);
  t.equal(events[1]?.event.topic_name, '');
  await set(s, verona, '', 0);
  t.same(userTopicsState(s.world, hamletOf(s)), []);
  const old = testServer({ featureLevel: 333 });
  await set(old, old.streamId('Verona'), 'general chat', 1);
  t.same(userTopicsState(old.world, hamletOf(old)).map((row) => row.topic_name), ['general chat']);
});

t.test('muted_topics lists only muted topics; user_topics lists every policy', async (t) => {
  const s = testServer();
  await set(s, s.streamId('Verona'), 'a', 1);
  await set(s, s.streamId('Verona'), 'b', 2);
  await set(s, s.streamId('Denmark'), 'c', 3);
  await set(s, s.streamId('Denmark'), 'd', 1);
  const now = Math.floor(s.clock.now() / 1000);
  t.same(mutedTopicsState(s.world, hamletOf(s)), [['Verona', 'a', now], ['Denmark', 'd', now]]);
  t.same(userTopicsState(s.world, hamletOf(s)).map((row) => [row.topic_name, row.visibility_policy]), [['a', 1], ['b', 2], ['c', 3], ['d', 1]]);
});
