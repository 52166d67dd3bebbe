/**
 * Registering an end-to-end-encrypted push device (section 4.12, FL 406; behaviour reference §8).
 * The server stores the registration as `pending` and hands it to the push relay; the relay's
 * outcome arrives later as a `push_device` event (lib/actions/personal/push/push-relay.ts simulates it).
 */
import { ApiError } from '../../../errors.js';
import type { PushRegistration } from '../../../entities/personal.js';
import type { User } from '../../../entities/user.js';
import { findRegistration } from '../../../queries/personal/push.js';
import type { World } from '../../../state/world.js';

export interface PushDeviceInput {
  readonly tokenKind: 'fcm' | 'apns';
  readonly pushAccountId: number;
  readonly pushPublicKey: string;
  readonly bouncerPublicKey: string;
  readonly encryptedPushRegistration: string;
}

/**
 * The description's code (4.12, section 7) with the real server's text. The real server sends
 * code BAD_REQUEST here (its error class sets no code); the HTTP status (400) is the same.
 */
export const pushNotConfigured = (): ApiError =>
  new ApiError('PUSH_SERVICE_NOT_CONFIGURED', 400, 'Server is not configured to use push notification service.');

/**
 * Stores (or refreshes) the registration and reports whether relay work was queued. Idempotent:
 * a registration with the same push account ID and no stored error is left alone. After a
 * failure, registering again clears the error and queues the work once more.
 */
export function registerPushDevice(world: World, user: User, input: PushDeviceInput): boolean {
  if (!world.pushConfigured) throw pushNotConfigured();
  const existing = findRegistration(world, user.id, input.pushAccountId);
  if (existing && !existing.errorCode) return false;
  const fields = {
    tokenKind: input.tokenKind,
    pushPublicKey: input.pushPublicKey,
    bouncerPublicKey: input.bouncerPublicKey,
    encryptedPushRegistration: input.encryptedPushRegistration,
    status: 'pending' as const,
    errorCode: null,
  };
  if (existing) Object.assign(existing, fields);
  else {
    const registration: PushRegistration = { userId: user.id, pushAccountId: input.pushAccountId, ...fields };
    world.pushRegistrations.push(registration);
  }
  return true;
}
