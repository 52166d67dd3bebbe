/**
 * Topic visibility policies follow a moved topic, after the real server's `do_update_message`
 * (zerver/tests/test_message_move_topic.py `test_move_message_update_user_topic_states` /
 * `test_merge_user_topic_states_on_move_messages`; `get_visibility_policy_after_merge`).
 */
import t from 'tap';
import { VISIBILITY_POLICY } from '../lib/entities/personal.js';
import { topicVisibilityPolicy } from '../lib/queries/personal/user-topics.js';
import { ofType, recordEvents } from './support/events.js';
import { testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const IAGO = 'iago@zulip.com';
const { FOLLOWED, MUTED, UNMUTED, NONE } = VISIBILITY_POLICY;

const send = async (s: TestServer, topic: string, to = 'Verona') =>
  (await s.as(IAGO).post('/messages', { type: 'stream', to, topic, content: `in ${topic}` })).body.id as number;
const setPolicy = (s: TestServer, topic: string, policy: number, channel = 'Verona') =>
  s.as(HAMLET).post('/user_topics', { stream_id: s.streamId(channel), topic, visibility_policy: policy });
const policyOf = (s: TestServer, topic: string, channel = 'Verona') => topicVisibilityPolicy(s.world, s.id(HAMLET), s.streamId(channel), topic);

t.test('moving a whole topic moves the user’s policy to the new topic, with events', async (t) => {
  const s = testServer();
  const id = await send(s, 'old place');
  await send(s, 'old place');
  await setPolicy(s, 'old place', FOLLOWED);
  const seen = recordEvents(s);
  t.equal((await s.as(IAGO).patch(`/messages/${id}`, { topic: 'new place', propagate_mode: 'change_all' })).status, 200);
  t.equal(policyOf(s, 'old place'), NONE);
  t.equal(policyOf(s, 'new place'), FOLLOWED);
  const topicEvents = ofType(seen, 'user_topic').filter((e) => e.userIds.includes(s.id(HAMLET))).map((e) => [e.event.topic_name, e.event.visibility_policy]);
  t.same(topicEvents, [['old place', NONE], ['new place', FOLLOWED]]);
  t.equal(ofType(seen, 'muted_topics').filter((e) => e.userIds.includes(s.id(HAMLET))).length, 1, 'the removal skips its muted_topics event; the new policy sends one');
});

t.test('moving part of a topic leaves the policies where they are', async (t) => {
  const s = testServer();
  const first = await send(s, 'split');
  await send(s, 'split');
  await setPolicy(s, 'split', MUTED);
  await s.as(IAGO).patch(`/messages/${first}`, { topic: 'elsewhere', propagate_mode: 'change_one' });
  t.equal(policyOf(s, 'split'), MUTED);
  t.equal(policyOf(s, 'elsewhere'), NONE);
});

t.test('merging into a topic with messages keeps the more visible policy', async (t) => {
  const cases: Array<[number, number, number]> = [
    [FOLLOWED, MUTED, FOLLOWED],
    [MUTED, UNMUTED, UNMUTED],
    [MUTED, NONE, NONE],
    [MUTED, MUTED, MUTED],
    [NONE, FOLLOWED, FOLLOWED],
  ];
  for (const [from, to, expected] of cases) {
    const s = testServer();
    const id = await send(s, 'source');
    await send(s, 'target');
    if (from !== NONE) await setPolicy(s, 'source', from);
    if (to !== NONE) await setPolicy(s, 'target', to);
    await s.as(IAGO).patch(`/messages/${id}`, { topic: 'target', propagate_mode: 'change_all' });
    t.equal(policyOf(s, 'target'), expected, `${from} into ${to}`);
    t.equal(policyOf(s, 'source'), NONE);
  }
});

t.test('a topic moved into a new topic takes the source policy even over a leftover row there', async (t) => {
  const s = testServer();
  const id = await send(s, 'source');
  await setPolicy(s, 'source', MUTED);
  await setPolicy(s, 'fresh', FOLLOWED);
  await s.as(IAGO).patch(`/messages/${id}`, { topic: 'fresh', propagate_mode: 'change_all' });
  t.equal(policyOf(s, 'fresh'), MUTED, 'no messages were there, so no merge');
});

t.test('a user who cannot read the moved messages loses the policy; one who can keeps it', async (t) => {
  const s = testServer();
  t.equal((await s.as(IAGO).post('/users/me/subscriptions', { subscriptions: [{ name: 'iago only' }], invite_only: true })).status, 200);
  const id = await send(s, 'secretive');
  await setPolicy(s, 'secretive', FOLLOWED);
  await s.as('othello@zulip.com').post('/user_topics', { stream_id: s.streamId('Verona'), topic: 'secretive', visibility_policy: MUTED });
  t.equal((await s.as(IAGO).patch(`/messages/${id}`, { stream_id: s.streamId('iago only'), propagate_mode: 'change_all' })).status, 200);
  t.equal(policyOf(s, 'secretive'), NONE);
  t.equal(policyOf(s, 'secretive', 'iago only'), NONE, 'no row in a channel hamlet cannot read');
  const iagoSees = topicVisibilityPolicy(s.world, s.id('othello@zulip.com'), s.streamId('iago only'), 'secretive');
  t.equal(iagoSees, NONE, 'othello is not subscribed either');
});

t.test('a topic moved to another public channel keeps its policy there', async (t) => {
  const s = testServer();
  const id = await send(s, 'travelling');
  await setPolicy(s, 'travelling', UNMUTED);
  t.equal((await s.as(IAGO).patch(`/messages/${id}`, { stream_id: s.streamId('Denmark'), propagate_mode: 'change_all' })).status, 200);
  t.equal(policyOf(s, 'travelling'), NONE);
  t.equal(policyOf(s, 'travelling', 'Denmark'), UNMUTED);
});
