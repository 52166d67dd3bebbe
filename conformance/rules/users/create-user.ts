/**
 * `POST /users` (the real server's `create_user_backend`; OpenAPI create-user): administrators
 * with the `can_create_users` permission create accounts. Runs only with the user-creation
 * opt-in; addresses are at the throwaway domain and carry the run tag; every account created
 * (expected or not) is deactivated when the rule ends.
 */
import { randomBytes } from 'node:crypto';
import type { ApiClient, Reply } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { MAX_NAME_LENGTH, nameOfLength, userView } from './bots-support.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';

/** Level 30: the answer carries the new user's ID. */
const USER_ID_LEVEL = 30;
const SECTION = 'api/create-user';

/** A password strong enough for any server's strength check. */
const strongPassword = (): string => `${randomBytes(18).toString('base64url')}-Aa1!`;

interface CreationFixture {
  readonly admin: ApiClient;
  /** A throwaway user's address, which is in use. */
  readonly existing: string;
  /** The domain of the run's throwaway users (the only one the run may create addresses at). */
  readonly domain: string;
}

/** A `POST /users` rule (from level 30, with the user-creation opt-in), starting from a throwaway user's address. */
function creationRule(header: RuleHeader, body: (ctx: RuleContext, fixture: CreationFixture) => Promise<void>): Rule {
  const defaults = { endpoint: 'POST /users', levels: { min: USER_ID_LEVEL }, writes: true, needs: ['admin', 'throwaway-user'] } as const;
  return fixtureRule(header, defaults, async (ctx) => {
    const existing = (await ctx.throwawayUser()).identity.email;
    return { admin: ctx.as('admin'), existing, domain: existing.split('@')[1] ?? 'example.com' };
  }, body);
}

/** `POST /users` as `client`; any account it created is deactivated when the rule ends. */
async function attemptUser(ctx: RuleContext, client: ApiClient, params: Readonly<Record<string, unknown>>): Promise<Reply> {
  const reply = await client.post('/users', params);
  const id = reply.body?.user_id;
  if (reply.status === 200 && typeof id === 'number') {
    ctx.cleanup(`deactivate user ${id} created by POST /users`, async (c) => {
      const read = await c.as('admin').get(`/users/${id}`);
      if ((read.body?.user as { is_active?: unknown } | undefined)?.is_active === false) return;
      const gone = await c.as('admin').delete(`/users/${id}`);
      if (gone.status !== 200) throw new Error(`user ${id} stays active: HTTP ${gone.status} ${gone.text.slice(0, 200)}`);
    });
  }
  return reply;
}

const creates = creationRule({
  id: 'create-user/creates-member',
  title: 'an administrator creates an active member whose full name (100 characters, surrounding spaces stripped) and address read back from GET /users/{id}; the answer carries user_id (level 30)',
  section: SECTION,
}, async (ctx, { admin, domain }) => {
  const email = `${ctx.name('created')}@${domain}`;
  const fullName = nameOfLength(ctx.name('created'), MAX_NAME_LENGTH);
  const reply = await attemptUser(ctx, admin, { email, password: strongPassword(), full_name: ` ${fullName}  ` });
  const { user_id: id } = expectShape(expectSuccess(reply), v.object({ user_id: v.int({ min: 1 }) }), 'body', reply);
  const { user, reply: read } = await userView(admin, id);
  expectEqual([user.full_name, user.is_active, user.is_bot, user.role], [fullName, true, false, 400], 'full_name, is_active, is_bot, role of the new user', read);
  check((user.delivery_email ?? user.email).toLowerCase() === email.toLowerCase(), `the administrator should see the address ${email}, got ${String(user.delivery_email ?? user.email)}`, read);
});

const refused = creationRule({
  id: 'create-user/invalid-input-refused',
  title: 'a full name of 101 characters, a blank or forbidden-character name, an invalid address, an address already in use and a missing argument answer 400 (BAD_REQUEST, REQUEST_VARIABLE_MISSING), creating nobody',
  section: SECTION,
}, async (ctx, { admin, existing, domain }) => {
  const fresh = () => `${ctx.name('refused')}@${domain}`;
  const cases: ReadonlyArray<readonly [string, Record<string, unknown>, string]> = [
    ['a 101-character name', { email: fresh(), full_name: nameOfLength(ctx.name('refused'), MAX_NAME_LENGTH + 1) }, 'BAD_REQUEST'],
    ['a blank name', { email: fresh(), full_name: '   ' }, 'BAD_REQUEST'],
    ['a name with *', { email: fresh(), full_name: `${ctx.name('refused')} *` }, 'BAD_REQUEST'],
    ['an invalid address', { email: `${ctx.name('refused')}-at-nowhere`, full_name: ctx.name('refused') }, 'BAD_REQUEST'],
    ["a throwaway user's address", { email: existing, full_name: ctx.name('refused') }, 'BAD_REQUEST'],
    ['no full_name', { email: fresh() }, 'REQUEST_VARIABLE_MISSING'],
  ];
  for (const [what, params, code] of cases) {
    const reply = await attemptUser(ctx, admin, { password: strongPassword(), ...params });
    check(reply.status === 400 && reply.body?.code === code, `${what} should answer 400 ${code}; got HTTP ${reply.status} ${String(reply.body?.code ?? '')}`, reply);
  }
});

const nonAdministrators = creationRule({
  id: 'create-user/non-administrators-refused',
  title: 'members, moderators and guests get 400 UNAUTHORIZED_PRINCIPAL from POST /users, and nobody is created',
  section: `${SECTION}; 5.5`,
  needs: ['member', 'moderator', 'guest'],
}, async (ctx, { domain }) => {
  for (const who of ['member', 'moderator', 'guest'] as const) {
    const reply = await attemptUser(ctx, ctx.as(who), { email: `${ctx.name('refused')}@${domain}`, password: strongPassword(), full_name: ctx.name('refused') });
    expectError(reply, { status: 400, code: 'UNAUTHORIZED_PRINCIPAL' });
  }
});

export const rules: readonly Rule[] = [creates, refused, nonAdministrators];
