/**
 * Password login end to end (sections 4.6 and 5.2) with users the run creates, so that failed
 * attempts and deactivation never touch a real person's account: `fetch_api_key` with the
 * creation password returns the user's existing key, which then acts as that user; the username
 * matches without regard to letter case, the password does not; a deactivated account is refused
 * with the real codes on both paths. The login also carries the section 1 convention that unknown
 * parameters of the body and of the query string are reported together.
 */
import type { Reply } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { expectUnauthorizedWith } from './auth-endpoint-table.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import { reactivatedThrowaway } from '../support/throwaway-support.js';
import type { Rule, ThrowawayUser } from '../types.js';

/** Level 171: `fetch_api_key` returns `user_id`. */
const USER_ID_LEVEL = 171;

/** The real server's `has_api_key_format`: 32 ASCII letters and digits. */
export const API_KEY_FORMAT = /^[A-Za-z0-9]{32}$/;

const keyShape = v.object({ api_key: v.string(), email: v.string(), user_id: v.optional(v.int({ min: 1 })) });

/** The same address with its local part in upper case (the domain untouched). */
export function upperLocalPart(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, at).toUpperCase()}${email.slice(at)}`;
}

/** A success of `fetch_api_key` that hands out `user`'s existing key and names the user. */
function expectKeyOf(reply: Reply, user: ThrowawayUser, level: number, what: string): void {
  const body = expectShape(expectSuccess(reply), keyShape, 'body', reply);
  check(API_KEY_FORMAT.test(body.api_key), `${what}: api_key is not 32 letters and digits`, reply);
  expectEqual(body.api_key, user.identity.apiKey, `${what}: api_key (the existing key, not a new one)`, reply);
  expectEqual(body.email.toLowerCase(), user.identity.email.toLowerCase(), `${what}: email (the delivery email)`, reply);
  if (level >= USER_ID_LEVEL) expectEqual(body.user_id, user.identity.userId, `${what}: user_id`, reply);
}

const authenticationFailed = (reply: Reply, what: string) => {
  const body = expectError(reply, { status: 401, code: 'AUTHENTICATION_FAILED' });
  expectEqual(body.msg, 'Your username or password is incorrect', `msg (${what})`, reply);
};

const passwordLogin: Rule = {
  id: 'fetch-api-key/password-login-returns-working-key',
  title: "fetch_api_key with a user's password returns its existing key, delivery email and ID, also for the username in other letter case; the key then acts as that user",
  endpoint: 'POST /fetch_api_key',
  section: '4.6; 5.1-5.2',
  writes: true,
  needs: ['throwaway-user', 'email-auth'],
  async run(ctx) {
    const user = await ctx.throwawayUser();
    const { email } = user.identity;
    const reply = await ctx.anonymous.post('/fetch_api_key', { username: email, password: user.password });
    expectKeyOf(reply, user, ctx.featureLevel, 'login');
    const key = expectSuccess(reply).api_key as string;
    const me = await ctx.anonymous.withCredentials(email, key).get('/users/me');
    const own = expectShape(expectSuccess(me), v.object({ user_id: v.int(), delivery_email: v.optional(v.nullable(v.string())) }), 'body', me);
    expectEqual(own.user_id, user.identity.userId, 'user_id of GET /users/me with the returned key', me);
    if (own.delivery_email !== undefined) expectEqual(own.delivery_email?.toLowerCase(), email.toLowerCase(), 'delivery_email of GET /users/me', me);
    // The account is looked up by delivery email without regard to case (a separate rate-limit bucket, and a success).
    expectKeyOf(await ctx.anonymous.post('/fetch_api_key', { username: upperLocalPart(email), password: user.password }), user, ctx.featureLevel, 'login with the username upper-cased');
  },
};

/** Swaps the case of every letter (the password must then fail: passwords are case-sensitive). */
const swapCase = (text: string) => [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

const wrongPassword: Rule = {
  id: 'fetch-api-key/wrong-password-refused',
  title: "a wrong, empty or case-swapped password for an existing account gets 401 AUTHENTICATION_FAILED; the right one still logs in afterwards",
  endpoint: 'POST /fetch_api_key',
  section: '4.6',
  writes: true,
  needs: ['throwaway-user', 'email-auth'],
  async run(ctx) {
    const user = await ctx.throwawayUser();
    const username = user.identity.email;
    // Three failures stay under the real limit (5 per 30 minutes per username); the success clears it.
    for (const [what, password] of [['a wrong password', `${user.password}x`], ['an empty password', ''], ['the password with its letter case swapped', swapCase(user.password)]] as const) {
      authenticationFailed(await ctx.anonymous.post('/fetch_api_key', { username, password }), what);
    }
    expectKeyOf(await ctx.anonymous.post('/fetch_api_key', { username, password: user.password }), user, ctx.featureLevel, 'login after failures');
  },
};

const deactivated: Rule = {
  id: 'fetch-api-key/deactivated-user-refused',
  title: 'a deactivated account gets 401 USER_DEACTIVATED from fetch_api_key (right or wrong password), and its key gets 401 UNAUTHORIZED "Account is deactivated"',
  endpoint: 'POST /fetch_api_key',
  section: '4.6; 3.2; 5.4',
  writes: true,
  needs: ['admin', 'throwaway-user', 'email-auth'],
  async run(ctx) {
    const user = await reactivatedThrowaway(ctx);
    const username = user.identity.email;
    expectPlainSuccess(await ctx.as('admin').delete(`/users/${user.identity.userId}`));
    // Deactivation is decided before the password is checked.
    for (const [what, password] of [['the right password', user.password], ['a wrong password', `${user.password}x`]] as const) {
      const reply = await ctx.anonymous.post('/fetch_api_key', { username, password });
      const body = expectError(reply, { status: 401, code: 'USER_DEACTIVATED' });
      expectEqual(body.msg, 'Account is deactivated', `msg (${what})`, reply);
    }
    expectUnauthorizedWith(await user.client.get('/users/me'), 'Account is deactivated', "the deactivated user's key");
  },
};

/** Level 167: every endpoint reports unknown parameters. */
const IGNORED_EVERYWHERE_LEVEL = 167;

const ignoredOnLogin: Rule = {
  id: 'conventions/ignored-parameters-from-body-and-query',
  title: 'a POST reports the unknown parameters of its form body and of its query string together, sorted, never client (fetch_api_key)',
  endpoint: 'POST /fetch_api_key',
  section: '1 conventions 2, 4; 4.6',
  levels: { min: IGNORED_EVERYWHERE_LEVEL },
  writes: true,
  needs: ['throwaway-user', 'email-auth'],
  async run(ctx) {
    const user = await ctx.throwawayUser();
    const body = [['username', user.identity.email], ['password', user.password], ['zz_conformance', 'x'], ['client', 'chat-conformance']] as const;
    const reply = await ctx.anonymous.post('/fetch_api_key', body, { query: [['aa_conformance', 'y']] });
    expectSuccess(reply, { ignored: ['aa_conformance', 'zz_conformance'] });
    expectKeyOf(reply, user, ctx.featureLevel, 'login with unknown parameters');
  },
};

export const rules: readonly Rule[] = [passwordLogin, wrongPassword, deactivated, ignoredOnLogin];
