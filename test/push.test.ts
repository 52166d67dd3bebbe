import t from 'tap';
import { SIMULATED_RELAY_PUBLIC_KEY } from '../lib/actions/personal/push/push-relay.js';
import { pushDevicesState } from '../lib/queries/personal/push.js';
import { recordEvents } from './support/events.js';
import { errorOf, testServer, type TestServer } from './support/harness.js';

const hamlet = 'hamlet@zulip.com';
const BOT = 'default-bot@zulip.com';

/** Lets the queued relay work run (it is scheduled after the response). */
const relayRuns = () => new Promise<void>((resolve) => setImmediate(resolve));

const seconds = (s: TestServer) => Math.floor(s.world.now() / 1000);

function registration(s: TestServer, overrides: Record<string, unknown> = {}): string {
  const dict = { token: 'c0ffee', token_kind: 'apns', timestamp: seconds(s), ios_app_id: 'com.zulip.flutter', ...overrides };
  return Buffer.from(JSON.stringify(dict)).toString('base64');
}

function params(s: TestServer, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    token_kind: 'apns',
    push_account_id: 2408,
    push_public_key: 'push-public-key',
    bouncer_public_key: SIMULATED_RELAY_PUBLIC_KEY,
    encrypted_push_registration: registration(s),
    ...overrides,
  };
}

const user = (s: TestServer) => s.world.users.get(s.id(hamlet))!;

t.test('the endpoint exists from level 406', async (t) => {
  const s = testServer({ featureLevel: 405, pushConfigured: true });
  t.equal((await s.as(hamlet).post('/mobile_push/register', params(s))).status, 404);
});

t.test('without a push service the request is refused with the documented code and the real text', async (t) => {
  const s = testServer();
  const reply = await s.as(hamlet).post('/mobile_push/register', params(s));
  // The real server sends code BAD_REQUEST here; the description documents PUSH_SERVICE_NOT_CONFIGURED.
  t.same(errorOf(reply), { status: 400, code: 'PUSH_SERVICE_NOT_CONFIGURED', msg: 'Server is not configured to use push notification service.' });
  t.same(s.world.pushRegistrations, []);
});

t.test('bots are refused before parameters are read', async (t) => {
  const s = testServer({ pushConfigured: true });
  t.same(errorOf(await s.as(BOT).post('/mobile_push/register')), { status: 400, code: 'BAD_REQUEST', msg: 'This endpoint does not accept bot requests.' });
});

t.test('parameters are validated in order before the push-service check', async (t) => {
  const s = testServer();
  const missing = (name: string) => ({ status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: `Missing '${name}' argument` });
  const cases: Array<[Record<string, unknown>, unknown]> = [
    [{}, missing('token_kind')],
    [{ token_kind: 'gcm' }, { status: 400, code: 'BAD_REQUEST', msg: 'Invalid token_kind: Value error, Not in the list of possible values' }],
    [{ token_kind: 'fcm' }, missing('push_account_id')],
    [{ token_kind: 'fcm', push_account_id: '12.5' }, { status: 400, code: 'BAD_REQUEST', msg: 'push_account_id is not an integer' }],
    [{ token_kind: 'fcm', push_account_id: 'abc' }, { status: 400, code: 'BAD_REQUEST', msg: 'push_account_id is not valid JSON' }],
    [{ token_kind: 'fcm', push_account_id: 1 }, missing('push_public_key')],
    [{ token_kind: 'fcm', push_account_id: 1, push_public_key: 'k' }, missing('bouncer_public_key')],
    [{ token_kind: 'fcm', push_account_id: 1, push_public_key: 'k', bouncer_public_key: 'b' }, missing('encrypted_push_registration')],
  ];
  for (const [sent, error] of cases) t.same(errorOf(await s.as(hamlet).post('/mobile_push/register', sent)), error, JSON.stringify(sent));
});

