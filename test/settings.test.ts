import t from 'tap';
import type { User } from '../lib/entities/user.js';
import { HAMLET, IAGO, OTHELLO } from './support/channels.js';
import { activeIds } from './support/event-recipients.js';
import { ofType, recordEvents } from './support/events.js';
import { bad, errorOf, type Params, testServer, type TestServer } from './support/harness.js';

const userOf = (s: TestServer, email: string): User => s.world.users.get(s.id(email)) as User;
const patch = (s: TestServer, params: Params, email = HAMLET) => s.as(email).patch('/settings', params);
const events = (seen: ReturnType<typeof recordEvents>) => seen.map(({ event, userIds }) => [event, userIds]);
/** Hamlet's API email in the dev realm (email_address_visibility 3 by default). */
const hamletApiEmail = (s: TestServer) => `user${s.id(HAMLET)}@zulipdev.com`;

t.test('turning receives_typing_notifications off stores it, tells only the user, and stops typing events to them', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  t.same((await patch(s, { receives_typing_notifications: false })).body, { result: 'success', msg: '' });
  t.equal(userOf(s, HAMLET).settings.get('receives_typing_notifications'), false);
  t.same(events(seen), [[{ type: 'user_settings', op: 'update', property: 'receives_typing_notifications', value: false }, [s.id(HAMLET)]]]);
  await s.as(OTHELLO).post('/typing', { op: 'start', to: [s.id(HAMLET)] });
  const typing = ofType(seen, 'typing');
  t.equal(typing.length, 1, 'the typing event is sent');
  t.same(typing[0]?.userIds, [s.id(OTHELLO)], 'to the sender only: hamlet does not receive it');
});

t.test('legacy settings also send their legacy twin; modern ones do not; unchanged values send nothing', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  const me = [s.id(HAMLET)];
  await patch(s, { enable_sounds: false, emojiset: 'emojiset_b', enter_sends: true, send_read_receipts: false });
  const user = hamletApiEmail(s);
  t.same(events(seen), [
    [{ type: 'user_settings', op: 'update', property: 'emojiset', value: 'twitter' }, me],
    [{ type: 'update_display_settings', user, setting_name: 'emojiset', setting: 'twitter' }, me],
    [{ type: 'user_settings', op: 'update', property: 'enable_sounds', value: false }, me],
    [{ type: 'update_global_notifications', user, notification_name: 'enable_sounds', setting: false }, me],
    [{ type: 'user_settings', op: 'update', property: 'send_read_receipts', value: false }, me],
  ], 'enter_sends is already true in the dev realm');
  t.equal(userOf(s, HAMLET).settings.get('emojiset'), 'twitter', 'emojiset_b is the description\'s name for twitter');
});

t.test('below level 89 only the legacy events exist', async (t) => {
  const s = testServer({ featureLevel: 88 });
  const seen = recordEvents(s);
  await patch(s, { enable_sounds: false });
  t.same(seen.map((e) => e.event.type), ['update_global_notifications']);
});

t.test('default_language takes the server\'s language codes; events carry the language name', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  await patch(s, { default_language: 'de' });
  t.match(seen.map((e) => e.event), [
    { type: 'user_settings', property: 'default_language', value: 'de', language_name: 'Deutsch' },
    { type: 'update_display_settings', setting_name: 'default_language', setting: 'de', language_name: 'Deutsch' },
  ]);
  for (const code of ['xx', 'zh_Hans', '']) t.same(errorOf(await patch(s, { default_language: code })), bad('Invalid default_language'));
  t.equal(userOf(s, HAMLET).settings.get('default_language'), 'de');
});

t.test('timezone: an IANA name, stored canonically, announced to the user and to everyone who can access them', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  await patch(s, { timezone: 'Asia/Calcutta' });
  t.equal(userOf(s, HAMLET).timezone, 'Asia/Kolkata');
  t.same(events(seen), [
    [{ type: 'user_settings', op: 'update', property: 'timezone', value: 'Asia/Kolkata' }, [s.id(HAMLET)]],
    [{ type: 'update_display_settings', user: hamletApiEmail(s), setting_name: 'timezone', setting: 'Asia/Kolkata' }, [s.id(HAMLET)]],
    [{ type: 'realm_user', op: 'update', person: { email: hamletApiEmail(s), user_id: s.id(HAMLET), timezone: 'Asia/Kolkata' } }, activeIds(s)],
  ]);
  // The real server's zoneinfo refuses "" and unknown or miscased names.
  for (const zone of ['', 'Mars/Olympus', 'asia/kolkata']) {
    t.same(errorOf(await patch(s, { timezone: zone })), bad('Invalid timezone: Value error, Not a recognized time zone'), zone);
  }
  t.equal(userOf(s, HAMLET).timezone, 'Asia/Kolkata');
});

