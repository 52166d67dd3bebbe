import t from 'tap';
import type { ChatEvent } from '../lib/state/event-hub.js';
import type { User } from '../lib/entities/user.js';
import { presenceState } from '../lib/queries/users/presence.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const hamlet = 'hamlet@zulip.com';
const othello = 'othello@zulip.com';
const iago = 'iago@zulip.com';
const PATH = '/users/me/presence';
const SECOND = 1000;
const DAY = 86_400_000;

const userOf = (s: TestServer, email: string): User => s.world.users.get(s.id(email)) as User;
const seconds = (ms: number): number => Math.floor(ms / 1000);

function presenceEvents(s: TestServer): Array<{ event: ChatEvent; userIds: readonly number[] }> {
  const seen: Array<{ event: ChatEvent; userIds: readonly number[] }> = [];
  s.world.events.subscribe((event, userIds) => {
    if (event.type === 'presence') seen.push({ event, userIds: [...userIds] });
  });
  return seen;
}

t.test('bots are refused before parameters are read', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as('default-bot@zulip.com').post(PATH, {})), bad('This endpoint does not accept bot requests.'));
});

t.test('status is required, case-sensitive, and parsed after the other parameters', async (t) => {
  const s = testServer();
  s.clock.advance(300 * SECOND);
  const sequence = s.world.presenceSequence;
  t.same(errorOf(await s.as(hamlet).post(PATH, {})), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'status' argument" });
  t.same(errorOf(await s.as(hamlet).post(PATH, { status: 'foo' })), bad('Invalid status: foo'));
  t.same(errorOf(await s.as(hamlet).post(PATH, { status: 'Active' })), bad('Invalid status: Active'));
  t.same(errorOf(await s.as(hamlet).post(PATH, { status: 'foo', history_limit_days: 'x' })), bad('history_limit_days is not valid JSON'));
  t.same(errorOf(await s.as(hamlet).post(PATH, { status: 'foo', ping_only: 'true' })), bad('Invalid status: foo'), 'strings are raw JSON text: "true" parses');
  t.same(errorOf(await s.as(hamlet).post(PATH, { status: 'active', slim_presence: 1 })), bad('slim_presence is not a boolean'));
  t.equal(s.world.presenceSequence, sequence, 'refused reports write nothing');
});

t.test('without last_update_id the legacy format is keyed by API email', async (t) => {
  const s = testServer();
  const reply = await s.as(hamlet).post(PATH, { status: 'active' });
  t.same(Object.keys(reply.body).sort(), ['msg', 'presence_last_update_id', 'presences', 'result', 'server_timestamp']);
  t.equal(reply.body.server_timestamp, s.clock.now() / 1000);
  const key = `user${s.id(hamlet)}@zulipdev.com`;
  const now = seconds(s.clock.now());
  t.same(reply.body.presences[key], {
    aggregated: { client: 'website', status: 'active', timestamp: now },
    website: { client: 'website', status: 'active', timestamp: now, pushable: false },
  });
  t.equal(reply.body.presence_last_update_id, s.world.presenceSequence);
});

t.test('last_update_id or slim_presence select the modern format keyed by user ID', async (t) => {
  const s = testServer();
  const now = seconds(s.clock.now());
  for (const extra of [{ slim_presence: true }, { last_update_id: -1 }]) {
    const reply = await s.as(hamlet).post(PATH, { status: 'active', ...extra });
    t.same(reply.body.presences[String(s.id(othello))], { active_timestamp: now, idle_timestamp: now });
  }
});

t.test('stored times move only after more than 55 s; each change takes the next sequence number', async (t) => {
  const s = testServer();
  const row = () => s.world.presence.get(s.id(hamlet));
  const start = s.clock.now();
  const sequence = s.world.presenceSequence;
  await s.as(hamlet).post(PATH, { status: 'active', ping_only: true });
  t.equal(s.world.presenceSequence, sequence, 'a repeat within 55 s changes nothing');
  s.clock.advance(55 * SECOND);
  await s.as(hamlet).post(PATH, { status: 'active', ping_only: true });
  t.equal(s.world.presenceSequence, sequence, 'exactly 55 s is not more than 55 s');
  s.clock.advance(1 * SECOND);
  await s.as(hamlet).post(PATH, { status: 'idle', ping_only: true });
  t.equal(s.world.presenceSequence, sequence + 1);
  t.match(row(), { lastActiveTime: start, lastConnectedTime: start + 56 * SECOND, lastUpdateId: sequence + 1 });
  s.clock.advance(56 * SECOND);
  await s.as(hamlet).post(PATH, { status: 'active', ping_only: true });
  t.match(row(), { lastActiveTime: start + 112 * SECOND, lastConnectedTime: start + 112 * SECOND, lastUpdateId: sequence + 2 });
});

t.test('legacy status is active within 70 s of the last connection, idle after', async (t) => {
  const s = testServer();
  const start = s.clock.now();
  const key = `user${s.id(hamlet)}@zulipdev.com`;
  s.clock.advance(70 * SECOND);
  let reply = await s.as(hamlet).post(PATH, { status: 'idle' });
  t.same(reply.body.presences[key].aggregated, { client: 'website', status: 'active', timestamp: seconds(start) });
  s.clock.advance(60 * SECOND);
  reply = await s.as(hamlet).post(PATH, { status: 'idle' });
  t.same(reply.body.presences[key].website, { client: 'website', status: 'idle', timestamp: seconds(s.clock.now()), pushable: false });
});

t.test('polling with last_update_id returns only newer rows and echoes the id when nothing changed', async (t) => {
  const s = testServer();
  const first = await s.as(hamlet).post(PATH, { status: 'active', last_update_id: -1 });
  const id = first.body.presence_last_update_id;
  t.ok(Object.keys(first.body.presences).length > 5);
  const again = await s.as(hamlet).post(PATH, { status: 'active', last_update_id: id });
  t.same(again.body.presences, {});
  t.equal(again.body.presence_last_update_id, id);
  s.clock.advance(60 * SECOND);
  await s.as(othello).post(PATH, { status: 'active', ping_only: true });
  const third = await s.as(hamlet).post(PATH, { status: 'idle', last_update_id: id });
  t.same(Object.keys(third.body.presences).sort(), [String(s.id(hamlet)), String(s.id(othello))].sort());
  t.equal(third.body.presence_last_update_id, s.world.presenceSequence);
});

t.test('the 14-day window, history_limit_days and its 0 value', async (t) => {
  const s = testServer();
  s.clock.advance(15 * DAY);
  const fresh = await s.as(hamlet).post(PATH, { status: 'active', slim_presence: true });
  t.same(Object.keys(fresh.body.presences), [String(s.id(hamlet))], 'rows older than 14 days are left out');
  const longer = await s.as(hamlet).post(PATH, { status: 'active', slim_presence: true, history_limit_days: 30 });
  t.ok(String(s.id(othello)) in longer.body.presences);
  const none = await s.as(hamlet).post(PATH, { status: 'active', history_limit_days: 0 });
  t.same(none.body.presences, {});
  t.equal(none.body.presence_last_update_id, -1);
  const positive = await s.as(hamlet).post(PATH, { status: 'active', last_update_id: 1 });
  t.ok(String(s.id(othello)) in positive.body.presences, 'a positive last_update_id turns the window off');
  const zero = await s.as(hamlet).post(PATH, { status: 'active', last_update_id: 0 });
  t.notOk(String(s.id(othello)) in zero.body.presences, 'the window applies for 0');
});

t.test('null times fall back to date_joined in the modern format; rows never connected are windowed out', async (t) => {
  const s = testServer();
  const created = await s.as(iago).post('/users', { email: 'newbie@zulip.com', password: 'pw-123-abc', full_name: 'New Bie' });
  const newbie = s.world.users.get(created.body.user_id) as User;
  s.clock.advance(10 * SECOND);
  await s.as('newbie@zulip.com').post(PATH, { status: 'idle', ping_only: true });
  t.match(s.world.presence.get(newbie.id), { lastActiveTime: null, lastConnectedTime: s.clock.now() });
  const reply = await s.as(hamlet).post(PATH, { status: 'active', slim_presence: true });
  t.same(reply.body.presences[String(newbie.id)], { active_timestamp: seconds(newbie.dateJoined), idle_timestamp: seconds(s.clock.now()) });
  const row = s.world.presence.get(newbie.id);
  if (row) row.lastConnectedTime = null;
  const windowed = await s.as(hamlet).post(PATH, { status: 'active', slim_presence: true });
  t.notOk(String(newbie.id) in windowed.body.presences);
});

t.test('invisible users write nothing but still get the data', async (t) => {
  const s = testServer();
  userOf(s, hamlet).settings.set('presence_enabled', false);
  s.clock.advance(100 * SECOND);
  const sequence = s.world.presenceSequence;
  const reply = await s.as(hamlet).post(PATH, { status: 'active' });
  t.equal(s.world.presenceSequence, sequence);
  t.ok(Object.keys(reply.body.presences).length > 0);
});

t.test('realm-disabled presence still records reports but returns no data and -1', async (t) => {
  const s = testServer();
  const events = presenceEvents(s);
  s.world.realm.presenceDisabled = true;
  s.clock.advance(200 * SECOND);
  const reply = await s.as(hamlet).post(PATH, { status: 'active', last_update_id: 3 });
  t.same(reply.body.presences, {});
  t.equal(reply.body.presence_last_update_id, -1);
  t.equal(s.world.presence.get(s.id(hamlet))?.lastActiveTime, s.clock.now());
  t.equal(events.length, 0, 'no presence event');
  t.same((await s.as(hamlet).get('/realm/presence')).body.presences, {});
});

t.test('ping_only returns only result and msg', async (t) => {
  const s = testServer();
  t.same((await s.as(hamlet).post(PATH, { status: 'active', ping_only: true, new_user_input: true })).body, { result: 'success', msg: '' });
});

t.test('last_update_id exists from level 263 and history_limit_days from 288', async (t) => {
  const old = testServer({ featureLevel: 262 });
  const reply = await old.as(hamlet).post(PATH, { status: 'active', last_update_id: -1, history_limit_days: 0 });
  t.notOk('presence_last_update_id' in reply.body);
  t.ok(`user${old.id(hamlet)}@zulipdev.com` in reply.body.presences, 'legacy format and the default window');
  const mid = testServer({ featureLevel: 287 });
  const midReply = await mid.as(hamlet).post(PATH, { status: 'active', last_update_id: -1, history_limit_days: 0 });
  t.same(midReply.body.ignored_parameters_unsupported, ['history_limit_days']);
  t.ok(String(mid.id(hamlet)) in midReply.body.presences);
  t.ok('presence_last_update_id' in midReply.body);
});

t.test('an active report after more than 130 s without activity sends a legacy presence event', async (t) => {
  const s = testServer();
  const events = presenceEvents(s);
  s.clock.advance(130 * SECOND);
  await s.as(hamlet).post(PATH, { status: 'active', ping_only: true });
  t.equal(events.length, 0, 'exactly 130 s is not offline yet');
  s.clock.advance(131 * SECOND);
  await s.as(othello).post(PATH, { status: 'idle', ping_only: true });
  t.equal(events.length, 0, 'idle reports never announce');
  await s.as(othello).post(PATH, { status: 'active', ping_only: true });
  t.equal(events.length, 1);
  const now = seconds(s.clock.now());
  t.same(events[0]?.event, {
    type: 'presence',
    user_id: s.id(othello),
    email: `user${s.id(othello)}@zulipdev.com`,
    server_timestamp: s.clock.now() / 1000,
    presence: { website: { client: 'website', status: 'active', timestamp: now, pushable: false } },
  });
  t.ok(events[0]?.userIds.includes(s.id(hamlet)));
});

t.test('a user first seen creates a row and announces it; more than 100 recipients silences events', async (t) => {
  const s = testServer();
  const events = presenceEvents(s);
  const created = await s.as(iago).post('/users', { email: 'newbie@zulip.com', password: 'pw-123-abc', full_name: 'New Bie' });
  await s.as('newbie@zulip.com').post(PATH, { status: 'idle', ping_only: true });
  t.equal(events.length, 1);
  t.equal(events[0]?.event.user_id, created.body.user_id);
  for (let i = 0; i < 90; i++) await s.as(iago).post('/users', { email: `bulk${i}@zulip.com`, password: 'pw-123-abc', full_name: `Bulk ${i}` });
  s.clock.advance(300 * SECOND);
  await s.as(hamlet).post(PATH, { status: 'active', ping_only: true });
  t.equal(events.length, 1, 'more than 100 active users: no event');
});

t.test('GET /realm/presence: legacy format without presence_last_update_id, bots allowed', async (t) => {
  const s = testServer();
  const reply = await s.as('default-bot@zulip.com').get('/realm/presence');
  t.same(Object.keys(reply.body).sort(), ['msg', 'presences', 'result', 'server_timestamp']);
  t.ok(`user${s.id(hamlet)}@zulipdev.com` in reply.body.presences);
  t.notOk('default-bot@zulip.com' in reply.body.presences, 'bots have no presence');
});

t.test('GET /users/{id or email}/presence: aggregated becomes offline after 200 s', async (t) => {
  const s = testServer();
  const start = seconds(s.clock.now());
  const byId = await s.as(othello).get(`/users/${s.id(hamlet)}/presence`);
  t.same(byId.body, {
    result: 'success',
    msg: '',
    presence: { aggregated: { status: 'active', timestamp: start }, website: { status: 'active', timestamp: start } },
  });
  s.clock.advance(200 * SECOND);
  t.equal((await s.as(othello).get(`/users/${s.id(hamlet)}/presence`)).body.presence.aggregated.status, 'active', '200 s is not more than 200 s');
  s.clock.advance(1 * SECOND);
  const later = await s.as('default-bot@zulip.com').get(`/users/USER${s.id(hamlet)}@zulipdev.com/presence`);
  t.same(later.body.presence, { aggregated: { status: 'offline', timestamp: start }, website: { status: 'active', timestamp: start } });
});

t.test('GET /users/{id or email}/presence errors', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(othello).get('/users/9999/presence')), bad('No such user'));
  t.same(errorOf(await s.as(othello).get(`/users/${hamlet}/presence`)), bad('No such user'), 'the delivery email is not the API email here');
  t.same(errorOf(await s.as(othello).get(`/users/${s.id('default-bot@zulip.com')}/presence`)), bad('Presence is not supported for bot users.'));
  s.world.presence.delete(s.id(hamlet));
  t.same(errorOf(await s.as(othello).get(`/users/${s.id(hamlet)}/presence`)), bad(`No presence data for ${s.id(hamlet)}`));
  t.same(errorOf(await s.as(othello).get(`/users/user${s.id(hamlet)}@zulipdev.com/presence`)), bad(`No presence data for user${s.id(hamlet)}@zulipdev.com`));
  await s.as(iago).delete(`/users/${s.id('cordelia@zulip.com')}`);
  t.same(errorOf(await s.as(othello).get(`/users/${s.id('cordelia@zulip.com')}/presence`)), bad('No such user'));
  t.same(errorOf(await testServer({ featureLevel: 42 }).as(othello).get(`/users/${s.id(iago)}/presence`)), bad('No such user'), 'IDs from level 43');
  t.equal((await s.as(othello).get(`/users/${s.id(iago)}/presence`)).status, 200);
});

