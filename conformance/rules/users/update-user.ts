/**
 * `PATCH /users/{user_id}` (the real server's `update_user_backend`; OpenAPI update-user), only
 * ever on the run's throwaway users: the full name an administrator sets, who may grant which
 * role (owners any, administrators any but the owner role and never to or from an owner, nobody
 * else anything), and custom profile data. Each change is read back; every role the rules give
 * is taken back when the rule ends.
 */
import type { ApiClient } from '../../client/api-client.js';
import type { CleanupContext } from '../../cleanup.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { fetchState } from '../support/channel-fixtures.js';
import { openStreamAs } from '../support/event-stream.js';
import { MAX_NAME_LENGTH, nameOfLength, userView } from './bots-support.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext, ThrowawayUser } from '../types.js';

const SECTION = 'api/update-user';
/** Level 106: `full_name` is a plain string (JSON-encoded before). */
const PLAIN_FULL_NAME_LEVEL = 106;
/** Level 60: the moderator role (300). */
const MODERATOR_LEVEL = 60;

/** Sets the throwaway user's role back to member as `who` when the rule ends (read back). */
function demoteLater(ctx: RuleContext, userId: number, who: 'admin' | 'owner'): void {
  ctx.cleanup(`make user ${userId} a member again`, async (c: CleanupContext) => {
    const client = c.as(who);
    const reply = await client.patch(`/users/${userId}`, { role: 400 });
    if (reply.status !== 200) throw new Error(`user ${userId} keeps a changed role: HTTP ${reply.status} ${reply.text.slice(0, 200)}`);
    const role = (await client.get(`/users/${userId}`)).body?.user as { role?: unknown } | undefined;
    if (role?.role !== 400) throw new Error(`user ${userId} reads back role ${String(role?.role)} after being made a member again`);
  });
}

/** The user's role as it reads it itself (`GET /users/me`), sparing the administrator's requests. */
async function roleOf(client: ApiClient): Promise<number | undefined> {
  const me = await client.get('/users/me');
  return expectShape(expectSuccess(me), v.object({ role: v.optional(v.int()) }), 'body', me).role;
}

/** What a rule on a throwaway user's account starts from: the administrator, the user and its path. */
interface TargetFixture {
  readonly admin: ApiClient;
  readonly user: ThrowawayUser;
  readonly path: string;
}

/** A `PATCH /users/{user_id}` rule on a throwaway user (needs the user-creation opt-in). */
function updateRule(header: RuleHeader, body: (ctx: RuleContext, fixture: TargetFixture) => Promise<void>): Rule {
  return fixtureRule(header, { endpoint: 'PATCH /users/{user_id}', writes: true, needs: ['admin', 'throwaway-user'] }, async (ctx) => {
    const user = await ctx.throwawayUser();
    return { admin: ctx.as('admin'), user, path: `/users/${user.identity.userId}` };
  }, body);
}

const fullName = updateRule({
  id: 'update-user/full-name',
  title: "an administrator sets a user's full name (100 characters, read back stripped); 101 characters and a forbidden character answer 400 BAD_REQUEST and a blank name is ignored (success), each leaving the name (level 106)",
  section: SECTION,
  levels: { min: PLAIN_FULL_NAME_LEVEL },
}, async (ctx, { admin, user: { identity }, path }) => {
  const name = nameOfLength(ctx.name('renamed'), MAX_NAME_LENGTH);
  expectSuccess(await admin.patch(path, { full_name: `  ${name} ` }));
  const read = async () => (await userView(admin, identity.userId)).user.full_name;
  expectEqual(await read(), name, 'full_name after the change');
  for (const [what, value] of [['101 characters', nameOfLength(ctx.name('renamed'), MAX_NAME_LENGTH + 1)], ['a *', `${ctx.name('renamed')} *`]] as const) {
    const reply = await admin.patch(path, { full_name: value });
    check(reply.status === 400 && reply.body?.code === 'BAD_REQUEST', `a full name with ${what} should answer 400 BAD_REQUEST; got HTTP ${reply.status}`, reply);
  }
  expectSuccess(await admin.patch(path, { full_name: '   ' }));
  expectEqual(await read(), name, 'full_name after the refused and the blank names');
});