t.test('each setting is read as the defaults endpoint reads it, in alphabetical order', async (t) => {
  const s = testServer();
  const cases: Array<[Params, string]> = [
    [{ enter_sends: 'maybe' }, 'enter_sends is not valid JSON'],
    [{ enter_sends: '"yes"' }, 'enter_sends is not a boolean'],
    [{ color_scheme: 9 }, 'Invalid color_scheme: Value error, Not in the list of possible values'],
    [{ web_font_size_px: 'big' }, 'web_font_size_px is not valid JSON'],
    [{ emojiset: 'apple' }, 'Invalid emojiset: Value error, Not in the list of possible values'],
    [{ resolved_topic_notice_auto_read_policy: 'sometimes' }, 'Invalid resolved_topic_notice_auto_read_policy'],
    // Unlike the defaults endpoint (Literal types), this view validates these two strings.
    [{ web_home_view: 'feed' }, 'Invalid web_home_view: Value error, Not in the list of possible values'],
    [{ web_animate_image_previews: 'sometimes' }, 'Invalid web_animate_image_previews: Value error, Not in the list of possible values'],
    [{ notification_sound: 'gong' }, "Invalid notification sound 'gong'"],
    [{ email_notifications_batching_period_seconds: 0 }, 'Invalid email batching period: 0 seconds'],
    [{ email_notifications_batching_period_seconds: 604801 }, 'Invalid email batching period: 604801 seconds'],
    [{ web_home_view: 'feed', color_scheme: 9 }, 'Invalid color_scheme: Value error, Not in the list of possible values'],
    [{ notification_sound: 'gong', default_language: 'xx' }, 'Invalid default_language'],
    [{ notification_sound: 'gong', new_password: 'x', old_password: 'wrong' }, "Invalid notification sound 'gong'"],
  ];
  const seen = recordEvents(s);
  const before = JSON.stringify([...userOf(s, HAMLET).settings]);
  for (const [params, msg] of cases) t.same(errorOf(await patch(s, { enter_sends: false, ...params })), bad(msg), JSON.stringify(params));
  t.equal(JSON.stringify([...userOf(s, HAMLET).settings]), before, 'no error changed a setting, even the valid enter_sends');
  t.same(seen, []);
});

t.test('settings appear and disappear with their feature levels', async (t) => {
  const gates: Array<[string, unknown, number, 'since' | 'removed']> = [
    ['receives_typing_notifications', false, 253, 'since'],
    ['allow_private_data_export', true, 293, 'since'],
    ['hide_ai_features', true, 350, 'since'],
    ['dense_mode', false, 364, 'removed'],
  ];
  for (const [name, value, level, kind] of gates) {
    const present = testServer({ featureLevel: kind === 'since' ? level : level - 1 });
    const absent = testServer({ featureLevel: kind === 'since' ? level - 1 : level });
    t.same((await patch(present, { [name]: value })).body, { result: 'success', msg: '' }, `${name} exists at ${present.world.featureLevel}`);
    t.equal(userOf(present, HAMLET).settings.get(name), value);
    t.same((await patch(absent, { [name]: value })).body.ignored_parameters_unsupported, [name], `${name} is ignored at ${absent.world.featureLevel}`);
    t.not(userOf(absent, HAMLET).settings.get(name), value);
  }
  t.same(errorOf(await patch(testServer({ featureLevel: 382 }), { web_channel_default_view: 3 })), bad('Invalid web_channel_default_view: Value error, Not in the list of possible values'));
  t.equal((await patch(testServer({ featureLevel: 383 }), { web_channel_default_view: 3 })).status, 200);
});

t.test('before level 80 only the name, email and password are parameters; before 78 the reply names what changed', async (t) => {
  const s79 = testServer({ featureLevel: 79 });
  t.same((await patch(s79, { enter_sends: false, timezone: 'UTC', full_name: 'Prince Hamlet' })).body, {
    result: 'success',
    msg: '',
    ignored_parameters_unsupported: ['enter_sends', 'timezone'],
  });
  t.equal(userOf(s79, HAMLET).settings.get('enter_sends'), true);
  t.equal(userOf(s79, HAMLET).fullName, 'Prince Hamlet');
  const s77 = testServer({ featureLevel: 77 });
  t.same((await patch(s77, { enter_sends: false, full_name: ' Prince Hamlet ', email: 'prince@zulip.com' })).body, {
    result: 'success',
    msg: '',
    account_email: 'Check your email for a confirmation link. ',
    full_name: 'Prince Hamlet',
  });
  t.same((await patch(testServer({ featureLevel: 80 }), { enter_sends: false })).body, { result: 'success', msg: '' });
});

