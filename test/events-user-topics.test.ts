import t from 'tap';
import { checkEventsConverge } from './support/apply-events.js';
import { checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const LEGACY = { client_capabilities: { notification_settings_null: true, user_settings_object: true } };

const setPolicy = (s: ReturnType<typeof testServer>, topic: string, policy: number) =>
  s.as(HAMLET).post('/user_topics', { stream_id: s.streamId('Verona'), topic, visibility_policy: policy });

t.test('user_topic: the user alone gets both events; a client asking for user_topic gets only user_topic and converges', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  const events = await checkEventsConverge(t, s.as(HAMLET), {
    fetchEventTypes: ['user_topic', 'muted_topics'],
    action: () => setPolicy(s, 'lunch', 3),
  });
  checkEventShapes(t, events);
  t.same(
    events.map(({ id: _id, ...e }) => e),
    [{ type: 'user_topic', stream_id: s.streamId('Verona'), topic_name: 'lunch', last_updated: Math.floor(s.clock.now() / 1000), visibility_policy: 3 }],
  );
  const received = everyone.received();
  checkRecipients(t, received, isEvent('user_topic'), [s.id(HAMLET)], 'user_topic');
  checkRecipients(t, received, isEvent('muted_topics'), [s.id(HAMLET)], 'muted_topics');
  t.same(
    received.get(s.id(HAMLET))?.map((e) => e.type),
    ['muted_topics', 'user_topic'],
    'the legacy list comes first',
  );
});

t.test('user_topic: changing and removing a policy converge, matching the topic case-insensitively', async (t) => {
  const s = testServer();
  await setPolicy(s, 'Lunch', 1);
  s.clock.advance(5_000);
  await checkEventsConverge(t, s.as(HAMLET), { fetchEventTypes: ['user_topic'], action: () => setPolicy(s, 'LUNCH', 2) });
  const removed = await checkEventsConverge(t, s.as(HAMLET), { fetchEventTypes: ['user_topic'], action: () => setPolicy(s, 'lunch', 0) });
  checkEventShapes(t, removed);
  t.match(removed, [{ type: 'user_topic', topic_name: 'lunch', visibility_policy: 0 }]);
});

t.test('muted_topics: a legacy client gets the whole muted list and converges', async (t) => {
  const s = testServer();
  await setPolicy(s, 'old', 1);
  const events = await checkEventsConverge(t, s.as(HAMLET), { fetchEventTypes: ['muted_topics'], action: () => setPolicy(s, 'new', 1) });
  checkEventShapes(t, events);
  t.same(
    events.map(({ id: _id, ...e }) => e),
    [
      {
        type: 'muted_topics',
        muted_topics: [
          ['Verona', 'old', Math.floor(s.clock.now() / 1000)],
          ['Verona', 'new', Math.floor(s.clock.now() / 1000)],
        ],
      },
    ],
  );
});

t.test('the empty topic: "general chat" for clients without empty_topic_name in user_topic, raw in muted_topics, and both converge', async (t) => {
  const s = testServer();
  const modern = await checkEventsConverge(t, s.as(HAMLET), { fetchEventTypes: ['user_topic'], registerParams: LEGACY, action: () => setPolicy(s, '', 1) });
  t.match(modern, [{ type: 'user_topic', topic_name: 'general chat' }]);
  await setPolicy(s, '', 0);
  const legacy = await checkEventsConverge(t, s.as(HAMLET), { fetchEventTypes: ['muted_topics'], registerParams: LEGACY, action: () => setPolicy(s, '', 1) });
  t.same(legacy[0]?.muted_topics, [['Verona', '', Math.floor(s.clock.now() / 1000)]], 'the real server never renames muted_topics entries');
  const capable = await checkEventsConverge(t, s.as(HAMLET), { fetchEventTypes: ['user_topic'], action: () => setPolicy(s, '', 2) });
  t.match(capable, [{ type: 'user_topic', topic_name: '', visibility_policy: 2 }]);
});

t.test('setting the policy a topic already has sends no event', async (t) => {
  const s = testServer();
  await setPolicy(s, 'lunch', 1);
  const everyone = listenAll(s);
  const events = await checkEventsConverge(t, s.as(HAMLET), { fetchEventTypes: ['user_topic'], expectEvents: false, action: () => setPolicy(s, 'lunch', 1) });
  t.same(events, []);
  t.same([...everyone.received().keys()], []);
});