t.test('GET on /users/me/presence is a 405, as the static path is matched first', async (t) => {
  const s = testServer();
  t.equal((await s.as(hamlet).get(PATH)).status, 405);
});

t.test('presenceState gives register its presences, last update id and timestamp', async (t) => {
  const s = testServer();
  const modern = presenceState(s.world, userOf(s, hamlet), { slim: true });
  t.equal(modern.presence_last_update_id, s.world.presenceSequence);
  t.ok(String(s.id(othello)) in modern.presences);
  t.equal(modern.server_timestamp, s.clock.now() / 1000);
  const legacy = presenceState(s.world, userOf(s, hamlet), { slim: false, historyLimitDays: 0 });
  t.same(legacy.presences, {});
  t.equal(legacy.presence_last_update_id, -1);
});

t.test('turning invisible backdates the row and turning visible again writes now, both announced', async (t) => {
  const s = testServer();
  const events = presenceEvents(s);
  s.world.realm.presenceDisabled = true;
  await s.as(hamlet).post('/users/me/status', { away: true });
  const row = s.world.presence.get(s.id(hamlet));
  t.equal(row?.lastConnectedTime, s.clock.now() - 265 * SECOND);
  t.equal(row?.lastActiveTime, s.clock.now() - 265 * SECOND);
  t.equal(events.length, 1, 'forced even with presence disabled');
  t.equal((events[0]?.event.presence as { website: { status: string } }).website.status, 'active');
  s.clock.advance(10 * SECOND);
  await s.as(hamlet).post('/users/me/status', { away: false });
  t.equal(s.world.presence.get(s.id(hamlet))?.lastActiveTime, s.clock.now());
  t.equal(events.length, 2);
});
