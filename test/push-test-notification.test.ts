/**
 * `POST /mobile_push/test_notification` (level 217): zerver/views/push_notifications.py
 * `send_test_push_notification_api` and zerver/lib/push_notifications.py
 * `send_test_push_notification`; the refusal is zerver/tests/test_push_notifications.py
 * `test_send_test_push_notification_api_invalid_token`. Nothing reaches a device here, as on a
 * real server with no push service configured, which answers success all the same.
 */
import t from 'tap';
import { HAMLET, OTHELLO } from './support/channels.js';
import { bad, basic, Client, errorOf, testServer } from './support/harness.js';

const TEST = '/mobile_push/test_notification';
const NOT_RECOGNIZED = { status: 400, code: 'INVALID_PUSH_DEVICE_TOKEN', msg: 'Device not recognized' };

t.test('a test notification succeeds for all of the caller\'s devices, even when it has none', async (t) => {
  const s = testServer();
  t.same((await s.as(HAMLET).post(TEST)).body, { result: 'success', msg: '' }, 'no devices');
  t.equal((await s.as(HAMLET).post('/users/me/apns_device_token', { token: 'abcdef0123', appid: 'org.zulip.Zulip' })).status, 200);
  t.equal((await s.as(HAMLET).post('/users/me/android_gcm_reg_id', { token: 'android-token' })).status, 200);
  t.same((await s.as(HAMLET).post(TEST)).body, { result: 'success', msg: '' }, 'two devices');
  t.same((await s.as(HAMLET).post(TEST, { token: 'abcdef0123' })).body, { result: 'success', msg: '' }, 'an APNs token of the caller');
  t.same((await s.as(HAMLET).post(TEST, { token: 'android-token' })).body, { result: 'success', msg: '' }, 'an FCM token of the caller');
  t.equal(s.world.legacyPushTokens.length, 2, 'testing changes no registration');
});

t.test('a token that is not one of the caller\'s devices is INVALID_PUSH_DEVICE_TOKEN "Device not recognized"', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(HAMLET).post(TEST, { token: 'invalid' })), NOT_RECOGNIZED);
  await s.as(OTHELLO).post('/users/me/android_gcm_reg_id', { token: 'othello-token' });
  t.same(errorOf(await s.as(HAMLET).post(TEST, { token: 'othello-token' })), NOT_RECOGNIZED, 'another user\'s token');
  t.same(errorOf(await s.as(HAMLET).post(TEST, { token: '' })), NOT_RECOGNIZED, 'an empty token is looked up like any other');
});

t.test('bots are refused and the endpoint exists from level 217', async (t) => {
  const s = testServer();
  const bot = s.world.usersByEmail.get('default-bot@zulip.com');
  const client = new Client(s.app, basic('default-bot@zulip.com', bot?.apiKey ?? ''));
  t.same(errorOf(await client.post(TEST)), bad('This endpoint does not accept bot requests.'));
  t.equal((await testServer({ featureLevel: 216 }).as(HAMLET).post(TEST)).status, 404);
  t.equal((await testServer({ featureLevel: 217 }).as(HAMLET).post(TEST)).status, 200);
});
