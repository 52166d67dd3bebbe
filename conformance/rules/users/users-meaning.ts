/**
 * The meaning of user fields (section 2.3) as each kind of viewer sees them: the role flags agree
 * with `role` for every listed user, bot fields describe bots only, and `delivery_email` follows
 * each user's `email_address_visibility` (read from their own `/register`) and the viewer's role,
 * as the real server's `can_access_delivery_email` decides. Nothing is changed on the target.
 */
import type { ApiClient } from '../../client/api-client.js';
import type { Identity, Role } from '../../credentials/types.js';
import { expectEqual, expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { fetchState } from '../support/message-fixtures.js';
import type { Rule, RuleContext } from '../types.js';
import { type ApiUser, USER_LEVELS, userShape } from './user-shape.js';

/** `email_address_visibility` values (section 4.3): 1 everyone, 2 members, 3 admins, 4 nobody, 5 moderators. */
const EVERYONE = 1;

/** Which visibilities a viewer of each role may see through (the viewer always sees itself). */
const VISIBLE_TO_ROLE: ReadonlyMap<Role, readonly number[]> = new Map<Role, readonly number[]>([
  ['owner', [1, 2, 3, 5]],
  ['admin', [1, 2, 3, 5]],
  ['moderator', [1, 2, 5]],
  ['member', [1, 2]],
  ['guest', [1]],
]);

const clientOf = (ctx: RuleContext, identity: Identity): ApiClient => ctx.anonymous.withCredentials(identity.email, identity.apiKey);

/** `GET /users` as `client`, shape-checked. */
async function listing(ctx: RuleContext, client: ApiClient, params?: Readonly<Record<string, unknown>>): Promise<ApiUser[]> {
  const reply = await client.get('/users', params);
  return expectShape(expectSuccess(reply), v.object({ members: v.array(userShape(ctx.featureLevel)) }), 'body', reply).members;
}

/** The problems of one user object: role flags against `role`, bot fields against `is_bot`. */
function fieldProblems(user: ApiUser, ids: ReadonlySet<number>, level: number): string[] {
  const problems: string[] = [];
  const say = (text: string) => problems.push(`user ${user.user_id}: ${text}`);
  const role = user.role;
  if (role !== undefined) {
    if (user.is_owner !== undefined && user.is_owner !== (role === 100)) say(`is_owner ${user.is_owner} with role ${role}`);
    if (user.is_admin !== (role === 100 || role === 200)) say(`is_admin ${user.is_admin} with role ${role}`);
    if (user.is_guest !== undefined && user.is_guest !== (role === 600)) say(`is_guest ${user.is_guest} with role ${role}`);
  }
  if (user.is_bot) {
    if (typeof user.bot_type !== 'number') say('a bot without an integer bot_type');
    if (user.bot_owner_id === undefined) say('a bot without bot_owner_id');
    else if (user.bot_owner_id !== null && !ids.has(user.bot_owner_id)) say(`bot_owner_id ${user.bot_owner_id} is no listed user`);
    // Bots always have the visibility "everyone": their real address is their API address (and,
    // since delivery_email is always sent, visible to everyone).
    if (typeof user.delivery_email !== 'string') {
      if (level >= USER_LEVELS.DELIVERY_EMAIL_ALWAYS) say('a bot whose delivery_email is not visible');
    } else if (user.delivery_email.toLowerCase() !== user.email.toLowerCase()) say(`a bot whose email ${user.email} is not its delivery_email ${user.delivery_email}`);
    if (user.profile_data !== undefined) say('a bot with profile_data');
  } else {
    if (user.bot_type !== undefined && user.bot_type !== null) say(`bot_type ${user.bot_type} on a user who is not a bot`);
    if (user.bot_owner_id !== undefined && user.bot_owner_id !== null) say(`bot_owner_id ${user.bot_owner_id} on a user who is not a bot`);
  }
  return problems;
}

const roleFlags: Rule = {
  id: 'users/role-flags-and-bot-fields-for-every-viewer',
  title: 'for every user listed to every viewer, is_owner/is_admin/is_guest agree with role and bot fields describe bots only; GET /users/{id} agrees with the listing',
  endpoint: 'GET /users',
  section: '2.3; 4.21',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    for (const viewer of ctx.identities) {
      const members = await listing(ctx, clientOf(ctx, viewer), { include_custom_profile_fields: true });
      const ids = new Set(members.map((user) => user.user_id));
      const problems = members.flatMap((user) => fieldProblems(user, ids, ctx.featureLevel));
      if (problems.length > 0) fail(`GET /users as ${viewer.email} (${viewer.role}):\n  - ${problems.join('\n  - ')}`);
    }
    // One user of each role code and kind, fetched alone, agrees with the primary viewer's listing
    // (a guest's listing may hold placeholders for users it may not fetch).
    if (ctx.identity('user').role === 'guest') return;
    const client = ctx.as('user');
    const members = await listing(ctx, client);
    const representatives = new Map(members.map((user) => [`${user.role}-${user.is_bot}`, user]));
    for (const listed of representatives.values()) {
      const reply = await client.get(`/users/${listed.user_id}`);
      const { user } = expectShape(expectSuccess(reply), v.object({ user: userShape(ctx.featureLevel) }), 'body', reply);
      for (const key of ['role', 'is_owner', 'is_admin', 'is_guest', 'is_bot', 'bot_type', 'bot_owner_id', 'email', 'delivery_email'] as const) {
        expectEqual(user[key], listed[key], `user ${listed.user_id}: ${key} (as in GET /users)`, reply);
      }
    }
  },
};

