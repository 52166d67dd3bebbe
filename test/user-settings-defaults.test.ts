import t from 'tap';
import { userSettingsDefaultsState } from '../lib/queries/realm/user-settings-defaults.js';
import { recordEvents } from './support/events.js';
import { errorOf, testServer } from './support/harness.js';

const iago = 'iago@zulip.com';
const PATH = '/realm/user_settings_defaults';

t.test('non-administrators get UNAUTHORIZED_PRINCIPAL before any parameter is parsed', async (t) => {
  const s = testServer();
  for (const email of ['hamlet@zulip.com', 'shiva@zulip.com', 'polonius@zulip.com']) {
    t.same(errorOf(await s.as(email).patch(PATH, { color_scheme: 'not json' })), {
      status: 400,
      code: 'UNAUTHORIZED_PRINCIPAL',
      msg: 'Must be an organization administrator',
    });
  }
  t.equal(s.world.userSettingsDefaults.get('color_scheme'), 1);
});

t.test('owners and administrators change defaults; values round-trip through register state', async (t) => {
  const s = testServer();
  const changes = {
    color_scheme: 2,
    enter_sends: false,
    web_home_view: 'recent_topics',
    emojiset: 'text',
    notification_sound: 'ding',
    web_font_size_px: 18,
    resolved_topic_notice_auto_read_policy: 'never',
  };
  const reply = await s.as('desdemona@zulip.com').patch(PATH, changes);
  t.same(reply.body, { result: 'success', msg: '' });
  t.match(userSettingsDefaultsState(s.world), changes);
});

t.test('a request with no parameters succeeds and changes nothing', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  const before = userSettingsDefaultsState(s.world);
  t.same((await s.as(iago).patch(PATH)).body, { result: 'success', msg: '' });
  t.same(userSettingsDefaultsState(s.world), before);
  t.equal(seen.length, 0);
});

t.test('one realm_user_settings_defaults event per changed property, in parameter order, to all active users', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  await s.as(iago).patch(PATH, { twenty_four_hour_time: true, color_scheme: 3, enter_sends: true });
  // enter_sends is already true in the development realm: no event for it.
  t.same(
    seen.map((e) => e.event),
    [
      { type: 'realm_user_settings_defaults', op: 'update', property: 'color_scheme', value: 3 },
      { type: 'realm_user_settings_defaults', op: 'update', property: 'twenty_four_hour_time', value: true },
    ],
  );
  const active = [...s.world.users.values()].filter((u) => u.isActive && !u.isSystemBot).map((u) => u.id).sort((a, b) => a - b);
  t.same([...(seen[0]?.userIds ?? [])].sort((a, b) => a - b), active);
});

t.test('existing users keep their settings and drafts; only users created later get the new defaults', async (t) => {
  const s = testServer();
  const hamlet = s.world.users.get(s.id('hamlet@zulip.com'));
  const drafts = s.world.drafts.size;
  await s.as(iago).patch(PATH, { color_scheme: 2, enable_drafts_synchronization: false, email_address_visibility: 1 });
  t.equal(hamlet?.settings.get('color_scheme'), 1);
  t.equal(hamlet?.settings.get('enable_drafts_synchronization'), true);
  t.equal(s.world.drafts.size, drafts, 'drafts are not deleted');
  const created = await s.as(iago).post('/users', { email: 'newbie@zulip.com', password: 'pw-abc-123', full_name: 'New Bie' });
  t.equal(created.status, 200);
  const newbie = s.world.users.get(created.body.user_id);
  t.equal(newbie?.settings.get('color_scheme'), 2);
  t.equal(newbie?.settings.get('enable_drafts_synchronization'), false);
  t.equal(newbie?.settings.get('email_address_visibility'), 1);
});

