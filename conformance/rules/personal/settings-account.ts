/**
 * The account fields of `PATCH /settings`, only ever for a throwaway user: `full_name` (the
 * real server's name checks; skipped where the realm or server disables name changes, which the
 * real server then ignores silently), the password (`old_password` must be right; the new one
 * logs in, the old one no longer does) and `email` (checked, then left to a confirmation link
 * mailed to the new address: the address does not change until it is followed).
 */
import { randomBytes } from 'node:crypto';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { fetchState } from '../support/channel-fixtures.js';
import { openStreamAs } from '../support/event-stream.js';
import { MAX_NAME_LENGTH, nameOfLength } from '../users/bots-support.js';
import type { Rule } from '../types.js';
import { PATH, throwawaySettingsRule } from './settings-support.js';

const SECTION = 'api/update-settings';
/** Level 78: the answer no longer names the changed values (`ignored_parameters_unsupported` instead). */
const MODERN_ANSWER_LEVEL = 78;

const meShape = v.object({ full_name: v.string(), email: v.string(), delivery_email: v.optional(v.nullable(v.string())) });

const fullName = throwawaySettingsRule({
  id: 'settings/full-name',
  title: 'a user renames itself: 100 characters after stripping are stored stripped (GET /users/me, and a realm_user update to another member); 101 characters, a blank name and a forbidden character answer 400 BAD_REQUEST and leave the name',
  section: SECTION,
  levels: { min: MODERN_ANSWER_LEVEL },
  needs: ['admin', 'second-member'],
}, async (ctx, { identity, client }) => {
  const realm = await fetchState(ctx.as('admin'), ['realm']);
  if (realm.realm_name_changes_disabled === true || realm.server_name_changes_disabled === true) return ctx.skip('name changes are disabled on this realm or server (the real server ignores them silently)');
  const watcher = await openStreamAs(ctx, 'second-member', ['realm_user']);
  const name = nameOfLength(ctx.name('self'), MAX_NAME_LENGTH);
  expectSuccess(await client.patch(PATH, { full_name: ` ${name}  ` }), { ignored: [] });
  const read = async () => {
    const me = await client.get('/users/me');
    return expectShape(expectSuccess(me), meShape, 'body', me).full_name;
  };
  expectEqual(await read(), name, 'full_name of GET /users/me after the change');
  await watcher.next((e) => e.type === 'realm_user' && e.op === 'update' && (e.person as { user_id?: unknown }).user_id === identity.userId && (e.person as { full_name?: unknown }).full_name === name, 'realm_user update full_name to another member');
  for (const [what, value] of [['101 characters', nameOfLength(ctx.name('self'), MAX_NAME_LENGTH + 1)], ['a blank name', '   '], ['a @', `${ctx.name('self')} @x`]] as const) {
    const reply = await client.patch(PATH, { full_name: value });
    check(reply.status === 400 && reply.body?.code === 'BAD_REQUEST', `full_name with ${what} should answer 400 BAD_REQUEST; got HTTP ${reply.status}`, reply);
  }
  expectEqual(await read(), name, 'full_name after the refused names');
});

const password = throwawaySettingsRule({
  id: 'settings/password-change',
  title: 'a wrong old_password answers 400 BAD_REQUEST and the old password still logs in; the right one changes the password: the new one logs in (POST /fetch_api_key), the old one gets 401',
  section: `${SECTION}; 4.6`,
  levels: { min: MODERN_ANSWER_LEVEL },
  needs: ['email-auth'],
}, async (ctx, user) => {
  const next = `${randomBytes(18).toString('base64url')}-Bb2?`;
  const login = (pass: string) => ctx.anonymous.post('/fetch_api_key', { username: user.identity.email, password: pass });
  expectError(await user.client.patch(PATH, { old_password: `${user.password}-wrong`, new_password: next }), { status: 400, code: 'BAD_REQUEST' });
  expectSuccess(await login(user.password));
  expectSuccess(await user.client.patch(PATH, { old_password: user.password, new_password: next }), { ignored: [] });
  const fresh = await login(next);
  expectEqual(expectSuccess(fresh).api_key, user.identity.apiKey, 'api_key fetched with the new password', fresh);
  expectError(await login(user.password), { status: 401, code: 'AUTHENTICATION_FAILED' });
});

const email = throwawaySettingsRule({
  id: 'settings/email-change-awaits-confirmation',
  title: 'the current address is accepted as no change; an invalid address and one another account uses answer 400 BAD_REQUEST; a new address is accepted but the address stays as it was until the mailed confirmation is followed',
  section: `${SECTION}; help/change-your-email-address`,
  levels: { min: MODERN_ANSWER_LEVEL },
  needs: ['admin', 'second-member'],
}, async (ctx, { identity, client }) => {
  const realm = await fetchState(ctx.as('admin'), ['realm']);
  if (realm.realm_email_changes_disabled === true) return ctx.skip('email changes are disabled in this realm');
  expectSuccess(await client.patch(PATH, { email: identity.email }), { ignored: [] });
  for (const [what, address] of [['an invalid address', `${ctx.name('nowhere')}-at-nowhere`], ["another account's address", ctx.identity('second-member').email]] as const) {
    const reply = await client.patch(PATH, { email: address });
    check(reply.status === 400 && reply.body?.code === 'BAD_REQUEST', `${what} should answer 400 BAD_REQUEST; got HTTP ${reply.status}`, reply);
  }
  const domain = identity.email.split('@')[1] ?? 'example.com';
  expectSuccess(await client.patch(PATH, { email: `${ctx.name('moved')}@${domain}` }), { ignored: [] });
  const me = await client.get('/users/me');
  const shown = expectShape(expectSuccess(me), meShape, 'body', me);
  expectEqual((shown.delivery_email ?? shown.email).toLowerCase(), identity.email.toLowerCase(), 'the address before the confirmation is followed', me);
});

export const rules: readonly Rule[] = [fullName, password, email];
