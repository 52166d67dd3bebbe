/**
 * Reading users: `GET /users/{user_id}` (sections 2.3, 4.21), `GET /users`, `GET /users/me`.
 * User IDs are looked up (never assumed); the listing of an identity that can see everyone is the
 * reference the single-user answers are compared with.
 */
import fc from 'fast-check';
import type { ApiClient } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import type { Rule, RuleContext } from '../types.js';
import { type ApiUser, checkUser, type UserViewRequest, userShape, USER_LEVELS } from './user-shape.js';

/** `GET /users` as `client`: the members array, shape-checked. */
async function listMembers(ctx: RuleContext, client: ApiClient, view: UserViewRequest = {}): Promise<ApiUser[]> {
  const params = { client_gravatar: view.clientGravatar, include_custom_profile_fields: view.includeCustomProfileFields };
  const reply = await client.get('/users', params);
  return expectShape(expectSuccess(reply), v.object({ members: v.array(userShape(ctx.featureLevel)) }), 'body', reply).members;
}

/** Section 2.3 cross-field checks; records the bot-fields deviation instead of failing on it. */
function expectUserRules(ctx: RuleContext, user: ApiUser, what: string, view: UserViewRequest): void {
  const result = checkUser(user, what, ctx.featureLevel, view);
  if (result.problems.length > 0) fail(`section 2.3:\n  - ${result.problems.join('\n  - ')}`);
  if (result.botFieldsAbsent) ctx.deviation('human-bot-fields-absent', 'users who are not bots carry no bot_type/bot_owner_id keys');
}

const optionalBool = fc.option(fc.boolean(), { nil: undefined });

const getUserShape: Rule = {
  id: 'users/get-user-shape',
  title: 'GET /users/{user_id} returns the section 2.3 user object, consistent with the listing, for any user and options',
  endpoint: 'GET /users/{user_id}',
  section: '2.3; 4.21',
  writes: false,
  needs: ['user'],
  deviation: 'human-bot-fields-absent',
  async run(ctx) {
    const me = ctx.identity('user');
    const client = ctx.as('user');
    // A guest may only be allowed to see some users; its own record is always accessible.
    const listing = me.role === 'guest' ? [] : await listMembers(ctx, client);
    const byId = new Map(listing.map((user) => [user.user_id, user]));
    const ids = listing.length > 0 ? [...byId.keys()] : [me.userId];
    await ctx.property('users x client_gravatar x include_custom_profile_fields', [fc.constantFrom(...ids), optionalBool, optionalBool], async (id, gravatar, profile) => {
      const view: UserViewRequest = { ...(gravatar === undefined ? {} : { clientGravatar: gravatar }), ...(profile === undefined ? {} : { includeCustomProfileFields: profile }) };
      const reply = await client.get(`/users/${id}`, { client_gravatar: gravatar, include_custom_profile_fields: profile });
      const { user } = expectShape(expectSuccess(reply, { ignored: [] }), v.object({ user: userShape(ctx.featureLevel) }), 'body', reply);
      expectEqual(user.user_id, id, 'user.user_id', reply);
      expectUserRules(ctx, user, 'user', view);
      const listed = byId.get(id);
      if (listed) {
        for (const key of ['email', 'full_name', 'role', 'is_bot', 'is_active', 'delivery_email'] as const) {
          expectEqual(user[key], listed[key], `user.${key} (as in GET /users)`, reply);
        }
      }
    });
  },
};

const deliveryEmailPresent: Rule = {
  id: 'users/delivery-email-always-present',
  title: 'every user object carries delivery_email (a string or null) since feature level 163',
  endpoint: 'GET /users',
  section: '2.3',
  levels: { min: USER_LEVELS.DELIVERY_EMAIL_ALWAYS },
  writes: false,
  needs: ['user'],
  async run(ctx) {
    // Every identity: the key must be there (possibly null) whatever the viewer may see.
    for (const identity of ctx.identities) {
      const client = ctx.anonymous.withCredentials(identity.email, identity.apiKey);
      const members = await listMembers(ctx, client);
      check(members.length > 0, `GET /users as ${identity.email} returned no members`);
      for (const user of members) {
        check(Object.prototype.hasOwnProperty.call(user, 'delivery_email'), `user ${user.user_id} (listed for ${identity.email}): delivery_email missing`);
      }
      const own = await client.get(`/users/${identity.userId}`);
      const { user } = expectShape(expectSuccess(own), v.object({ user: userShape(ctx.featureLevel) }), 'body', own);
      // A user always sees their own real address.
      expectEqual(user.delivery_email?.toLowerCase(), identity.email.toLowerCase(), 'own delivery_email', own);
    }
  },
};

