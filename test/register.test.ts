import t from 'tap';
import { checkEventsConverge } from './support/apply-events.js';
import { errorOf, testServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const BASE_KEYS = ['last_event_id', 'msg', 'queue_id', 'result', 'zulip_feature_level', 'zulip_merge_base', 'zulip_version'];
const keys = (body: Record<string, unknown>) => Object.keys(body).sort();

t.test('register with no wanted types returns only the queue and version fields', async (t) => {
  const s = testServer();
  const reply = await s.as(IAGO).post('/register', { fetch_event_types: [] });
  t.equal(reply.status, 200);
  t.same(keys(reply.body), BASE_KEYS);
  t.equal(reply.body.last_event_id, -1);
  t.equal(reply.body.zulip_feature_level, 415);
  t.match(reply.body.queue_id, /^[0-9a-f-]{36}$/);
});

t.test('fetch_event_types ["realm"] returns the realm fields with their stock values, and nothing else', async (t) => {
  const s = testServer();
  const { body } = await s.as(IAGO).post('/register', { fetch_event_types: ['realm'] });
  t.match(body, {
    max_stream_name_length: 60,
    max_stream_description_length: 1024,
    max_topic_length: 60,
    max_message_length: 10000,
    server_typing_started_expiry_period_milliseconds: 45000,
    server_typing_stopped_wait_period_milliseconds: 12000,
    server_typing_started_wait_period_milliseconds: 30000,
    server_presence_ping_interval_seconds: 60,
    server_presence_offline_threshold_seconds: 200,
    realm_empty_topic_display_name: 'general chat',
    realm_moderation_request_channel_id: -1,
    realm_new_stream_announcements_stream_id: s.streamId('Verona'),
    realm_signup_announcements_stream_id: s.streamId('Verona'),
    realm_zulip_update_announcements_stream_id: s.streamId('announce'),
    realm_url: 'http://localhost:9991',
    realm_uri: 'http://localhost:9991',
    max_bulk_new_subscription_messages: 100,
    event_queue_longpoll_timeout_seconds: 90,
    realm_name: 'Zulip Dev',
    realm_can_create_web_public_channel_group: s.world.systemGroupId('role:owners'),
  });
  for (const absent of ['realm_users', 'user_id', 'max_message_id', 'user_settings', 'realm_user_settings_defaults', 'muted_topics']) {
    t.notOk(absent in body, `no ${absent}`);
  }
  t.type(body.server_supported_permission_settings.stream.can_remove_subscribers_group, 'object');
});

t.test('the moderation request channel is reported once set', async (t) => {
  const s = testServer();
  s.world.realm.moderationRequestChannelId = s.streamId('Denmark');
  const { body } = await s.as(IAGO).post('/register', { fetch_event_types: ['realm'] });
  t.equal(body.realm_moderation_request_channel_id, s.streamId('Denmark'));
});

t.test('event_types decides the state unless fetch_event_types is given; unknown types are ignored', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  t.same(keys((await c.post('/register', { event_types: ['message', 'no_such_type'] })).body), [...BASE_KEYS, 'max_message_id'].sort());
  const overridden = await c.post('/register', { event_types: ['message'], fetch_event_types: ['realm_user_settings_defaults'] });
  t.same(keys(overridden.body), [...BASE_KEYS, 'realm_user_settings_defaults'].sort());
  const everything = (await c.post('/register', {})).body;
  for (const key of ['max_message_id', 'realm_users', 'realm_name', 'user_settings', 'realm_user_settings_defaults', 'muted_topics']) {
    t.ok(key in everything, `no filter: ${key}`);
  }
});

t.test('realm_user lists users without is_active, deactivated ones apart, and the caller\'s identity', async (t) => {
  const s = testServer();
  s.world.users.get(s.id('cordelia@zulip.com'))!.isActive = false;
  const { body } = await s.as('shiva@zulip.com').post('/register', { fetch_event_types: ['realm_user'] });
  const ids = (list: Array<Record<string, unknown>>) => list.map((u) => u.user_id);
  t.notOk(ids(body.realm_users).includes(s.id('cordelia@zulip.com')));
  t.ok(ids(body.realm_non_active_users).includes(s.id('cordelia@zulip.com')));
  t.notOk([...body.realm_users, ...body.realm_non_active_users, ...body.cross_realm_bots].some((u) => 'is_active' in u));
  t.ok(body.cross_realm_bots.every((u: Record<string, unknown>) => u.is_system_bot === true));
  t.match(body, {
    user_id: s.id('shiva@zulip.com'),
    delivery_email: 'shiva@zulip.com',
    full_name: s.world.users.get(s.id('shiva@zulip.com'))!.fullName,
    is_admin: false,
    is_owner: false,
    is_moderator: true,
    is_guest: false,
    can_create_public_streams: true,
    can_subscribe_other_users: true,
  });
  const guest = (await s.as('polonius@zulip.com').post('/register', { fetch_event_types: ['realm_user'] })).body;
  t.match(guest, { is_guest: true, can_create_streams: false, can_subscribe_other_users: false });
});