const roles = updateRule({
  id: 'update-user/role-grants-by-role',
  title: "members, moderators and guests get 400 BAD_REQUEST changing a user's role; an administrator sets moderator, guest and member (each read back, a realm_user update to others) but gets 400 UNAUTHORIZED_PRINCIPAL for the owner role and for an owner; an owner grants and takes back the owner role; a role outside the list (150) and one that is no JSON integer are 400 BAD_REQUEST",
  section: `${SECTION}; help/roles-and-permissions`,
  levels: { min: MODERATOR_LEVEL },
  needs: ['owner', 'moderator', 'member', 'second-member', 'guest'],
}, async (ctx, { admin, user: { identity, client }, path }) => {
  const adminIsOwner = ctx.identity('admin').role === 'owner';
  for (const who of ['member', 'moderator', 'guest'] as const) expectError(await ctx.as(who).patch(path, { role: 300 }), { status: 400, code: 'BAD_REQUEST' });
  for (const value of [150, 'moderator']) expectError(await admin.patch(path, { role: value }), { status: 400, code: 'BAD_REQUEST' });
  if (!adminIsOwner) expectError(await admin.patch(path, { role: 100 }), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL' });
  expectEqual(await roleOf(client), 400, 'role after the refused changes');

  const watcher = await openStreamAs(ctx, 'second-member', ['realm_user']);
  demoteLater(ctx, identity.userId, 'admin');
  for (const value of [300, 600, 400]) {
    expectSuccess(await admin.patch(path, { role: value }));
    expectEqual(await roleOf(client), value, `role after the administrator set ${value}`);
    const { event } = await watcher.next((e) => e.type === 'realm_user' && e.op === 'update' && (e.person as { user_id?: unknown }).user_id === identity.userId && (e.person as { role?: unknown }).role === value, `realm_user update role ${value} to another member`);
    check(event.person !== undefined, 'realm_user update without person');
  }

  demoteLater(ctx, identity.userId, 'owner');
  expectSuccess(await ctx.as('owner').patch(path, { role: 100 }));
  expectEqual(await roleOf(client), 100, 'role after the owner granted the owner role');
  if (!adminIsOwner) expectError(await admin.patch(path, { role: 400 }), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL' });
  expectSuccess(await ctx.as('owner').patch(path, { role: 400 }));
  expectEqual(await roleOf(client), 400, 'role after the owner took the owner role back');
});

const fieldShape = v.object({ custom_profile_fields: v.array(v.object({ id: v.int(), type: v.int(), name: v.string() })) });

const profileData = updateRule({
  id: 'update-user/profile-data',
  title: "an administrator sets a user's short-text custom profile field (read back with include_custom_profile_fields) and clears it with null; an unknown field ID answers 400 BAD_REQUEST",
  section: `${SECTION}; api/get-user`,
}, async (ctx, { admin, path }) => {
  const state = await fetchState(admin, ['custom_profile_fields']);
  const fields = expectShape(state, fieldShape, 'register custom_profile_fields').custom_profile_fields;
  const field = fields.find((candidate) => candidate.type === 1);
  if (!field) return ctx.skip('the realm has no short-text custom profile field');
  const readValue = async (): Promise<unknown> => {
    const reply = await admin.get(path, { include_custom_profile_fields: true });
    const data = expectShape(expectSuccess(reply), v.object({ user: v.object({ profile_data: v.record(v.object({ value: v.unknown() })) }) }), 'body', reply).user.profile_data;
    return Object.prototype.hasOwnProperty.call(data, String(field.id)) ? data[String(field.id)]?.value : undefined;
  };
  const value = ctx.name('value');
  expectSuccess(await admin.patch(path, { profile_data: [{ id: field.id, value }] }));
  expectEqual(await readValue(), value, `profile_data[${field.id}].value after setting it`);
  expectSuccess(await admin.patch(path, { profile_data: [{ id: field.id, value: null }] }));
  expectEqual(await readValue(), undefined, `profile_data[${field.id}] after clearing it`);
  const unknown = Math.max(0, ...fields.map((f) => f.id)) + 1000;
  expectError(await admin.patch(path, { profile_data: [{ id: unknown, value }] }), { status: 400, code: 'BAD_REQUEST' });
});

export const rules: readonly Rule[] = [fullName, roles, profileData];