const unknownId: Rule = {
  id: 'users/get-user-unknown-id-bad-request',
  title: 'GET /users/{user_id} for an ID with no user in the realm answers 400 BAD_REQUEST',
  endpoint: 'GET /users/{user_id}',
  section: '4.21; 7',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const client = ctx.as('user');
    const known = new Set((await listMembers(ctx, client)).map((user) => user.user_id));
    const highest = Math.max(0, ...known);
    const absent = fc.oneof(fc.integer({ min: highest + 1, max: highest + 1000 }), fc.integer({ min: 1, max: 2 ** 31 - 1 })).filter((id) => !known.has(id));
    await ctx.property('IDs not in the listing', [absent], async (id) => {
      expectError(await client.get(`/users/${id}`), { status: 400, code: 'BAD_REQUEST' });
    });
  },
};

const listing: Rule = {
  id: 'users/list-shape-and-identities',
  title: "GET /users lists every user of the run's identities, each a section 2.3 user object",
  endpoint: 'GET /users',
  section: '2.3',
  writes: false,
  needs: ['user'],
  deviation: 'human-bot-fields-absent',
  async run(ctx) {
    const members = await listMembers(ctx, ctx.as('user'), { clientGravatar: false });
    const ids = new Set(members.map((user) => user.user_id));
    check(ids.size === members.length, 'GET /users lists a user twice');
    for (const identity of ctx.identities) check(ids.has(identity.userId), `GET /users does not list ${identity.email} (user ${identity.userId})`);
    if (ctx.identity('user').role === 'guest') return; // placeholders for inaccessible users follow other rules
    members.forEach((user, index) => expectUserRules(ctx, user, `members[${index}]`, { clientGravatar: false }));
  },
};

const byIds: Rule = {
  id: 'users/list-filtered-by-user-ids',
  title: 'GET /users with user_ids returns exactly the listed users that exist, silently dropping unknown IDs',
  endpoint: 'GET /users',
  section: '2.3',
  levels: { min: 384 },
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const client = ctx.as('user');
    const all = (await listMembers(ctx, client)).map((user) => user.user_id);
    const known = new Set(all);
    const unknown = fc.integer({ min: Math.max(0, ...all) + 1, max: 2 ** 31 - 1 });
    await ctx.property('subsets plus unknown IDs', [fc.subarray(all, { maxLength: 8 }), fc.array(unknown, { maxLength: 3 })], async (wanted, extra) => {
      const reply = await client.get('/users', { user_ids: [...wanted, ...extra] });
      const members = expectShape(expectSuccess(reply, { ignored: [] }), v.object({ members: v.array(userShape(ctx.featureLevel)) }), 'body', reply).members;
      const got = members.map((user) => user.user_id).sort((a, b) => a - b);
      expectEqual(got, [...new Set(wanted.filter((id) => known.has(id)))].sort((a, b) => a - b), 'user IDs returned', reply);
    });
  },
};

const ownUser: Rule = {
  id: 'users/get-own-user-matches-credentials',
  title: 'GET /users/me describes the authenticated user: its real email, and the ID, name and role the listing shows',
  endpoint: 'GET /users/me',
  section: '2.3; 5.1-5.2',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const viewer = ctx.identity('user');
    const listed = new Map((await listMembers(ctx, ctx.as('user'))).map((user) => [user.user_id, user]));
    for (const identity of ctx.identities) {
      const reply = await ctx.anonymous.withCredentials(identity.email, identity.apiKey).get('/users/me');
      const body = expectShape(expectSuccess(reply), v.object({ max_message_id: v.int() }), 'body', reply);
      const user = expectShape(body, userShape(ctx.featureLevel), 'body', reply);
      if (ctx.featureLevel >= USER_LEVELS.DELIVERY_EMAIL_ALWAYS) expectEqual(user.delivery_email?.toLowerCase(), identity.email.toLowerCase(), 'delivery_email', reply);
      const entry = listed.get(user.user_id);
      check(entry !== undefined, `GET /users does not list user_id ${user.user_id} of ${identity.email}`, reply);
      // A guest's listing may hold placeholders for users it cannot access.
      if (viewer.role !== 'guest' || user.user_id === viewer.userId) {
        for (const key of ['full_name', 'role', 'is_bot'] as const) expectEqual(user[key], entry[key], `${key} (as in GET /users)`, reply);
      }
    }
  },
};

export const rules: readonly Rule[] = [getUserShape, deliveryEmailPresent, unknownId, listing, byIds, ownUser];
