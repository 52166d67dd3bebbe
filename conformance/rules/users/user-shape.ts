/**
 * The user object of section 2.3 (GET /users/{id} `user`, GET /users `members[]`, GET /users/me),
 * as a validator plus the cross-field checks a validator cannot express (role flags, bot fields,
 * profile_data presence, avatar_url).
 */
import { type InferObject, v } from '../../expect/shape.js';

const ROLE_CODES = [100, 200, 300, 400, 600] as const;

/** Feature levels of the user object's history (section 2.3, behaviour reference 4.4). */
export const USER_LEVELS = { ROLE: 59, DELIVERY_EMAIL_ALWAYS: 163, BILLING_ADMIN_REMOVED: 363 } as const;

const profileEntry = v.object({ value: v.string(), rendered_value: v.optional(v.string()) });

function fields(level: number) {
  return {
    user_id: v.int({ min: 1 }),
    email: v.string(),
    full_name: v.string(),
    date_joined: v.string({ nonEmpty: true }),
    is_active: v.bool(),
    is_owner: v.optional(v.bool()),
    is_admin: v.bool(),
    is_guest: v.optional(v.bool()),
    is_bot: v.bool(),
    avatar_version: v.optional(v.int()),
    timezone: v.optional(v.string()),
    avatar_url: v.nullable(v.string()),
    delivery_email: level >= USER_LEVELS.DELIVERY_EMAIL_ALWAYS ? v.nullable(v.string()) : v.optional(v.nullable(v.string())),
    role: level >= USER_LEVELS.ROLE ? v.literal(...ROLE_CODES) : v.optional(v.literal(...ROLE_CODES)),
    bot_type: v.optional(v.nullable(v.int({ min: 1, max: 4 }))),
    bot_owner_id: v.optional(v.nullable(v.int())),
    profile_data: v.optional(v.record(profileEntry, { keyPattern: /^[0-9]+$/ })),
  };
}

/** The user-object validator for a feature level (not exact: later servers may add fields). */
export function userShape(level: number) {
  return v.object(fields(level), { forbidden: level >= USER_LEVELS.BILLING_ADMIN_REMOVED ? ['is_billing_admin'] : [] });
}

export type ApiUser = InferObject<ReturnType<typeof fields>>;

export interface UserViewRequest {
  /** `client_gravatar` as sent (undefined: not sent). */
  readonly clientGravatar?: boolean;
  /** `include_custom_profile_fields` as sent (undefined: not sent, default false). */
  readonly includeCustomProfileFields?: boolean;
}

export interface UserChecks {
  readonly problems: string[];
  /** The user is human and carries no `bot_type` key (deviation human-bot-fields-absent). */
  readonly botFieldsAbsent: boolean;
}

const has = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

/** Cross-field rules of section 2.3 for one (already shape-checked) user object. */
export function checkUser(user: ApiUser, path: string, level: number, view: UserViewRequest): UserChecks {
  const problems: string[] = [];
  const say = (text: string) => problems.push(`${path}: ${text}`);
  if (user.is_owner === true && !user.is_admin) say('is_owner is true but is_admin is false');
  if (level >= USER_LEVELS.ROLE && user.role !== undefined) {
    if ((user.role === 100) !== (user.is_owner ?? user.role === 100)) say(`role ${user.role} disagrees with is_owner ${String(user.is_owner)}`);
    if ((user.role === 100 || user.role === 200) !== user.is_admin) say(`role ${user.role} disagrees with is_admin ${String(user.is_admin)}`);
    if ((user.role === 600) !== (user.is_guest ?? user.role === 600)) say(`role ${user.role} disagrees with is_guest ${String(user.is_guest)}`);
  }
  let botFieldsAbsent = false;
  if (user.is_bot) {
    if (typeof user.bot_type !== 'number') say('a bot must carry an integer bot_type (1-4)');
    if (!has(user, 'bot_owner_id')) say('a bot must carry bot_owner_id (integer or null)');
    if (has(user, 'profile_data')) say('profile_data must be absent for bots');
  } else {
    if (user.bot_type !== undefined && user.bot_type !== null) say(`bot_type must be null for a user who is not a bot, got ${user.bot_type}`);
    if (user.bot_owner_id !== undefined && user.bot_owner_id !== null) say(`bot_owner_id must be null for a user who is not a bot, got ${user.bot_owner_id}`);
    botFieldsAbsent = !has(user, 'bot_type');
    const wanted = view.includeCustomProfileFields === true;
    if (wanted && !has(user, 'profile_data')) say('profile_data must be present when include_custom_profile_fields is true');
    if (!wanted && has(user, 'profile_data')) say('profile_data must be absent unless include_custom_profile_fields is true');
  }
  // Only client_gravatar=true lets the server leave the URL to the client (section 4.21).
  if (view.clientGravatar === false && typeof user.avatar_url !== 'string') say('avatar_url must be a URL when client_gravatar is false');
  return { problems, botFieldsAbsent };
}
