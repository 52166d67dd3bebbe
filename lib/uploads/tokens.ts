/**
 * Short-lived download tokens for `/user_uploads/temporary/<token>/<file name>`, as the real
 * server's `generate_unauthed_file_access_url` makes them: the path signed with a server secret
 * and a timestamp, hex-encoded, valid for 60 seconds on the world's clock.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { World } from '../state/world.js';

/** The real server's `SIGNED_ACCESS_TOKEN_VALIDITY_IN_SECONDS`. */
export const UPLOAD_TOKEN_LIFETIME_MS = 60_000;

/** One secret per world, made on first use and never exposed. */
const secrets = new WeakMap<World, Buffer>();

function secretOf(world: World): Buffer {
  let secret = secrets.get(world);
  if (!secret) {
    secret = randomBytes(32);
    secrets.set(world, secret);
  }
  return secret;
}

const sign = (world: World, data: string): string => createHmac('sha256', secretOf(world)).update(data).digest('base64url');

/** A token granting access to `pathId` until the lifetime passes. */
export function uploadToken(world: World, pathId: string): string {
  const data = `${pathId}:${world.now().toString(36)}`;
  return Buffer.from(`${data}:${sign(world, data)}`, 'utf8').toString('hex').toUpperCase();
}

/** The path a token grants, or undefined when it is malformed, forged or expired. */
export function pathOfUploadToken(world: World, token: string): string | undefined {
  if (!/^(?:[0-9A-F]{2})+$/.test(token)) return undefined;
  const text = Buffer.from(token, 'hex').toString('utf8');
  const cut = text.lastIndexOf(':');
  const data = text.slice(0, cut);
  const given = Buffer.from(text.slice(cut + 1));
  const expected = Buffer.from(sign(world, data));
  if (cut < 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const stamp = data.lastIndexOf(':');
  const issued = parseInt(data.slice(stamp + 1), 36);
  if (!(world.now() - issued <= UPLOAD_TOKEN_LIFETIME_MS)) return undefined;
  return data.slice(0, stamp);
}

/** `/user_uploads/temporary/<token>/<file name>`. */
export const temporaryUploadUrl = (world: World, pathId: string): string =>
  `/user_uploads/temporary/${uploadToken(world, pathId)}/${pathId.split('/').pop() ?? ''}`;