/** Each identity's own `email_address_visibility`, from its `/register` state. */
async function visibilities(ctx: RuleContext): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const identity of ctx.identities) {
    const state = await fetchState(clientOf(ctx, identity), ['user_settings']);
    const value = (state.user_settings as { email_address_visibility?: unknown } | undefined)?.email_address_visibility;
    if (typeof value === 'number') out.set(identity.userId, value);
  }
  return out;
}

const deliveryEmail: Rule = {
  id: 'users/delivery-email-follows-visibility',
  title: "delivery_email is the real address exactly when the viewer is the user or the user's email_address_visibility admits the viewer's role, else null; email is the real address only under visibility everyone",
  endpoint: 'GET /users',
  section: '2.3',
  levels: { min: USER_LEVELS.DELIVERY_EMAIL_ALWAYS },
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const visibility = await visibilities(ctx);
    if (visibility.size === 0) ctx.skip('no identity reports email_address_visibility in /register user_settings');
    const reference = new Map((await listing(ctx, ctx.as('user'))).map((user) => [user.user_id, user]));
    const apiEmails = new Map<number, string>();
    for (const viewer of ctx.identities) {
      const members = new Map((await listing(ctx, clientOf(ctx, viewer))).map((user) => [user.user_id, user]));
      for (const target of ctx.identities) {
        const seen = members.get(target.userId);
        const setting = visibility.get(target.userId);
        // A guest's listing may hold a placeholder for a user it cannot access.
        if (!seen || setting === undefined || seen.full_name !== reference.get(target.userId)?.full_name) continue;
        const visible = viewer.userId === target.userId || (VISIBLE_TO_ROLE.get(viewer.role) ?? []).includes(setting);
        const where = `user ${target.userId} (visibility ${setting}) seen by ${viewer.email} (${viewer.role})`;
        expectEqual(seen.delivery_email?.toLowerCase() ?? null, visible ? target.email.toLowerCase() : null, `${where}: delivery_email`);
        expectEqual(seen.email.toLowerCase() === target.email.toLowerCase(), setting === EVERYONE, `${where}: email is the real address`);
        const known = apiEmails.get(target.userId);
        if (known !== undefined) expectEqual(seen.email, known, `${where}: email (the same for every viewer)`);
        apiEmails.set(target.userId, seen.email);
      }
    }
  },
};

export const rules: readonly Rule[] = [roleFlags, deliveryEmail];