t.test('is_moderator includes administrators from level 380 only', async (t) => {
  for (const [level, expected] of [
    [379, false],
    [380, true],
  ] as const) {
    const s = testServer({ featureLevel: level });
    const { body } = await s.as(IAGO).post('/register', { fetch_event_types: ['realm_user'] });
    t.equal(body.is_moderator, expected, `level ${level}`);
  }
});

t.test('realm_user_settings_defaults has the dev realm values plus emojiset_choices and available_notification_sounds', async (t) => {
  const s = testServer();
  const { body } = await s.as(IAGO).post('/register', { fetch_event_types: ['realm_user_settings_defaults'] });
  const defaults = body.realm_user_settings_defaults;
  t.match(defaults, { enter_sends: true, email_address_visibility: 3, web_home_view: 'inbox', twenty_four_hour_time: false });
  t.same(defaults.emojiset_choices[0], { key: 'google', text: 'Google' });
  t.ok(defaults.available_notification_sounds.includes('zulip'));
  t.notOk('dense_mode' in defaults, 'dense_mode was removed at 364');
});

t.test('user_settings, and the legacy top-level keys only for clients without user_settings_object', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  const wanted = ['user_settings', 'update_display_settings', 'update_global_notifications'];
  const modern = (await c.post('/register', { fetch_event_types: wanted, client_capabilities: { notification_settings_null: true, user_settings_object: true } })).body;
  t.same(keys(modern), [...BASE_KEYS, 'user_settings'].sort());
  t.match(modern.user_settings, { timezone: s.world.users.get(s.id(IAGO))!.timezone, enter_sends: true });
  t.ok(Array.isArray(modern.user_settings.emojiset_choices));
  const legacy = (await c.post('/register', { fetch_event_types: wanted })).body;
  t.match(legacy, { enter_sends: true, emojiset: 'google', enable_sounds: true, presence_enabled: true });
  t.ok(Array.isArray(legacy.available_notification_sounds) && Array.isArray(legacy.emojiset_choices));
  t.ok('user_settings' in legacy);
});

t.test('fields follow their feature levels', async (t) => {
  const realmAt = async (level: number) =>
    (await testServer({ featureLevel: level }).as(IAGO).post('/register', { fetch_event_types: ['realm', 'realm_user_settings_defaults', 'user_settings'] })).body;
  const cases: Array<[string, number]> = [
    ['realm_empty_topic_display_name', 334],
    ['realm_url', 257],
    ['realm_moderation_request_channel_id', 331],
    ['realm_zulip_update_announcements_stream_id', 242],
    ['server_presence_ping_interval_seconds', 164],
    ['server_typing_started_wait_period_milliseconds', 204],
    ['max_bulk_new_subscription_messages', 397],
    ['realm_user_settings_defaults', 95],
    ['user_settings', 89],
  ];
  for (const [field, level] of cases) {
    t.notOk(field in (await realmAt(level - 1)), `${field} is absent at ${level - 1}`);
    t.ok(field in (await realmAt(level)), `${field} is present at ${level}`);
  }
  const old = await realmAt(240);
  t.ok('realm_notifications_stream_id' in old && !('realm_new_stream_announcements_stream_id' in old), 'the announcement channel had its old name');
  t.ok('realm_uri' in (await realmAt(256)), 'realm_uri exists before realm_url');
  t.notOk('hide_ai_features' in (await realmAt(349)).realm_user_settings_defaults, 'a setting newer than the level is left out');
  t.ok('hide_ai_features' in (await realmAt(350)).realm_user_settings_defaults);
});

