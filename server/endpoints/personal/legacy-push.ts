/**
 * Legacy push tokens: `POST`/`DELETE /users/me/apns_device_token` (`token`, `appid`) and
 * `/users/me/android_gcm_reg_id` (`token`). Human users only. Not in the description. And
 * `POST /mobile_push/test_notification` (level 217, optional `token`), which tests these devices.
 */
import { addLegacyPushToken, checkAppId, DEFAULT_IOS_APP_ID, removeLegacyPushToken, testPushNotificationDevices } from '../../../lib/actions/personal/push/legacy-push.js';
import { missingArgument, notForBots } from '../../../lib/errors.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { authed, type AuthedContext, type RouteDef } from '../../app/endpoint.js';
import { str } from '../../app/params.js';

const humansOnly = ({ user }: AuthedContext): void => {
  if (user.isBot) throw notForBots();
};

const addApns = authed({
  gate: humansOnly,
  params: { token: str().required(), appid: str().check((value) => void checkAppId(value)) },
  run({ world, user }, args) {
    // Level 223 made `appid` required; before it the server's iOS app ID stood in.
    if (args.appid === undefined && world.has(FEATURES.APNS_APPID_REQUIRED)) throw missingArgument('appid');
    addLegacyPushToken(world, user, 'apns', args.token, args.appid ?? DEFAULT_IOS_APP_ID);
    return {};
  },
});

const removeApns = authed({
  gate: humansOnly,
  params: { token: str().required() },
  run({ world, user }, args) {
    removeLegacyPushToken(world, user, 'apns', args.token);
    return {};
  },
});

const addAndroid = authed({
  gate: humansOnly,
  params: { token: str().required() },
  run({ world, user }, args) {
    addLegacyPushToken(world, user, 'fcm', args.token, null);
    return {};
  },
});

const removeAndroid = authed({
  gate: humansOnly,
  params: { token: str().required() },
  run({ world, user }, args) {
    removeLegacyPushToken(world, user, 'fcm', args.token);
    return {};
  },
});

const testNotification = authed({
  since: FEATURES.PUSH_TEST_NOTIFICATION,
  gate: humansOnly,
  params: { token: str() },
  run({ world, user }, args) {
    testPushNotificationDevices(world, user, args.token);
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/mobile_push/test_notification', methods: { POST: testNotification } },
  { path: '/users/me/apns_device_token', methods: { POST: addApns, DELETE: removeApns } },
  { path: '/users/me/android_gcm_reg_id', methods: { POST: addAndroid, DELETE: removeAndroid } },
];