t.test('invalid values get the real server messages and change nothing', async (t) => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ color_scheme: 4 }, 'Invalid color_scheme: Value error, Not in the list of possible values'],
    [{ color_scheme: '"2"' }, 'color_scheme is not an integer'],
    [{ enter_sends: 'yes' }, 'enter_sends is not valid JSON'],
    [{ enter_sends: 1 }, 'enter_sends is not a boolean'],
    [{ web_home_view: 'home' }, 'Invalid web_home_view'],
    [{ web_animate_image_previews: 'sometimes' }, 'Invalid web_animate_image_previews'],
    [{ resolved_topic_notice_auto_read_policy: 'sometimes' }, 'Invalid resolved_topic_notice_auto_read_policy'],
    [{ emojiset: 'apple' }, 'Invalid emojiset: Value error, Not in the list of possible values'],
    [{ notification_sound: 'invalid' }, "Invalid notification sound 'invalid'"],
    [{ email_notifications_batching_period_seconds: -1 }, 'Invalid email batching period: -1 seconds'],
    [{ email_notifications_batching_period_seconds: 604810 }, 'Invalid email batching period: 604810 seconds'],
    [{ email_address_visibility: 6 }, 'Invalid email_address_visibility: Value error, Not in the list of possible values'],
  ];
  for (const [params, msg] of cases) {
    const s = testServer();
    const before = userSettingsDefaultsState(s.world);
    const seen = recordEvents(s);
    t.same(errorOf(await s.as(iago).patch(PATH, { ...params, color_scheme: params.color_scheme ?? 2 })), { status: 400, code: 'BAD_REQUEST', msg }, msg);
    t.same(userSettingsDefaultsState(s.world), before, `${msg}: state unchanged`);
    t.equal(seen.length, 0);
  }
});

t.test('the first invalid parameter in alphabetical order is reported', async (t) => {
  const s = testServer();
  const reply = await s.as(iago).patch(PATH, { web_home_view: 'x', color_scheme: 9 });
  t.equal(reply.body.msg, 'Invalid color_scheme: Value error, Not in the list of possible values');
});

t.test('the sound and batching checks run after parsing, sound first', async (t) => {
  const s = testServer();
  const reply = await s.as(iago).patch(PATH, { notification_sound: 'x', email_notifications_batching_period_seconds: 0, color_scheme: 2 });
  t.equal(reply.body.msg, "Invalid notification sound 'x'");
  t.equal(s.world.userSettingsDefaults.get('color_scheme'), 1);
  const ok = await s.as(iago).patch(PATH, { notification_sound: 'none', email_notifications_batching_period_seconds: 604800 });
  t.equal(ok.status, 200);
});

t.test('the description spellings emojiset_a and emojiset_b are accepted as google and twitter', async (t) => {
  const s = testServer();
  await s.as(iago).patch(PATH, { emojiset: 'emojiset_b' });
  t.equal(userSettingsDefaultsState(s.world).emojiset, 'twitter');
  await s.as(iago).patch(PATH, { emojiset: 'emojiset_a' });
  t.equal(userSettingsDefaultsState(s.world).emojiset, 'google');
});

t.test('unsupported and non-patchable settings are listed in ignored_parameters_unsupported', async (t) => {
  const s = testServer();
  const reply = await s.as(iago).patch(PATH, { default_language: 'de', enable_login_emails: false, timezone: 'UTC', dense_mode: false, starred_message_counts: false });
  t.same(reply.body.ignored_parameters_unsupported, ['default_language', 'dense_mode', 'enable_login_emails', 'timezone']);
  t.equal(s.world.userSettingsDefaults.get('default_language'), 'en');
  t.equal(s.world.userSettingsDefaults.get('starred_message_counts'), false);
});

t.test('settings follow their feature levels: missing below their level, dense_mode until 364', async (t) => {
  const old = testServer({ featureLevel: 250 });
  const reply = await old.as(iago).patch(PATH, { receives_typing_notifications: false, hide_ai_features: true, dense_mode: false });
  t.same(reply.body.ignored_parameters_unsupported, ['hide_ai_features', 'receives_typing_notifications']);
  t.equal(old.world.userSettingsDefaults.get('dense_mode'), false);
  t.notOk('hide_ai_features' in userSettingsDefaultsState(old.world));
  t.ok('dense_mode' in userSettingsDefaultsState(old.world));
  const current = testServer();
  t.notOk('dense_mode' in userSettingsDefaultsState(current.world));
  t.ok('hide_ai_features' in userSettingsDefaultsState(current.world));
});