t.test('unknown parameters are reported in code point order; client is not', async (t) => {
  const s = testServer();
  t.same((await patch(s, { zeta: 1, Alpha: 2, client: 'test', enter_sends: true })).body, {
    result: 'success',
    msg: '',
    ignored_parameters_unsupported: ['Alpha', 'zeta'],
  });
});

t.test('bots are refused before any parameter is read', async (t) => {
  const s = testServer();
  const before = JSON.stringify([...userOf(s, 'default-bot@zulip.com').settings]);
  for (const bot of ['default-bot@zulip.com', 'outgoing-webhook@zulip.com']) {
    t.same(errorOf(await patch(s, { enter_sends: 'not json' }, bot)), bad('This endpoint does not accept bot requests.'));
    t.same(errorOf(await patch(s, { enter_sends: false, full_name: 'Renamed Bot' }, bot)), bad('This endpoint does not accept bot requests.'));
  }
  t.equal(JSON.stringify([...userOf(s, 'default-bot@zulip.com').settings]), before);
  t.not(userOf(s, 'default-bot@zulip.com').fullName, 'Renamed Bot');
});

t.test('full_name: stripped, checked with the name rules, announced to everyone who can access the user', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  await patch(s, { full_name: '  Prince Hamlet ' });
  t.equal(userOf(s, HAMLET).fullName, 'Prince Hamlet');
  t.same(events(seen), [[{ type: 'realm_user', op: 'update', person: { user_id: s.id(HAMLET), full_name: 'Prince Hamlet' } }, activeIds(s)]]);
  for (const [name, msg] of [
    ['x', 'Name too short!'],
    ['   ', 'Name too short!'],
    ['a'.repeat(101), 'Name too long!'],
    ['Ham*let', 'Invalid characters in name!'],
    ['Hamlet|12', 'Invalid format!'],
  ] as const) {
    t.same(errorOf(await patch(s, { full_name: name })), bad(msg), name);
  }
  t.equal(userOf(s, HAMLET).fullName, 'Prince Hamlet');
  seen.length = 0;
  await patch(s, { full_name: 'Prince Hamlet' });
  t.same(seen, [], 'the same name changes nothing');
  await patch(s, { full_name: 'Prince Hamlet ' });
  t.equal(seen.length, 1, 'like the real server, a spelling that strips to the same name is stored and announced again');
});

t.test('password: the old password must match; the new one replaces it for logins', async (t) => {
  const s = testServer();
  t.same(errorOf(await patch(s, { old_password: 'nope', new_password: 'fresh-secret' })), bad('Wrong password!'));
  t.same(errorOf(await patch(s, { new_password: 'fresh-secret' })), bad('Wrong password!'), 'no old_password');
  t.same(errorOf(await patch(s, { old_password: 'hamlet-password', new_password: '' })), bad('New password is too weak!'));
  t.equal((await patch(s, { old_password: 'wrong' })).status, 200, 'old_password alone is not checked');
  t.equal(userOf(s, HAMLET).password, 'hamlet-password');
  t.same((await patch(s, { old_password: 'hamlet-password', new_password: 'fresh-secret' })).body, { result: 'success', msg: '' });
  t.equal((await s.anonymous.post('/fetch_api_key', { username: HAMLET, password: 'fresh-secret' })).status, 200);
  t.equal((await s.anonymous.post('/fetch_api_key', { username: HAMLET, password: 'hamlet-password' })).status, 401);
});

t.test('wrong old passwords count against the login limit: the sixth try is refused even when right', async (t) => {
  const s = testServer();
  for (let i = 0; i < 5; i++) t.same(errorOf(await patch(s, { old_password: 'nope', new_password: 'x1' })), bad('Wrong password!'));
  const right = { old_password: 'hamlet-password', new_password: 'fresh-secret' };
  t.same(errorOf(await patch(s, right)), bad("You're making too many attempts! Try again in 1800 seconds."));
  s.clock.advance(1800 * 1000);
  t.equal((await patch(s, right)).status, 200);
});