t.test('muted_topics is left out when user_topic is explicitly requested', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  t.ok('muted_topics' in (await c.post('/register', { fetch_event_types: ['muted_topics'] })).body);
  const both = (await c.post('/register', { fetch_event_types: ['muted_topics', 'user_topic'] })).body;
  t.notOk('muted_topics' in both);
  t.ok('user_topics' in both);
});

t.test('parameters are validated with the real server\'s messages', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  const bad = async (params: Record<string, unknown>) => errorOf(await c.post('/register', params));
  t.same(await bad({ include_subscribers: 'maybe' }), { status: 400, code: 'BAD_REQUEST', msg: 'Invalid include_subscribers' });
  t.same(await bad({ client_capabilities: [] }), { status: 400, code: 'BAD_REQUEST', msg: 'client_capabilities is not a dict' });
  t.same(await bad({ client_capabilities: { empty_topic_name: 1 } }), {
    status: 400,
    code: 'BAD_REQUEST',
    msg: 'client_capabilities["empty_topic_name"] is not a boolean',
  });
  t.same(await bad({ event_types: 'message' }), { status: 400, code: 'BAD_REQUEST', msg: 'event_types is not valid JSON' });
  t.same(await bad({ event_types: { a: 1 } }), { status: 400, code: 'BAD_REQUEST', msg: 'event_types is not a list' });
  t.same(await bad({ apply_markdown: 'yes' }), { status: 400, code: 'BAD_REQUEST', msg: 'apply_markdown is not valid JSON' });
  t.same(await bad({ narrow: [['stream']] }), { status: 400, code: 'BAD_REQUEST', msg: 'narrow[0] should have exactly 2 items' });
  const ok = await c.post('/register', { fetch_event_types: [], queue_lifespan_secs: 60, client_capabilities: { unknown_cap: 'x' }, other: 1 });
  t.same(ok.body.ignored_parameters_unsupported, ['other'], 'declared parameters are consumed; unknown capability keys ignored');
  t.equal((await c.post('/register', { fetch_event_types: [], include_subscribers: 'partial' })).status, 200);
});

t.test('include_subscribers was a JSON boolean before level 412', async (t) => {
  const c = testServer({ featureLevel: 411 }).as(IAGO);
  t.same(errorOf(await c.post('/register', { include_subscribers: 'partial' })), {
    status: 400,
    code: 'BAD_REQUEST',
    msg: 'include_subscribers is not valid JSON',
  });
  t.same(errorOf(await c.post('/register', { include_subscribers: '1' })).msg, 'include_subscribers is not a boolean');
  t.equal((await c.post('/register', { include_subscribers: 'true', fetch_event_types: [] })).status, 200);
});

t.test('realm_emoji lists every custom emoji by ID, deactivated ones marked, as GET /realm/emoji does', async (t) => {
  const s = testServer();
  const green = [...s.world.realmEmoji.values()].find((emoji) => emoji.name === 'green_tick');
  if (green === undefined) throw new Error('the development realm has the green_tick emoji');
  green.deactivated = true;
  const { body } = await s.as('hamlet@zulip.com').post('/register', { fetch_event_types: ['realm_emoji'] });
  t.same(keys(body), [...BASE_KEYS, 'realm_emoji'].sort());
  t.same(body.realm_emoji, {
    [String(green.id)]: {
      id: String(green.id),
      name: 'green_tick',
      source_url: `/user_avatars/${s.world.realm.id}/emoji/images/${green.id}.png`,
      still_url: null,
      deactivated: true,
      author_id: s.id(IAGO),
    },
  });
  t.same(body.realm_emoji, (await s.as('hamlet@zulip.com').get('/realm/emoji')).body.emoji);
  t.notOk('realm_emoji' in (await s.as('hamlet@zulip.com').post('/register', { fetch_event_types: ['realm'] })).body, 'only when wanted');
});

t.test('register needs authentication', async (t) => {
  const s = testServer();
  t.equal((await s.anonymous.post('/register', {})).status, 401);
});

t.test('applying realm_user_settings_defaults events to the registered state gives a fresh register', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  const events = await checkEventsConverge(t, c, {
    fetchEventTypes: ['realm_user_settings_defaults'],
    action: () => c.patch('/realm/user_settings_defaults', { enter_sends: false, color_scheme: 3, emojiset: 'text' }),
  });
  t.equal(events.length, 3, 'one event per changed setting');
});
