import t from 'tap';
import { restoreWorld, SnapshotError, snapshotWorld } from '../lib/state/world-snapshot.js';
import { HAMLET, IAGO, OTHELLO } from './support/channels.js';
import { ofType, recordEvents } from './support/events.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const URL = '/users/me/onboarding_steps';
const notice = (name: string) => ({ type: 'one_time_notice', name });

/** Every step of a fixture user when the server has no navigation tour video (the real catalogue's order). */
const FIXTURE_STEPS = [
  notice('visibility_policy_banner'),
  notice('intro_inbox_view_modal'),
  notice('intro_recent_view_modal'),
  notice('first_stream_created_banner'),
  notice('jump_to_conversation_banner'),
  notice('non_interleaved_view_messages_fading'),
  notice('interleaved_view_messages_fading'),
  notice('intro_resolve_topic'),
  { type: 'one_time_action', name: 'narrow_to_dm_with_welcome_bot_new_user' },
];

const stepsOf = async (s: TestServer, email: string) => (await s.as(email).post('/register', { fetch_event_types: ['onboarding_steps'] })).body;

t.test('a fixture user has seen no step; without a tour video that step is left out and the URL is null', async (t) => {
  const s = testServer();
  const state = await stepsOf(s, HAMLET);
  t.same(state.onboarding_steps, FIXTURE_STEPS);
  t.equal(state.navigation_tour_video_url, null);
  t.notOk('hotspots' in state, 'hotspots were renamed at level 233');
});

t.test('with a tour video configured, its step is listed and register reports the URL', async (t) => {
  const s = testServer({ navigationTourVideoUrl: 'https://videos.example/tour.mp4' });
  const state = await stepsOf(s, HAMLET);
  t.equal(state.navigation_tour_video_url, 'https://videos.example/tour.mp4');
  t.same(
    state.onboarding_steps.map((step: { name: string }) => step.name),
    [...FIXTURE_STEPS.slice(0, 8).map((step) => step.name), 'navigation_tour_video', 'narrow_to_dm_with_welcome_bot_new_user'],
  );
});

t.test('marking a step removes it from register and sends only the user an onboarding_steps event with the rest', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  t.equal((await s.as(HAMLET).post(URL, { onboarding_step: 'intro_recent_view_modal' })).status, 200);
  const rest = FIXTURE_STEPS.filter((step) => step.name !== 'intro_recent_view_modal');
  t.same(ofType(seen, 'onboarding_steps').map((e) => [e.event, e.userIds]), [[{ type: 'onboarding_steps', onboarding_steps: rest }, [s.id(HAMLET)]]]);
  t.same((await stepsOf(s, HAMLET)).onboarding_steps, rest);
  t.same((await stepsOf(s, OTHELLO)).onboarding_steps, FIXTURE_STEPS, 'other users are unaffected');
});

t.test('marking a step again succeeds, stores it once and sends the same remaining list again', async (t) => {
  const s = testServer();
  await s.as(HAMLET).post(URL, { onboarding_step: 'intro_inbox_view_modal' });
  const seen = recordEvents(s);
  t.equal((await s.as(HAMLET).post(URL, { onboarding_step: 'intro_inbox_view_modal' })).status, 200);
  t.same(s.world.onboardingSteps.get(s.id(HAMLET)), ['intro_inbox_view_modal']);
  t.same(ofType(seen, 'onboarding_steps').map((e) => e.event.onboarding_steps), [FIXTURE_STEPS.filter((step) => step.name !== 'intro_inbox_view_modal')]);
});

t.test('an unknown step is refused by name and changes nothing; the step is required; bots are refused', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  t.same(errorOf(await s.as(HAMLET).post(URL, { onboarding_step: 'invalid' })), bad('Unknown onboarding_step: invalid'));
  t.same(errorOf(await s.as(HAMLET).post(URL, { onboarding_step: 'intro_streams' })), bad('Unknown onboarding_step: intro_streams'), 'hotspots are gone from level 259');
  t.same(errorOf(await s.as(HAMLET).post(URL, {})), { ...bad("Missing 'onboarding_step' argument"), code: 'REQUEST_VARIABLE_MISSING' });
  t.same(errorOf(await s.as('default-bot@zulip.com').post(URL, { onboarding_step: 'intro_inbox_view_modal' })), bad('This endpoint does not accept bot requests.'));
  t.same(ofType(seen, 'onboarding_steps'), []);
  t.equal(s.world.onboardingSteps.size, 0);
});

t.test('a user created through the API starts with the visibility policy banner seen, as do_create_user records', async (t) => {
  const s = testServer();
  const created = await s.as(IAGO).post('/users', { email: 'newcomer@zulip.com', password: 'pw-newcomer-1', full_name: 'Newcomer' });
  t.equal(created.status, 200, created.text);
  t.same(s.world.onboardingSteps.get(created.body.user_id), ['visibility_policy_banner']);
  const user = s.world.users.get(created.body.user_id)!;
  const state = await s.as(user.deliveryEmail).post('/register', { fetch_event_types: ['onboarding_steps'] });
  t.same(state.body.onboarding_steps, FIXTURE_STEPS.slice(1));
});

t.test('levels: no endpoint or state below 233, hotspot names accepted until 258, the video URL from 369', async (t) => {
  const old = testServer({ featureLevel: 232 });
  t.equal((await old.as(HAMLET).post(URL, { onboarding_step: 'intro_inbox_view_modal' })).status, 404);
  const oldState = await stepsOf(old, HAMLET);
  t.notOk('onboarding_steps' in oldState);
  t.notOk('navigation_tour_video_url' in oldState);
  const hotspots = testServer({ featureLevel: 258 });
  t.equal((await hotspots.as(HAMLET).post(URL, { onboarding_step: 'intro_streams' })).status, 200);
  t.same((await stepsOf(hotspots, HAMLET)).onboarding_steps, FIXTURE_STEPS, 'hotspots are never listed');
  const beforeVideo = await stepsOf(testServer({ featureLevel: 368 }), HAMLET);
  t.same(beforeVideo.onboarding_steps, FIXTURE_STEPS);
  t.notOk('navigation_tour_video_url' in beforeVideo);
});

t.test('a saved world keeps what each user has seen, and a file naming an unknown user is refused', async (t) => {
  const s = testServer();
  await s.as(HAMLET).post(URL, { onboarding_step: 'intro_resolve_topic' });
  const saved = JSON.parse(JSON.stringify(snapshotWorld(s.world)));
  t.same(restoreWorld(saved).onboardingSteps.get(s.id(HAMLET)), ['intro_resolve_topic']);
  saved.state.onboardingSteps.$map.push([999_999, ['intro_inbox_view_modal']]);
  t.throws(() => restoreWorld(saved), SnapshotError);
});