t.test('allow_private_data_export appears in the defaults and in user_settings from level 293', async (t) => {
  for (const [level, present] of [[292, false], [293, true]] as const) {
    const s = testServer({ featureLevel: level });
    t.equal('allow_private_data_export' in userSettingsDefaultsState(s.world), present, `defaults at ${level}`);
    const state = (await s.as(iago).post('/register', { fetch_event_types: ['user_settings'] })).body;
    t.equal('allow_private_data_export' in state.user_settings, present, `user_settings at ${level}`);
  }
});

t.test('web_channel_default_view accepts 3 from level 383 and 4 from level 401', async (t) => {
  const msg = 'Invalid web_channel_default_view: Value error, Not in the list of possible values';
  t.equal((await testServer({ featureLevel: 382 }).as(iago).patch(PATH, { web_channel_default_view: 3 })).body.msg, msg);
  t.equal((await testServer({ featureLevel: 383 }).as(iago).patch(PATH, { web_channel_default_view: 3 })).status, 200);
  t.equal((await testServer({ featureLevel: 400 }).as(iago).patch(PATH, { web_channel_default_view: 4 })).body.msg, msg);
  t.equal((await testServer({ featureLevel: 401 }).as(iago).patch(PATH, { web_channel_default_view: 4 })).status, 200);
});

t.test('the endpoint exists from level 96 and reports ignored parameters from its first level', async (t) => {
  t.equal((await testServer({ featureLevel: 95 }).as(iago).patch(PATH, { color_scheme: 2 })).status, 404);
  const reply = await testServer({ featureLevel: 96 }).as(iago).patch(PATH, { color_scheme: 2, bogus: 1 });
  t.same(reply.body, { result: 'success', msg: '', ignored_parameters_unsupported: ['bogus'] });
});

t.test('register state carries emojiset_choices and available_notification_sounds', async (t) => {
  const state = userSettingsDefaultsState(testServer().world);
  t.same(state.emojiset_choices, [
    { key: 'google', text: 'Google' },
    { key: 'twitter', text: 'Twitter' },
    { key: 'text', text: 'Plain text' },
    { key: 'google-blob', text: 'Google blobs' },
  ]);
  t.ok(Array.isArray(state.available_notification_sounds));
  t.notOk((state.available_notification_sounds as string[]).includes('none'));
  t.ok((state.available_notification_sounds as string[]).includes('zulip'));
  t.equal(state.enter_sends, true, 'the development realm defaults are reported');
  t.equal(state.email_address_visibility, 3);
});

t.test('before level 219 the home-view settings are default_view and escape_navigates_to_default_view; from 219 they are web_home_view and web_escape_navigates_to_home_view', async (t) => {
  const old = testServer({ featureLevel: 218 });
  const oldReply = await old.as(iago).patch(PATH, { default_view: 'all_messages', escape_navigates_to_default_view: false, web_home_view: 'inbox' });
  t.same(oldReply.body, { result: 'success', msg: '', ignored_parameters_unsupported: ['web_home_view'] });
  t.match(userSettingsDefaultsState(old.world), { default_view: 'all_messages', escape_navigates_to_default_view: false });
  t.notOk('web_home_view' in userSettingsDefaultsState(old.world));
  t.same(errorOf(await old.as(iago).patch(PATH, { default_view: 'inbox' })), { status: 400, code: 'BAD_REQUEST', msg: 'Invalid default_view' });

  const renamed = testServer({ featureLevel: 219 });
  const reply = await renamed.as(iago).patch(PATH, { default_view: 'all_messages', web_home_view: 'recent_topics' });
  t.same(reply.body, { result: 'success', msg: '', ignored_parameters_unsupported: ['default_view'] });
  const state = userSettingsDefaultsState(renamed.world);
  t.equal(state.web_home_view, 'recent_topics');
  t.notOk('default_view' in state || 'escape_navigates_to_default_view' in state);
});
