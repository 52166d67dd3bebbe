/**
 * A simulated push relay ("bouncer") for servers started with a push service configured. The
 * real relay decrypts `encrypted_push_registration` with its private key; this one has no
 * cryptography: it knows one public key, {@link SIMULATED_RELAY_PUBLIC_KEY}, and reads the
 * "ciphertext" as standard base64 of the JSON registration dictionary (section 2.9:
 * `token`, `token_kind`, `timestamp` in seconds, and `ios_app_id` for APNs).
 *
 * Outcomes follow the real relay (behaviour reference §8.3): an unknown relay key fails with
 * `INVALID_BOUNCER_PUBLIC_KEY`; text that does not decode, or a dictionary the relay refuses
 * (empty token, non-hex APNs token, unknown token kind, APNs without `ios_app_id`, FCM with one,
 * a malformed `ios_app_id`), fails with `BAD_REQUEST`; a timestamp older than a day fails with
 * `REQUEST_EXPIRED`; otherwise the registration becomes `active`. Each outcome is sent to the
 * user as a `push_device` event.
 */
import type { PushRegistration } from '../../../entities/personal.js';
import { type JsonObject, tryParseJson } from '../../../input/json.js';
import type { World } from '../../../state/world.js';

/** The only relay public key the simulated relay accepts (the OpenAPI example's value). */
export const SIMULATED_RELAY_PUBLIC_KEY = 'bouncer-public-key';

/** How old a registration's timestamp may be (the real relay's tests expire one 2 days old). */
export const REGISTRATION_MAX_AGE_SECONDS = 24 * 60 * 60;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function decodeRegistration(text: string): JsonObject | undefined {
  if (text === '' || !BASE64.test(text)) return undefined;
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.from(text, 'base64'));
  const parsed = tryParseJson(decoded);
  return parsed?.value instanceof Map ? parsed.value : undefined;
}

function payloadIsValid(payload: JsonObject): boolean {
  const token = payload.get('token');
  const kind = payload.get('token_kind');
  const appId = payload.get('ios_app_id');
  if (typeof token !== 'string' || token === '') return false;
  if (kind === 'apns') {
    return /^[0-9a-fA-F]+$/.test(token) && typeof appId === 'string' && /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/.test(appId);
  }
  return kind === 'fcm' && appId === undefined;
}

/** The relay's verdict: null when the registration is accepted, else the error code. */
export function relayVerdict(world: World, registration: PushRegistration): string | null {
  if (registration.bouncerPublicKey !== SIMULATED_RELAY_PUBLIC_KEY) return 'INVALID_BOUNCER_PUBLIC_KEY';
  const payload = decodeRegistration(registration.encryptedPushRegistration);
  if (!payload) return 'BAD_REQUEST';
  const timestamp = payload.get('timestamp');
  if (typeof timestamp !== 'number') return 'BAD_REQUEST';
  if (world.now() / 1000 - timestamp > REGISTRATION_MAX_AGE_SECONDS) return 'REQUEST_EXPIRED';
  return payloadIsValid(payload) ? null : 'BAD_REQUEST';
}

/** Runs the queued relay work: every pending registration becomes active or failed, with its event. */
export function processPendingPushRegistrations(world: World): void {
  for (const registration of world.pushRegistrations) {
    if (registration.status !== 'pending') continue;
    const errorCode = relayVerdict(world, registration);
    registration.status = errorCode === null ? 'active' : 'failed';
    registration.errorCode = errorCode;
    world.events.send(
      {
        type: 'push_device',
        push_account_id: String(registration.pushAccountId),
        status: registration.status,
        ...(errorCode === null ? {} : { error_code: errorCode }),
      },
      [registration.userId],
    );
  }
}
