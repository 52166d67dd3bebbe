/**
 * Legacy push tokens: `POST`/`DELETE /users/me/apns_device_token` (`token`, `appid`) and
 * `/users/me/android_gcm_reg_id` (`token`). Human users only. Not in the description.
 */
import { addLegacyPushToken, checkAppId, removeLegacyPushToken } from '../../../lib/actions/personal/legacy-push.js';
import { notForBots } from '../../../lib/errors.js';
import { authed, type AuthedContext, type RouteDef } from '../../app/endpoint.js';
import { str } from '../../app/params.js';

const humansOnly = ({ user }: AuthedContext): void => {
  if (user.isBot) throw notForBots();
};

const addApns = authed({
  gate: humansOnly,
  params: { token: str().required(), appid: str().check((value) => void checkAppId(value)).required() },
  run({ world, user }, args) {
    addLegacyPushToken(world, user, 'apns', args.token, args.appid);
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

export const routes: RouteDef[] = [
  { path: '/users/me/apns_device_token', methods: { POST: addApns, DELETE: removeApns } },
  { path: '/users/me/android_gcm_reg_id', methods: { POST: addAndroid, DELETE: removeAndroid } },
];
