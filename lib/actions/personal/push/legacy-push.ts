/**
 * Legacy mobile push registration (`POST`/`DELETE /users/me/apns_device_token` and
 * `/users/me/android_gcm_reg_id`), as the real server's views do it without a push bouncer: the
 * token is checked and stored (registering again only updates the app ID); removing an unknown
 * token is "Token does not exist". Nothing is sent to any push service and no event is emitted.
 */
import { ApiError, badRequest } from '../../../errors.js';
import type { LegacyPushToken } from '../../../entities/personal.js';
import type { User } from '../../../entities/user.js';
import type { World } from '../../../state/world.js';

/** The longest token the real server accepts, in code points (Python's `len`). */
const MAX_TOKEN_LENGTH = 4096;
/**
 * Python's `bytes.fromhex`: hexadecimal pairs, with ASCII whitespace (only) allowed between
 * pairs; any other character, a non-ASCII space included, is refused.
 */
const HEX_BYTES = /^(?:[ \t\n\v\f\r]*[0-9a-fA-F]{2})*[ \t\n\v\f\r]*$/;

/** Python's `len`: code points, counted only when the UTF-16 length could exceed the limit. */
const tooLong = (token: string): boolean => token.length > MAX_TOKEN_LENGTH && [...token].length > MAX_TOKEN_LENGTH;

/**
 * `validate_token` (zerver/lib/push_notifications.py): not empty, at most 4096 characters, and
 * for APNs what `bytes.fromhex` decodes. Older real servers only required APNs tokens to decode
 * as base64 (docs/deviations.md).
 */
export function validateToken(token: string, kind: LegacyPushToken['kind']): void {
  if (token === '' || tooLong(token)) throw badRequest('Empty or invalid length token');
  if (kind === 'apns' && !HEX_BYTES.test(token)) throw badRequest('Invalid APNS token');
}

/** The app ID an APNs token got before level 223 made `appid` required (`ZULIP_IOS_APP_ID`). */
export const DEFAULT_IOS_APP_ID = 'org.zulip.Zulip';

/** `check_app_id`: letters, digits, dots and dashes. */
export function checkAppId(appId: string): string {
  if (!/^[.a-zA-Z0-9-]+$/.test(appId)) throw badRequest('Invalid app ID');
  return appId;
}

const find = (world: World, user: User, kind: LegacyPushToken['kind'], token: string): LegacyPushToken | undefined =>
  world.legacyPushTokens.find((t) => t.userId === user.id && t.kind === kind && t.token === token);

export function addLegacyPushToken(world: World, user: User, kind: LegacyPushToken['kind'], token: string, appId: string | null): void {
  validateToken(token, kind);
  const existing = find(world, user, kind, token);
  if (existing) existing.appId = appId;
  else world.legacyPushTokens.push({ userId: user.id, kind, token, appId });
}

export function removeLegacyPushToken(world: World, user: User, kind: LegacyPushToken['kind'], token: string): void {
  validateToken(token, kind);
  const existing = find(world, user, kind, token);
  if (!existing) throw badRequest('Token does not exist');
  world.legacyPushTokens.splice(world.legacyPushTokens.indexOf(existing), 1);
}

/** `InvalidPushDeviceTokenError` (zerver/lib/push_notifications.py). */
const deviceNotRecognized = (): ApiError => new ApiError('INVALID_PUSH_DEVICE_TOKEN', 400, 'Device not recognized');

/**
 * `POST /mobile_push/test_notification` (level 217): a named token must be one of the caller's
 * (of either kind), else `Device not recognized`; without one, every device of the caller is
 * meant. The real server then hands a test notification to its push service for each device,
 * and drops it when none is configured; here nothing is sent either, and the answer is the same
 * success. Returns the devices a real server would notify.
 */
export function testPushNotificationDevices(world: World, user: User, token: string | undefined): LegacyPushToken[] {
  const mine = world.legacyPushTokens.filter((t) => t.userId === user.id);
  if (token === undefined) return mine;
  const device = mine.find((t) => t.token === token);
  if (!device) throw deviceNotRecognized();
  return [device];
}
