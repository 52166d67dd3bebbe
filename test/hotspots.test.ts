/**
 * The old web tutorial below level 233, after the real server's zerver/tests/test_hotspots.py
 * (TestGetNextHotspots, TestHotspots) and test_tutorial.py's test_tutorial_status.
 */
import t from 'tap';
import { restoreWorld, SnapshotError, snapshotWorld } from '../lib/state/world-snapshot.js';
import { HAMLET, IAGO, OTHELLO } from './support/channels.js';
import { ofType, recordEvents } from './support/events.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const HOTSPOTS = '/users/me/hotspots';
const TUTORIAL = '/users/me/tutorial_status';
const LAST_HOTSPOT_LEVEL = 232;

const hotspotsOf = async (s: TestServer, email: string) => (await s.as(email).post('/register', { fetch_event_types: ['hotspots'] })).body;
const namesOf = async (s: TestServer, email: string): Promise<string[]> =>
  ((await hotspotsOf(s, email)).hotspots as Array<{ name: string }>).map((hotspot) => hotspot.name);

/** A user created through the API, whose tutorial waits to start (do_create_user). */
async function newcomer(s: TestServer): Promise<string> {
  const created = await s.as(IAGO).post('/users', { email: 'newcomer@zulip.com', password: 'pw-newcomer-1', full_name: 'Newcomer' });
  if (created.status !== 200) throw new Error(created.text);
  return s.world.users.get(s.id('newcomer@zulip.com'))!.deliveryEmail;
}

t.test('a new user is shown the first intro hotspot alone, with its text, a half-second delay and has_trigger false (test_first_hotspot)', async (t) => {
  const s = testServer({ featureLevel: LAST_HOTSPOT_LEVEL });
  const user = await newcomer(s);
  const state = await hotspotsOf(s, user);
  t.same(state.hotspots, [
    {
      name: 'intro_streams',
      title: 'Catch up on a stream',
      description: 'Messages sent to a stream are seen by everyone subscribed to that stream. Try clicking on one of the stream links below.',
      delay: 0.5,
      has_trigger: false,
    },
  ]);
  const before = await hotspotsOf(testServer({ featureLevel: 229 }), HAMLET);
  t.same(before.hotspots, [], 'fixture users were created with the tutorial finished');
  const s229 = testServer({ featureLevel: 229 });
  t.notOk('has_trigger' in (await hotspotsOf(s229, await newcomer(s229))).hotspots[0], 'has_trigger arrived at level 230');
});

t.test('the next hotspot is the first intro one not seen, whatever order they were marked in (test_some_done_some_not)', async (t) => {
  const s = testServer({ featureLevel: LAST_HOTSPOT_LEVEL });
  const user = await newcomer(s);
  const seen = recordEvents(s);
  for (const hotspot of ['intro_streams', 'intro_compose']) t.equal((await s.as(user).post(HOTSPOTS, { hotspot })).status, 200);
  t.same(await namesOf(s, user), ['intro_topics']);
  const events = ofType(seen, 'hotspots');
  t.same(events.map((e) => e.userIds), [[s.id(user)], [s.id(user)]], 'each marking notifies the user alone');
  t.same(events.map((e) => (e.event.hotspots as Array<{ name: string }>).map((h) => h.name)), [['intro_topics'], ['intro_topics']]);
});

t.test('once every intro hotspot is seen none is shown, and starting the tutorial again does not bring them back (test_all_intro_hotspots_done)', async (t) => {
  const s = testServer({ featureLevel: LAST_HOTSPOT_LEVEL });
  const user = await newcomer(s);
  const seen = recordEvents(s);
  for (const hotspot of ['intro_streams', 'intro_topics', 'intro_gear', 'intro_compose']) await s.as(user).post(HOTSPOTS, { hotspot });
  t.same(ofType(seen, 'hotspots').at(-1)?.event, { type: 'hotspots', hotspots: [] });
  t.same(await namesOf(s, user), []);
  t.equal((await s.as(user).post(TUTORIAL, { status: 'started' })).status, 200);
  t.same(await namesOf(s, user), []);
});

t.test('the tutorial status hides and restores the intro hotspots; unknown values succeed and change nothing (test_tutorial_status)', async (t) => {
  const s = testServer({ featureLevel: LAST_HOTSPOT_LEVEL });
  const user = await newcomer(s);
  const seen = recordEvents(s);
  t.equal((await s.as(user).post(TUTORIAL, { status: 'finished' })).status, 200);
  t.equal(s.world.tutorialStatus.get(s.id(user)), 'finished');
  t.same(await namesOf(s, user), []);
  t.equal((await s.as(user).post(TUTORIAL, { status: 'paused' })).status, 200);
  t.equal(s.world.tutorialStatus.get(s.id(user)), 'finished', 'an unknown status is ignored');
  t.equal((await s.as(user).post(TUTORIAL, { status: 'started' })).status, 200);
  t.same(await namesOf(s, user), ['intro_streams']);
  t.equal((await s.as(HAMLET).post(TUTORIAL, { status: 'started' })).status, 200);
  t.same(await namesOf(s, HAMLET), ['intro_streams'], 'a fixture user who restarts the tutorial is shown it');
  t.same(seen.length, 0, 'the tutorial status sends no event');
});

