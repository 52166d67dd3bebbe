/**
 * HTTP Basic `email:api_key` to the acting user (section 5). Every failure is 401 UNAUTHORIZED
 * with the real server's message, except a non-Basic scheme, which is a 400.
 */
import { timingSafeEqual } from 'node:crypto';
import { badRequest, unauthorized } from '../../lib/errors.js';
import { BOT_TYPE, type User } from '../../lib/entities/user.js';
import type { World } from '../../lib/state/world.js';

const API_KEY = /^[A-Za-z0-9]{32}$/;
const DUMMY_KEY = Buffer.alloc(32, 0x61);
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Compares API keys in constant time; keys of other lengths never match. */
export function sameKey(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  if (a.length !== b.length) {
    timingSafeEqual(DUMMY_KEY, DUMMY_KEY);
    return false;
  }
  return timingSafeEqual(a, b);
}

function decodeCredentials(header: string): { email: string; key: string } {
  const tokens = header.trim().split(/\s+/);
  if (tokens.length !== 2) throw unauthorized('Invalid authorization header for basic auth');
  const [scheme, encoded] = tokens as [string, string];
  if (scheme.toLowerCase() !== 'basic') throw badRequest('This endpoint requires HTTP basic authentication.');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) {
    throw unauthorized('Invalid authorization header for basic auth');
  }
  let text: string;
  try {
    text = strictUtf8.decode(Buffer.from(encoded, 'base64'));
  } catch {
    throw unauthorized('Invalid authorization header for basic auth');
  }
  const parts = text.split(':');
  if (parts.length !== 2) throw unauthorized('Invalid authorization header for basic auth');
  return { email: (parts[0] as string).trim(), key: (parts[1] as string).trim() };
}

/**
 * Headers that recently authenticated, to the user and key they named. A hit is re-checked
 * against the user's current key, email and status, so a changed key or a deactivation takes
 * effect at once; a miss takes the full, constant-time path.
 */
const recent = new WeakMap<World, Map<string, { user: User; email: string; key: string }>>();
const RECENT_LIMIT = 1024;

/** The authenticated user for a request's Authorization header, or an ApiError. */
export function authenticate(world: World, header: string | undefined): User {
  if (header === undefined) throw unauthorized();
  const hit = recent.get(world)?.get(header);
  if (hit && hit.user.isActive && world.realm.deactivated !== true && hit.user.apiKey === hit.key && hit.user.deliveryEmail.toLowerCase() === hit.email) return hit.user;
  const user = authenticateFully(world, header);
  let cache = recent.get(world);
  if (!cache) {
    cache = new Map();
    recent.set(world, cache);
  }
  if (cache.size >= RECENT_LIMIT) cache.clear();
  cache.set(header, { user, email: user.deliveryEmail.toLowerCase(), key: user.apiKey });
  return user;
}

function authenticateFully(world: World, header: string): User {
  const { email, key } = decodeCredentials(header);
  if (!API_KEY.test(key)) throw unauthorized('Malformed API key');
  const user = world.usersByEmail.get(email.toLowerCase());
  // Compare even for unknown emails so timing does not reveal which addresses exist.
  const matches = sameKey(user?.apiKey ?? DUMMY_KEY.toString(), key);
  if (!user || !matches || user.isSystemBot) throw unauthorized('Invalid API key');
  if (world.realm.deactivated === true) throw unauthorized('This organization has been deactivated');
  if (!user.isActive) throw unauthorized('Account is deactivated');
  if (user.botType === BOT_TYPE.INCOMING_WEBHOOK) throw unauthorized('This API is not available to incoming webhook bots.');
  return user;
}
