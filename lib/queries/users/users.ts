/** User lookups and the API shape of a user (section 2.3). */
import { createHash } from 'node:crypto';
import { badRequest } from '../../errors.js';
import { EMAIL_VISIBILITY, emailVisibility, ROLE, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';
import { canAccessUser } from './access.js';

/** The address other users and the API know this user by: real, or synthetic when restricted. */
export function apiEmail(world: World, user: User): string {
  if (user.isSystemBot || emailVisibility(user) === EMAIL_VISIBILITY.EVERYONE) return user.deliveryEmail;
  return `user${user.id}@${world.realm.fakeEmailDomain}`;
}

/** Viewer roles allowed to see the real email, per the target's visibility setting. */
const VISIBLE_TO = new Map<number, readonly number[]>([
  [EMAIL_VISIBILITY.EVERYONE, [ROLE.OWNER, ROLE.ADMINISTRATOR, ROLE.MODERATOR, ROLE.MEMBER, ROLE.GUEST]],
  [EMAIL_VISIBILITY.MEMBERS, [ROLE.OWNER, ROLE.ADMINISTRATOR, ROLE.MODERATOR, ROLE.MEMBER]],
  [EMAIL_VISIBILITY.ADMINS, [ROLE.OWNER, ROLE.ADMINISTRATOR]],
  [EMAIL_VISIBILITY.MODERATORS, [ROLE.OWNER, ROLE.ADMINISTRATOR, ROLE.MODERATOR]],
  [EMAIL_VISIBILITY.NOBODY, []],
]);

export function canSeeDeliveryEmail(viewer: User, target: User): boolean {
  if (viewer.id === target.id) return true;
  return VISIBLE_TO.get(emailVisibility(target))?.includes(viewer.role) ?? false;
}

/** Gravatar hashes by user, recomputed only when the email changes (hashing is per request otherwise). */
const gravatarHashes = new WeakMap<User, { email: string; hash: string }>();

export function gravatarUrl(user: User): string {
  let cached = gravatarHashes.get(user);
  if (cached?.email !== user.deliveryEmail) {
    cached = { email: user.deliveryEmail, hash: createHash('md5').update(user.deliveryEmail.toLowerCase()).digest('hex') };
    gravatarHashes.set(user, cached);
  }
  return `https://secure.gravatar.com/avatar/${cached.hash}?d=identicon&version=${user.avatarVersion}`;
}

export function avatarUrl(world: World, user: User, clientGravatar: boolean): string | null {
  if (user.avatarSource === 'U') return `/user_avatars/${world.realm.id}/${user.id}.png?version=${user.avatarVersion}`;
  if (clientGravatar && emailVisibility(user) === EMAIL_VISIBILITY.EVERYONE) return null;
  return gravatarUrl(user);
}

/** ISO-8601 with minute precision and offset, as the current server formats `date_joined`. */
export function formatDateJoined(ms: number): string {
  let text = dateJoinedTexts.get(ms);
  if (text === undefined) {
    text = `${new Date(ms).toISOString().slice(0, 16)}+00:00`;
    if (dateJoinedTexts.size > 10_000) dateJoinedTexts.clear();
    dateJoinedTexts.set(ms, text);
  }
  return text;
}
const dateJoinedTexts = new Map<number, string>();

/** Custom profile field types whose values are Markdown and get a `rendered_value`. */
const RENDERED_FIELD_TYPES = new Set([1, 2]);

export interface UserViewOptions {
  readonly clientGravatar: boolean;
  readonly includeCustomProfileFields: boolean;
  readonly renderMarkdown: (text: string) => string;
}

export function toApiUser(world: World, user: User, viewer: User, options: UserViewOptions): Record<string, unknown> {
  const seesEmail = canSeeDeliveryEmail(viewer, user);
  const out: Record<string, unknown> = {
    email: apiEmail(world, user),
    user_id: user.id,
    avatar_version: user.avatarVersion,
    is_admin: user.role === ROLE.OWNER || user.role === ROLE.ADMINISTRATOR,
    is_owner: user.role === ROLE.OWNER,
    is_guest: user.role === ROLE.GUEST,
  };
  if (!world.has(FEATURES.BILLING_ADMIN_REMOVED)) out.is_billing_admin = false;
  out.role = user.role;
  out.is_bot = user.isBot;
  out.full_name = user.fullName;
  out.timezone = user.timezone;
  out.is_active = user.isActive;
  out.date_joined = formatDateJoined(user.dateJoined);
  if (world.has(FEATURES.DELIVERY_EMAIL_ALWAYS)) {
    out.delivery_email = seesEmail ? user.deliveryEmail : null;
  } else if (seesEmail && emailVisibility(user) !== EMAIL_VISIBILITY.EVERYONE) {
    out.delivery_email = user.deliveryEmail;
  }
  // Section 2.3: null when client_gravatar is true, the caller can access the real email and the
  // avatar is a Gravatar. (The real server asks instead that the target's email be public to everyone.)
  out.avatar_url = options.clientGravatar && seesEmail && user.avatarSource === 'G' ? null : avatarUrl(world, user, false);
  // Section 2.3 gives non-bots `bot_type: null`; the real server leaves both keys out.
  out.bot_type = user.isBot ? user.botType : null;
  out.bot_owner_id = user.isBot ? user.botOwnerId : null;
  if (user.isSystemBot) out.is_system_bot = true;
  if (!user.isBot && options.includeCustomProfileFields) {
    const entries: Array<[string, Record<string, string>]> = [];
    for (const field of world.customProfileFields) {
      const value = user.profileData.get(field.id);
      if (value === undefined) continue;
      const entry: Record<string, string> = { value };
      if (RENDERED_FIELD_TYPES.has(field.type)) entry.rendered_value = options.renderMarkdown(value);
      entries.push([String(field.id), entry]);
    }
    out.profile_data = Object.fromEntries(entries);
  }
  return out;
}

/** The placeholder a restricted guest sees in place of a user it cannot access. */
export function inaccessibleUserPlaceholder(world: World, user: User): Record<string, unknown> {
  return {
    email: `user${user.id}@${world.realm.fakeEmailDomain}`,
    user_id: user.id,
    avatar_version: 1,
    is_admin: false,
    is_owner: false,
    is_guest: false,
    role: ROLE.MEMBER,
    is_bot: false,
    full_name: 'Unknown user',
    timezone: '',
    is_active: true,
    date_joined: '1970-01-01T00:00:00+00:00',
    delivery_email: null,
    avatar_url: null,
  };
}

export interface TargetLookup {
  readonly allowDeactivated: boolean;
  readonly allowBots: boolean;
}

/**
 * Finds a user of the realm for an operation on it, with the real server's messages: `No such
 * user` (unknown, other realm, or a refused bot), `User is deactivated`, `Insufficient permission`.
 */
export function accessUserById(world: World, viewer: User, userId: number, lookup: TargetLookup): User {
  const target = world.users.get(userId);
  if (!target || target.isSystemBot) throw badRequest('No such user');
  if (target.isBot && !lookup.allowBots) throw badRequest('No such user');
  if (!target.isActive && !lookup.allowDeactivated) throw badRequest('User is deactivated');
  if (!canAccessUser(world, viewer, target)) throw badRequest('Insufficient permission');
  return target;
}

/**
 * `GET /users/{email}`'s lookup: the user whose API email this is, or whose delivery email it is
 * when the viewer may see that address; case-insensitive; `No such user` otherwise.
 */
export function userByEmailFor(world: World, viewer: User, email: string): User {
  const lower = email.toLowerCase();
  for (const user of world.users.values()) {
    if (user.isSystemBot) continue;
    if (apiEmail(world, user).toLowerCase() === lower || (user.deliveryEmail.toLowerCase() === lower && canSeeDeliveryEmail(viewer, user))) return user;
  }
  throw badRequest('No such user');
}

/** Finds a user by API email or delivery email, case-insensitively. */
export function userByAnyEmail(world: World, email: string): User | undefined {
  const lower = email.toLowerCase();
  const byDelivery = world.usersByEmail.get(lower);
  if (byDelivery && !byDelivery.isSystemBot) return byDelivery;
  for (const user of world.users.values()) {
    if (!user.isSystemBot && apiEmail(world, user).toLowerCase() === lower) return user;
  }
  return undefined;
}