t.test('marking records the hotspot once with the onboarding steps; an unknown hotspot is refused and changes nothing (test_hotspots_url_endpoint)', async (t) => {
  const s = testServer({ featureLevel: LAST_HOTSPOT_LEVEL });
  for (let i = 0; i < 2; i += 1) t.equal((await s.as(HAMLET).post(HOTSPOTS, { hotspot: 'intro_streams' })).status, 200);
  t.same(s.world.onboardingSteps.get(s.id(HAMLET)), ['intro_streams']);
  const seen = recordEvents(s);
  t.same(errorOf(await s.as(HAMLET).post(HOTSPOTS, { hotspot: 'invalid' })), bad('Unknown hotspot: invalid'));
  t.same(errorOf(await s.as(HAMLET).post(HOTSPOTS, { hotspot: 'intro_inbox_view_modal' })), bad('Unknown hotspot: intro_inbox_view_modal'), 'one-time notices are not hotspots');
  t.same(errorOf(await s.as(HAMLET).post(HOTSPOTS, {})), { ...bad("Missing 'hotspot' argument"), code: 'REQUEST_VARIABLE_MISSING' });
  t.same(errorOf(await s.as(HAMLET).post(TUTORIAL, {})), { ...bad("Missing 'status' argument"), code: 'REQUEST_VARIABLE_MISSING' });
  t.same(s.world.onboardingSteps.get(s.id(HAMLET)), ['intro_streams']);
  t.notOk(s.world.onboardingSteps.has(s.id(OTHELLO)));
  t.same(ofType(seen, 'hotspots'), []);
});

t.test('bots may use neither endpoint (test_human_only_endpoints)', async (t) => {
  const s = testServer({ featureLevel: LAST_HOTSPOT_LEVEL });
  const bot = 'default-bot@zulip.com';
  t.same(errorOf(await s.as(bot).post(HOTSPOTS, { hotspot: 'intro_streams' })), bad('This endpoint does not accept bot requests.'));
  t.same(errorOf(await s.as(bot).post(TUTORIAL, { status: 'finished' })), bad('This endpoint does not accept bot requests.'));
  t.equal(s.world.onboardingSteps.size, 0);
});

t.test('levels: hotspots end at 233 (state, event type and endpoint), tutorial_status at 282', async (t) => {
  const renamed = testServer({ featureLevel: 233 });
  t.equal((await renamed.as(HAMLET).post(HOTSPOTS, { hotspot: 'intro_streams' })).status, 404);
  t.notOk('hotspots' in (await hotspotsOf(renamed, await newcomer(renamed))));
  t.equal((await renamed.as(HAMLET).post(TUTORIAL, { status: 'finished' })).status, 200);
  t.equal((await testServer({ featureLevel: 281 }).as(HAMLET).post(TUTORIAL, { status: 'finished' })).status, 200);
  t.equal((await testServer({ featureLevel: 282 }).as(HAMLET).post(TUTORIAL, { status: 'finished' })).status, 404);
  t.equal((await testServer({ featureLevel: 1 }).as(HAMLET).post(HOTSPOTS, { hotspot: 'intro_gear' })).status, 200);
});

t.test('a saved world keeps seen hotspots and tutorial statuses; a file with an unknown status or user is refused', async (t) => {
  const s = testServer({ featureLevel: LAST_HOTSPOT_LEVEL });
  const user = await newcomer(s);
  await s.as(user).post(HOTSPOTS, { hotspot: 'intro_streams' });
  await s.as(HAMLET).post(TUTORIAL, { status: 'started' });
  const saved = JSON.parse(JSON.stringify(snapshotWorld(s.world)));
  const restored = restoreWorld(saved);
  t.same(restored.onboardingSteps.get(s.id(user)), ['visibility_policy_banner', 'intro_streams']);
  t.same([...restored.tutorialStatus], [...s.world.tutorialStatus]);
  const badStatus = structuredClone(saved);
  badStatus.state.tutorialStatus.$map.push([s.id(OTHELLO), 'paused']);
  t.throws(() => restoreWorld(badStatus), SnapshotError);
  saved.state.tutorialStatus.$map.push([999_999, 'started']);
  t.throws(() => restoreWorld(saved), SnapshotError);
});
