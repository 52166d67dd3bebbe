/**
 * Level 313 (api_docs/changelog.md): `new_email` on `PATCH /users/{user_id}` and the new
 * `PATCH /users/{email}`, always on the run's throwaway users. Changing an email needs an
 * administrator with the per-account `can_change_user_emails` permission, which only a server
 * administrator grants: on most real servers the run's administrator lacks it, so a refusal (400
 * BAD_REQUEST; its text is not confirmed, so only a message is required) and a success are both
 * accepted, a refusal must leave the address alone, and a success is checked strictly (the user
 * logs in with the new address and reads it back, `GET /users/{email}` finds it, the administrator
 * hears `delivery_email` when allowed to see it) and undone when the rule ends.
 */
import type { ApiClient, Reply } from '../../client/api-client.js';
import type { CleanupContext } from '../../cleanup.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { openStreamAs } from '../support/event-stream.js';
import { userView } from './bots-support.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext, ThrowawayUser } from '../types.js';

const SECTION = 'api/update-user; api/update-user-by-email';
const CHANGE_USER_EMAILS_LEVEL = 313;
/** Level 167: every success may report ignored parameters. */
const IGNORED_PARAMETERS_LEVEL = 167;

interface Fixture {
  readonly admin: ApiClient;
  readonly user: ThrowawayUser;
}

function emailRule(header: RuleHeader & { endpoint: string }, body: (ctx: RuleContext, fixture: Fixture) => Promise<void>): Rule {
  return fixtureRule(header, { endpoint: header.endpoint, writes: true, needs: ['admin', 'throwaway-user'] }, async (ctx) => ({ admin: ctx.as('admin'), user: await ctx.throwawayUser() }), body);
}

const ownView = v.object({ delivery_email: v.string() });

/** The address the user reads for itself with `credentials` (always visible to its owner). */
async function ownDeliveryEmail(client: ApiClient): Promise<string> {
  const reply = await client.get('/users/me');
  return expectShape(expectSuccess(reply), ownView, 'body', reply).delivery_email;
}

/** A refusal of a change the run's administrator may lack the permission for: 400 BAD_REQUEST with a message. */
function checkRefusal(reply: Reply, what: string): void {
  check(reply.status === 400 && reply.body?.code === 'BAD_REQUEST', `${what} should succeed or answer 400 BAD_REQUEST; got HTTP ${reply.status}`, reply);
  check(typeof reply.body?.msg === 'string' && reply.body.msg !== '', `${what}: the refusal should carry a message`, reply);
}

/** `new_email` for `user` at `path`: refused (address unchanged) or applied (checked, then undone). */
async function changeEmail(ctx: RuleContext, { admin, user }: Fixture, path: string): Promise<void> {
  const { identity } = user;
  const domain = identity.email.slice(identity.email.lastIndexOf('@') + 1);
  const moved = `${ctx.name('moved')}@${domain}`;
  const adminSees = (await userView(admin, identity.userId)).user.delivery_email === identity.email;
  const watcher = adminSees ? await openStreamAs(ctx, 'admin', ['realm_user']) : undefined;
  const reply = await admin.patch(path, { new_email: moved });
  if (reply.status !== 200) {
    checkRefusal(reply, 'new_email from an administrator who may lack can_change_user_emails');
    expectEqual(await ownDeliveryEmail(user.client), identity.email, 'delivery_email after the refused change');
    return;
  }
  ctx.cleanup(`give user ${identity.userId} back ${identity.email}`, async (c: CleanupContext) => {
    const back = await c.as('admin').patch(`/users/${identity.userId}`, { new_email: identity.email });
    if (back.status !== 200) throw new Error(`user ${identity.userId} keeps ${moved}: HTTP ${back.status} ${back.text.slice(0, 200)}`);
  });
  const movedClient = user.client.withCredentials(moved, identity.apiKey);
  expectEqual(await ownDeliveryEmail(movedClient), moved, 'delivery_email read with the new address');
  const found = await movedClient.get(`/users/${encodeURIComponent(moved)}`);
  expectEqual(expectShape(expectSuccess(found), v.object({ user: v.object({ user_id: v.int() }) }), 'body', found).user.user_id, identity.userId, 'GET /users/{new email} finds the user');
  if (watcher) {
    await watcher.next((e) => e.type === 'realm_user' && e.op === 'update' && (e.person as { user_id?: unknown; delivery_email?: unknown }).delivery_email === moved && (e.person as { user_id?: unknown }).user_id === identity.userId, 'realm_user update delivery_email to the administrator');
  }
}

