/**
 * `POST /mobile_push/register` (section 4.12, FL 406). Bots are refused before parameters are
 * read; the push-service check comes after them. The relay work runs after the response, as the
 * real server queues it.
 */
import { registerPushDevice } from '../../../lib/actions/personal/push/push.js';
import { processPendingPushRegistrations } from '../../../lib/actions/personal/push/push-relay.js';
import { notForBots } from '../../../lib/errors.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { int } from '../../../lib/input/schema.js';
import type { World } from '../../../lib/state/world.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { choiceStr, json, str } from '../../app/params.js';

function queueRelayWork(world: World): void {
  setImmediate(() => processPendingPushRegistrations(world)).unref();
}

const register = authed({
  since: FEATURES.PUSH_REGISTER,
  gate({ user }) {
    if (user.isBot) throw notForBots();
  },
  params: {
    token_kind: choiceStr('fcm', 'apns').required(),
    // No range check and no key or base64 validation at FL 406: the relay checks them later.
    push_account_id: json(int).required(),
    push_public_key: str().required(),
    bouncer_public_key: str().required(),
    encrypted_push_registration: str().required(),
  },
  run({ world, user }, args) {
    const queued = registerPushDevice(world, user, {
      tokenKind: args.token_kind,
      pushAccountId: args.push_account_id,
      pushPublicKey: args.push_public_key,
      bouncerPublicKey: args.bouncer_public_key,
      encryptedPushRegistration: args.encrypted_push_registration,
    });
    if (queued) queueRelayWork(world);
    return {};
  },
});

export const routes: RouteDef[] = [{ path: '/mobile_push/register', methods: { POST: register } }];