t.test('email: checked like the real server, then accepted without changing anything (a confirmation flow)', async (t) => {
  const s = testServer();
  await s.as(IAGO).delete(`/users/${s.id(OTHELLO)}`);
  const seen = recordEvents(s);
  for (const [email, msg] of [
    ['not an address', 'Invalid address.'],
    ['iago@zulip.com', 'Already has an account.'],
    ['IAGO@zulip.com', 'Already has an account.'],
    ['othello@zulip.com', 'Account has been deactivated.'],
    ['welcome-bot@zulip.com', 'Reserved for system bots.'],
    ['HAMLET@zulip.com', 'Already has an account.'],
  ] as const) {
    t.same(errorOf(await patch(s, { email })), bad(msg), email);
  }
  t.same((await patch(s, { email: ' hamlet@zulip.com ' })).body, { result: 'success', msg: '' }, 'the current address, once stripped');
  t.same((await patch(s, { email: 'prince@zulip.com' })).body, { result: 'success', msg: '' });
  t.equal(userOf(s, HAMLET).deliveryEmail, 'hamlet@zulip.com');
  t.same(seen, []);
});

t.test('a refused name or email leaves the password already changed, as in the real json_change_settings, and nothing else', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  const reply = await patch(s, { old_password: 'hamlet-password', new_password: 'fresh-secret', full_name: 'x', enter_sends: false, timezone: 'UTC' });
  t.same(errorOf(reply), bad('Name too short!'));
  t.same(errorOf(await patch(s, { enter_sends: false, email: 'iago@zulip.com' })), bad('Already has an account.'));
  const user = userOf(s, HAMLET);
  t.same([user.password, user.fullName, user.settings.get('enter_sends'), user.timezone], ['fresh-secret', 'King Hamlet', true, '']);
  t.same(seen, [], 'a password change sends no event');
  t.same(errorOf(await patch(s, { old_password: 'fresh-secret', new_password: 'third', default_language: 'xx' })), bad('Invalid default_language'));
  t.equal(user.password, 'fresh-secret', 'a settings value is checked before the password');
});

t.test('turning drafts synchronization off deletes the user\'s server drafts without events', async (t) => {
  const s = testServer();
  const drafts = () => [...s.world.drafts.values()].filter((d) => d.userId === s.id(IAGO)).length;
  t.ok(drafts() > 0, 'iago has drafts in the dev realm');
  const seen = recordEvents(s);
  await patch(s, { enable_drafts_synchronization: false }, IAGO);
  t.equal(drafts(), 0);
  t.same(seen.map((e) => e.event.type), ['user_settings', 'update_display_settings']);
  t.equal((await s.as(IAGO).get('/drafts')).status, 400, 'the drafts endpoints now refuse');
});

t.test('presence_enabled goes through the invisible-mode presence code', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  await patch(s, { presence_enabled: false });
  t.same(seen.map((e) => e.event.type), ['user_settings', 'update_global_notifications', 'presence']);
  const row = s.world.presence.get(s.id(HAMLET));
  t.ok(row && (row.lastConnectedTime ?? 0) < s.clock.now() - 140_000, 'the user now looks offline');
  await patch(s, { presence_enabled: true });
  t.equal(s.world.presence.get(s.id(HAMLET))?.lastActiveTime, s.clock.now(), 'and active again at once');
});

t.test('email_address_visibility changes who sees the delivery email, and the API email when "everyone" is involved', async (t) => {
  const s = testServer();
  const hamlet = s.id(HAMLET);
  const others = (keep: (u: { id: number; role: number }) => boolean) => activeIds(s, (u) => u.id !== hamlet && keep(u));
  const seen = recordEvents(s, { sortRecipients: true });
  await patch(s, { email_address_visibility: 1 });
  const realmUser = () => ofType(seen, 'realm_user').map(({ event, userIds }) => [event.person, userIds]);
  const avatar = (person: unknown) => typeof person === 'object' && person !== null && 'avatar_url' in person;
  t.same(realmUser().filter(([person]) => !avatar(person)), [
    [{ user_id: hamlet, delivery_email: 'hamlet@zulip.com' }, others((u) => u.role > 200)],
    [{ user_id: hamlet, new_email: 'hamlet@zulip.com' }, activeIds(s)],
  ]);
  t.match(realmUser().filter(([person]) => avatar(person)), [[{ user_id: hamlet, avatar_source: 'G', avatar_version: 1 }, activeIds(s)]]);
  t.equal((await s.as(OTHELLO).get(`/users/${hamlet}`)).body.user.email, 'hamlet@zulip.com');
  seen.length = 0;
  await patch(s, { email_address_visibility: 4 });
  t.same(realmUser().slice(0, 2), [
    [{ user_id: hamlet, delivery_email: null }, others(() => true)],
    [{ user_id: hamlet, new_email: hamletApiEmail(s) }, activeIds(s)],
  ]);
  seen.length = 0;
  await patch(s, { email_address_visibility: 2 });
  t.same(realmUser(), [[{ user_id: hamlet, delivery_email: 'hamlet@zulip.com' }, others((u) => u.role <= 400)]], 'no API email change without "everyone"');
});