const newEmailById = emailRule({
  id: 'user-email/new-email',
  endpoint: 'PATCH /users/{user_id}',
  title: "an administrator's new_email for a user is refused with 400 BAD_REQUEST (address unchanged) or applied (the user logs in with it and reads it back, GET /users/{email} finds it, an administrator allowed to see it gets realm_user delivery_email) and undone; a member's is 400 BAD_REQUEST 'Insufficient permission' (level 313)",
  section: SECTION,
  levels: { min: CHANGE_USER_EMAILS_LEVEL },
  needs: ['member'],
}, async (ctx, fixture) => {
  const path = `/users/${fixture.user.identity.userId}`;
  const refused = expectError(await ctx.as('member').patch(path, { new_email: `${ctx.name('member-moved')}@example.com` }), { status: 400, code: 'BAD_REQUEST' });
  expectEqual(refused.msg, 'Insufficient permission', "a member's new_email");
  await changeEmail(ctx, fixture, path);
});

const newEmailIgnoredBefore = emailRule({
  id: 'user-email/new-email-before-313',
  endpoint: 'PATCH /users/{user_id}',
  title: 'before level 313 new_email is reported in ignored_parameters_unsupported and the address is unchanged',
  section: SECTION,
  levels: { min: IGNORED_PARAMETERS_LEVEL, max: CHANGE_USER_EMAILS_LEVEL - 1 },
}, async (ctx, { admin, user }) => {
  const reply = await admin.patch(`/users/${user.identity.userId}`, { new_email: `${ctx.name('moved')}@example.com` });
  const ignored = expectShape(expectSuccess(reply), v.object({ ignored_parameters_unsupported: v.array(v.string()) }), 'body', reply);
  check(ignored.ignored_parameters_unsupported.includes('new_email'), 'new_email should be reported as ignored', reply);
  expectEqual(await ownDeliveryEmail(user.client), user.identity.email, 'delivery_email after the ignored parameter');
});

const byEmail = emailRule({
  id: 'user-email/update-by-email',
  endpoint: 'PATCH /users/{email}',
  title: "PATCH /users/{email} finds the user by the email GET /users/{user_id} shows (a full name change, read back, then undone) and new_email there is refused or applied like on PATCH /users/{user_id}; an unknown email answers the same 400 as GET /users/{email} (level 313)",
  section: SECTION,
  levels: { min: CHANGE_USER_EMAILS_LEVEL },
}, async (ctx, fixture) => {
  const { admin, user } = fixture;
  const { user: view } = await userView(admin, user.identity.userId);
  const path = `/users/${encodeURIComponent(view.email)}`;
  const name = ctx.name('by-email');
  ctx.cleanup(`give user ${user.identity.userId} back the name ${view.full_name}`, async (c: CleanupContext) => {
    const back = await c.as('admin').patch(`/users/${user.identity.userId}`, { full_name: view.full_name });
    if (back.status !== 200) throw new Error(`user ${user.identity.userId} keeps its changed name: HTTP ${back.status}`);
  });
  expectSuccess(await admin.patch(path, { full_name: name }));
  expectEqual((await userView(admin, user.identity.userId)).user.full_name, name, 'full_name after PATCH /users/{email}');
  const unknown = `/users/${encodeURIComponent(`${ctx.name('nobody')}@example.com`)}`;
  const patched = await admin.patch(unknown, { full_name: name });
  const read = await admin.get(unknown);
  check(read.status === 400 && read.body?.code === 'BAD_REQUEST', `GET /users/{unknown email} should answer 400 BAD_REQUEST; got HTTP ${read.status}`, read);
  expectEqual(expectError(patched, { status: 400, code: 'BAD_REQUEST' }).msg, read.body?.msg, 'PATCH /users/{unknown email} answers as GET does');
  await changeEmail(ctx, fixture, path);
});

export const rules: readonly Rule[] = [newEmailById, newEmailIgnoredBefore, byEmail];
