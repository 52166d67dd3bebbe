/**
 * Topics followed or unmuted automatically when users take part in them, after the real server
 * (zerver/tests/test_message_send.py `test_automatically_follow_topic_based_on_policies`,
 * `test_automatically_unmute_topic_in_muted_stream_based_on_policies`,
 * `test_automatically_follow_topic_where_mentioned`; zerver/tests/test_reactions.py
 * `test_add_reaction_participation_follow`).
 */
import t from 'tap';
import { VISIBILITY_POLICY } from '../lib/entities/personal.js';
import { topicVisibilityPolicy } from '../lib/queries/personal/user-topics.js';
import { ofType, recordEvents } from './support/events.js';
import { testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const OTHELLO = 'othello@zulip.com';
const { FOLLOWED, UNMUTED, NONE, MUTED } = VISIBILITY_POLICY;
const ON_PARTICIPATION = 1;
const ON_SEND = 2;
const NEVER = 4;

const send = (s: TestServer, as: string, topic: string, content = 'hello') => s.as(as).post('/messages', { type: 'stream', to: 'Verona', topic, content });
const policyOf = (s: TestServer, email: string, topic: string) => topicVisibilityPolicy(s.world, s.id(email), s.streamId('Verona'), topic);
const setting = (s: TestServer, email: string, params: Record<string, unknown>) => s.as(email).patch('/settings', params);

t.test('by default starting a topic follows it, with user_topic before the message event and the policy in the response', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  const reply = await send(s, HAMLET, 'brand new topic');
  t.same(reply.body.automatic_new_visibility_policy, FOLLOWED);
  t.equal(policyOf(s, HAMLET, 'brand new topic'), FOLLOWED);
  const hamletEvents = seen.filter((e) => e.userIds.includes(s.id(HAMLET))).map((e) => e.event.type);
  t.ok(hamletEvents.indexOf('user_topic') < hamletEvents.indexOf('message'), 'the policy changes before the message is delivered');
  const again = await send(s, OTHELLO, 'brand new topic');
  t.notOk('automatic_new_visibility_policy' in again.body, 'a reply is not an initiation');
  t.equal(policyOf(s, OTHELLO, 'brand new topic'), NONE);
  t.equal(ofType(seen, 'user_topic').length, 1);
});

t.test('ON_SEND follows on any message; NEVER changes nothing', async (t) => {
  const s = testServer();
  await send(s, HAMLET, 'chatter');
  await setting(s, OTHELLO, { automatically_follow_topics_policy: ON_SEND });
  t.same((await send(s, OTHELLO, 'chatter')).body.automatic_new_visibility_policy, FOLLOWED);
  await setting(s, HAMLET, { automatically_follow_topics_policy: NEVER, automatically_unmute_topics_in_muted_streams_policy: NEVER });
  t.notOk('automatic_new_visibility_policy' in (await send(s, HAMLET, 'another new one')).body);
  t.equal(policyOf(s, HAMLET, 'another new one'), NONE);
});

t.test('in a muted channel, sending unmutes the topic (the unmute policy defaults to ON_SEND)', async (t) => {
  const s = testServer();
  await send(s, HAMLET, 'muted talk');
  await s.as(OTHELLO).post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: s.streamId('Verona'), property: 'is_muted', value: true }] });
  const reply = await send(s, OTHELLO, 'muted talk');
  t.same(reply.body.automatic_new_visibility_policy, UNMUTED);
  t.equal(policyOf(s, OTHELLO, 'muted talk'), UNMUTED);
  t.notOk('automatic_new_visibility_policy' in (await send(s, OTHELLO, 'muted talk')).body, 'no change the second time');
});

t.test('a mention follows the topic for the mentioned user unless they muted it or turned the setting off', async (t) => {
  const s = testServer();
  await send(s, HAMLET, 'mentions');
  await s.as('cordelia@zulip.com').post('/user_topics', { stream_id: s.streamId('Verona'), topic: 'mentions', visibility_policy: MUTED });
  await setting(s, 'prospero@zulip.com', { automatically_follow_topics_where_mentioned: false });
  await send(s, HAMLET, 'mentions', '@**Othello, the Moor of Venice** @**Cordelia, Lear\'s daughter** @**Prospero from The Tempest** @_**Iago**');
  t.equal(policyOf(s, OTHELLO, 'mentions'), FOLLOWED);
  t.equal(policyOf(s, 'cordelia@zulip.com', 'mentions'), MUTED, 'muting wins');
  t.equal(policyOf(s, 'prospero@zulip.com', 'mentions'), NONE, 'the setting is off');
  t.equal(policyOf(s, 'iago@zulip.com', 'mentions'), NONE, 'silent mentions do not count');
});

t.test('reacting follows the topic only under ON_PARTICIPATION', async (t) => {
  const s = testServer();
  const id = (await send(s, HAMLET, 'reactions')).body.id as number;
  await s.as(OTHELLO).post(`/messages/${id}/reactions`, { emoji_name: 'smile' });
  t.equal(policyOf(s, OTHELLO, 'reactions'), NONE, 'the default (ON_INITIATION) ignores reactions');
  await setting(s, OTHELLO, { automatically_follow_topics_policy: ON_PARTICIPATION });
  await s.as(OTHELLO).post(`/messages/${id}/reactions`, { emoji_name: 'tada' });
  t.equal(policyOf(s, OTHELLO, 'reactions'), FOLLOWED);
});

t.test('below level 214 nothing is followed automatically', async (t) => {
  const s = testServer({ featureLevel: 213 });
  const reply = await send(s, HAMLET, 'old server');
  t.same(reply.body, { result: 'success', msg: '', id: reply.body.id });
  t.equal(policyOf(s, HAMLET, 'old server'), NONE);
});