t.test('a registration is stored pending, then the relay turns it active with a push_device event', async (t) => {
  const s = testServer({ pushConfigured: true });
  const events = recordEvents(s);
  const reply = await s.as(hamlet).post('/mobile_push/register', params(s));
  t.same(reply.body, { result: 'success', msg: '' });
  t.same(pushDevicesState(s.world, user(s)), { '2408': { status: 'pending', error_code: null } });
  await relayRuns();
  t.same(pushDevicesState(s.world, user(s)), { '2408': { status: 'active', error_code: null } });
  t.same(events, [{ event: { type: 'push_device', push_account_id: '2408', status: 'active' }, userIds: [s.id(hamlet)] }]);
  t.match(s.world.pushRegistrations[0], { userId: s.id(hamlet), pushAccountId: 2408, tokenKind: 'apns', pushPublicKey: 'push-public-key' });
});

t.test('registering again with the same push account ID does nothing; another ID is a second device', async (t) => {
  const s = testServer({ pushConfigured: true });
  await s.as(hamlet).post('/mobile_push/register', params(s));
  await relayRuns();
  const events = recordEvents(s);
  t.equal((await s.as(hamlet).post('/mobile_push/register', params(s, { push_public_key: 'changed' }))).status, 200);
  await relayRuns();
  t.equal(events.length, 0);
  t.equal(s.world.pushRegistrations.length, 1);
  t.equal(s.world.pushRegistrations[0]!.pushPublicKey, 'push-public-key');
  await s.as(hamlet).post('/mobile_push/register', params(s, { push_account_id: 7, token_kind: 'fcm', encrypted_push_registration: registration(s, { token_kind: 'fcm', token: 'fcm-token', ios_app_id: undefined }) }));
  await relayRuns();
  t.same(pushDevicesState(s.world, user(s)), { '2408': { status: 'active', error_code: null }, '7': { status: 'active', error_code: null } });
});

t.test('the relay reports failures with their error codes; a correct retry clears the error', async (t) => {
  const s = testServer({ pushConfigured: true });
  const events = recordEvents(s);
  const old = Math.floor(s.world.now() / 1000) - 2 * 24 * 3600;
  const failures: Array<[Record<string, unknown>, string]> = [
    [{ push_account_id: 1, bouncer_public_key: 'retired-key' }, 'INVALID_BOUNCER_PUBLIC_KEY'],
    [{ push_account_id: 2, encrypted_push_registration: 'not base64!' }, 'BAD_REQUEST'],
    [{ push_account_id: 3, encrypted_push_registration: registration(s, { timestamp: old }) }, 'REQUEST_EXPIRED'],
    [{ push_account_id: 4, encrypted_push_registration: registration(s, { token: 'not-hex' }) }, 'BAD_REQUEST'],
    [{ push_account_id: 5, encrypted_push_registration: registration(s, { ios_app_id: undefined }) }, 'BAD_REQUEST'],
    [{ push_account_id: 6, encrypted_push_registration: registration(s, { token_kind: 'fcm' }) }, 'BAD_REQUEST'],
  ];
  for (const [overrides] of failures) t.equal((await s.as(hamlet).post('/mobile_push/register', params(s, overrides))).status, 200);
  await relayRuns();
  t.same(
    events.map((e) => e.event),
    failures.map(([overrides, code]) => ({ type: 'push_device', push_account_id: String(overrides.push_account_id), status: 'failed', error_code: code })),
  );
  t.same(pushDevicesState(s.world, user(s))['1'], { status: 'failed', error_code: 'INVALID_BOUNCER_PUBLIC_KEY' });
  events.length = 0;
  await s.as(hamlet).post('/mobile_push/register', params(s, { push_account_id: 1 }));
  t.same(pushDevicesState(s.world, user(s))['1'], { status: 'pending', error_code: null }, 'the error is cleared at once');
  await relayRuns();
  t.same(events.map((e) => e.event), [{ type: 'push_device', push_account_id: '1', status: 'active' }]);
});

t.test("another user's registrations are separate, even with the same push account ID", async (t) => {
  const s = testServer({ pushConfigured: true });
  await s.as(hamlet).post('/mobile_push/register', params(s));
  await s.as('othello@zulip.com').post('/mobile_push/register', params(s));
  await relayRuns();
  t.equal(s.world.pushRegistrations.length, 2);
  t.same(Object.keys(pushDevicesState(s.world, s.world.users.get(s.id('othello@zulip.com'))!)), ['2408']);
});
