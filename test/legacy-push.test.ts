import t from 'tap';
import { HAMLET, OTHELLO } from './support/channels.js';
import { bad, basic, Client, errorOf, testServer } from './support/harness.js';

const APNS = '/users/me/apns_device_token';
const ANDROID = '/users/me/android_gcm_reg_id';

t.test('legacy push tokens are stored per user and kind, and removed again', async (t) => {
  const s = testServer();
  t.equal((await s.as(HAMLET).post(APNS, { token: 'abcdef0123', appid: 'org.zulip.Zulip' })).status, 200);
  t.equal((await s.as(HAMLET).post(APNS, { token: 'abcdef0123', appid: 'org.zulip.Other' })).status, 200, 'registering again updates the app ID');
  t.equal((await s.as(HAMLET).post(ANDROID, { token: 'android-token' })).status, 200);
  t.same(s.world.legacyPushTokens, [
    { userId: s.id(HAMLET), kind: 'apns', token: 'abcdef0123', appId: 'org.zulip.Other' },
    { userId: s.id(HAMLET), kind: 'fcm', token: 'android-token', appId: null },
  ]);
  t.same(errorOf(await s.as(OTHELLO).delete(ANDROID, { token: 'android-token' })), bad('Token does not exist'), 'another user\'s token');
  t.same(errorOf(await s.as(HAMLET).delete(APNS, { token: 'android-token' })), bad('Invalid APNS token'));
  t.equal((await s.as(HAMLET).delete(ANDROID, { token: 'android-token' })).status, 200);
  t.equal((await s.as(HAMLET).delete(APNS, { token: 'abcdef0123' })).status, 200);
  t.same(s.world.legacyPushTokens, []);
});

const refusals: ReadonlyArray<readonly [string, string, Record<string, string>, string]> = [
  ['an empty token', ANDROID, { token: '' }, 'Empty or invalid length token'],
  ['a token over 4096 characters', ANDROID, { token: 'a'.repeat(4097) }, 'Empty or invalid length token'],
  ['an APNs token that is not hexadecimal', APNS, { token: 'xyz', appid: 'org.zulip.Zulip' }, 'Invalid APNS token'],
  // `bytes.fromhex` skips ASCII whitespace between pairs only; a no-break space is not one.
  ['an APNs token with a non-ASCII space', APNS, { token: 'ab\u00a0cd', appid: 'org.zulip.Zulip' }, 'Invalid APNS token'],
  ['an APNs token of an odd number of digits', APNS, { token: 'abc', appid: 'org.zulip.Zulip' }, 'Invalid APNS token'],
  ['an app ID with other characters', APNS, { token: 'ab', appid: 'org zulip' }, 'Invalid app ID'],
  ['an unknown token', ANDROID, { token: 'never-registered' }, 'Token does not exist'],
];

for (const [what, path, params, msg] of refusals) {
  t.test(`legacy push registration refuses ${what}`, async (t) => {
    const s = testServer();
    const method = msg === 'Token does not exist' ? 'delete' : 'post';
    t.same(errorOf(await s.as(HAMLET)[method](path, params)), bad(msg));
    t.same(s.world.legacyPushTokens, []);
  });
}

t.test('legacy push: the APNs app ID is required and bots are refused', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(HAMLET).post(APNS, { token: 'ab' })), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'appid' argument" });
  const bot = s.world.usersByEmail.get('default-bot@zulip.com');
  const client = new Client(s.app, basic('default-bot@zulip.com', bot?.apiKey ?? ''));
  t.same(errorOf(await client.post(ANDROID, { token: 'x' })), bad('This endpoint does not accept bot requests.'));
});

t.test('legacy push: APNs tokens are what bytes.fromhex decodes, and the length limit counts code points (zerver/lib/push_notifications.py validate_token)', async (t) => {
  const s = testServer();
  t.equal((await s.as(HAMLET).post(APNS, { token: 'ab cd\tef\n', appid: 'org.zulip.Zulip' })).status, 200, 'ASCII whitespace between pairs');
  t.equal((await s.as(HAMLET).post(ANDROID, { token: '\u{1F600}'.repeat(4096) })).status, 200, '4096 emoji are 4096 characters to Python');
  t.same(errorOf(await s.as(HAMLET).post(ANDROID, { token: '\u{1F600}'.repeat(4097) })), bad('Empty or invalid length token'));
});

t.test('legacy push: before level 223 a missing appid means org.zulip.Zulip (changelog, feature level 223)', async (t) => {
  const s = testServer({ featureLevel: 222 });
  t.equal((await s.as(HAMLET).post(APNS, { token: 'abcd' })).status, 200);
  t.same(s.world.legacyPushTokens, [{ userId: s.id(HAMLET), kind: 'apns', token: 'abcd', appId: 'org.zulip.Zulip' }]);
  const at223 = testServer({ featureLevel: 223 });
  t.same(errorOf(await at223.as(HAMLET).post(APNS, { token: 'abcd' })), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'appid' argument" });
});
