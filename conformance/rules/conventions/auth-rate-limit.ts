/**
 * Rate limits, asserted only where the real server guarantees them and triggered only where that
 * locks nobody out. Failed logins (`authenticate_by_username`: 5 attempts per 30 minutes per exact
 * username, counted before the password is checked) are exercised with usernames that exist
 * nowhere, or with a user the run created. The per-user API limit (200 a minute on a real server)
 * is exhausted only when the target reports a limit small enough, and only by a created user.
 * A 429 is `RATE_LIMIT_HIT` with `Retry-After` (header) and `retry-after` (body): the same number
 * of seconds, positive and within the window.
 */
import type { ApiClient, Reply } from '../../client/api-client.js';
import { check, expectError, fail } from '../../expect/assert.js';
import { upperLocalPart } from './fetch-api-key-login.js';
import type { Rule, RuleContext } from '../types.js';

/** The real server's failed-login rule: 5 attempts in 30 minutes. */
const LOGIN_ATTEMPTS = 5;
const LOGIN_WINDOW_SECONDS = 1800;
/** The largest reported API limit the suite will use up (a real server's 200 is left alone). */
const EXHAUSTIBLE_API_LIMIT = 30;

const noRetry = { retryRateLimited: false } as const;

/** 429 RATE_LIMIT_HIT whose Retry-After header and retry-after field agree, within (0, window]. */
function expectRateLimited(reply: Reply, windowSeconds: number, what: string): void {
  const body = expectError(reply, { status: 429, code: 'RATE_LIMIT_HIT' });
  const header = Number(reply.headers['retry-after']);
  const field = body['retry-after'];
  check(reply.headers['retry-after'] !== undefined && Number.isFinite(header), `${what}: 429 must carry a numeric Retry-After header`, reply);
  check(typeof field === 'number', `${what}: 429 body must carry retry-after (seconds)`, reply);
  check(header > 0 && header <= windowSeconds, `${what}: Retry-After ${header} must be within (0, ${windowSeconds}] seconds`, reply);
  check(Math.abs(header - field) < 1, `${what}: Retry-After ${header} and retry-after ${field} disagree`, reply);
}

const loginFailed = (reply: Reply) => expectError(reply, { status: 401, code: 'AUTHENTICATION_FAILED' });

/** Sends the allowed number of failing logins for `username`; each must be refused as a failure. */
async function useUpLoginAttempts(ctx: RuleContext, username: string, password: string): Promise<void> {
  for (let i = 0; i < LOGIN_ATTEMPTS; i++) loginFailed(await ctx.anonymous.post('/fetch_api_key', { username, password }, noRetry));
}

/** A username at the realm's domain that no account has. */
const nobody = (ctx: RuleContext) => `${ctx.name('nobody')}@${ctx.identities[0]?.email.split('@')[1] ?? 'example.com'}`;

const failedLoginLimit: Rule = {
  id: 'fetch-api-key/failed-login-limit',
  title: 'after 5 failed logins for a username the 6th gets 429 RATE_LIMIT_HIT with matching Retry-After and retry-after; the count is per exact username',
  endpoint: 'POST /fetch_api_key',
  section: '4.6; 7',
  writes: false,
  needs: ['email-auth'],
  async run(ctx) {
    const username = nobody(ctx);
    await useUpLoginAttempts(ctx, username, 'wrong-password');
    const sixth = await ctx.anonymous.post('/fetch_api_key', { username, password: 'wrong-password' }, noRetry);
    if (sixth.status !== 429) {
      loginFailed(sixth);
      ctx.note('the target does not limit failed logins (rate limiting is off)');
      return;
    }
    expectRateLimited(sixth, LOGIN_WINDOW_SECONDS, 'the 6th failed login');
    // The bucket is keyed by the username exactly as sent: another spelling has attempts left.
    loginFailed(await ctx.anonymous.post('/fetch_api_key', { username: upperLocalPart(username), password: 'wrong-password' }, noRetry));
  },
};

const limitBlocksRightPassword: Rule = {
  id: 'fetch-api-key/limit-blocks-right-password',
  title: 'once a username has used up its failed logins, even the right password gets 429 RATE_LIMIT_HIT',
  endpoint: 'POST /fetch_api_key',
  section: '4.6; 7',
  writes: true,
  needs: ['throwaway-user', 'email-auth'],
  async run(ctx) {
    const user = await ctx.throwawayUser();
    const username = user.identity.email;
    await useUpLoginAttempts(ctx, username, `${user.password}x`);
    const right = await ctx.anonymous.post('/fetch_api_key', { username, password: user.password }, noRetry);
    if (right.status === 429) return expectRateLimited(right, LOGIN_WINDOW_SECONDS, 'the right password after 5 failures');
    // A success is only acceptable from a target that limits no username at all.
    const probe = nobody(ctx);
    await useUpLoginAttempts(ctx, probe, 'wrong-password');
    const limited = (await ctx.anonymous.post('/fetch_api_key', { username: probe, password: 'wrong-password' }, noRetry)).status === 429;
    if (limited) fail(`the right password was accepted after ${LOGIN_ATTEMPTS} failures (HTTP ${right.status}), although the target limits failed logins`, right);
    ctx.note('the target does not limit failed logins (rate limiting is off)');
  },
};

interface LimitHeaders {
  readonly limit: number;
  readonly remaining: number;
  readonly reset: number;
}

/** The X-RateLimit-* headers, checked to be integers; undefined when the target sends none. */
function limitHeaders(reply: Reply): LimitHeaders | undefined {
  if (reply.headers['x-ratelimit-limit'] === undefined) return undefined;
  const [limit, remaining, reset] = ['limit', 'remaining', 'reset'].map((name) => Number(reply.headers[`x-ratelimit-${name}`])) as [number, number, number];
  check(Number.isInteger(limit) && limit > 0, `X-RateLimit-Limit must be a positive integer, got ${reply.headers['x-ratelimit-limit']}`, reply);
  check(Number.isInteger(remaining) && remaining >= 0 && remaining < limit, `X-RateLimit-Remaining must be an integer in [0, limit), got ${reply.headers['x-ratelimit-remaining']}`, reply);
  // An absolute UNIX time (not a duration), within a day of the client's clock.
  const now = Date.now() / 1000;
  check(Number.isInteger(reset) && reset > now - 3600 && reset < now + 86_400, `X-RateLimit-Reset must be a UNIX time near now, got ${reply.headers['x-ratelimit-reset']}`, reply);
  return { limit, remaining, reset };
}

/**
 * A real server counts requests in a sliding window, so a slot may come free mid-burst when an
 * earlier request of the user leaves it: then Remaining stays or rises. What always holds is that
 * it never falls by more than one per request, and that a request after an answer reporting
 * Remaining > 0 is served.
 */
const apiLimit: Rule = {
  id: 'auth/api-rate-limit-headers',
  title: "X-RateLimit-* count a user's requests down by one each (or up, as the window frees slots); Remaining > 0 means the next request is served; past a small enough limit a request gets 429 RATE_LIMIT_HIT with Retry-After",
  endpoint: '*',
  section: '5; 7',
  writes: true,
  needs: ['throwaway-user'],
  async run(ctx) {
    const { client } = await ctx.throwawayUser();
    const get = (c: ApiClient) => c.get('/users/me', undefined, noRetry);
    const first = await get(client);
    const headers = limitHeaders(first);
    if (!headers) return ctx.note('the target sends no X-RateLimit headers (API rate limiting is off)');
    let previous = headers;
    const exhaust = headers.limit <= EXHAUSTIBLE_API_LIMIT;
    for (let sent = 0; sent < (exhaust ? headers.limit + 1 : 2); sent++) {
      const reply = await get(client);
      if (reply.status === 429) {
        check(previous.remaining === 0, `a request after an answer reporting X-RateLimit-Remaining ${previous.remaining} must be served`, reply);
        expectRateLimited(reply, 3600, 'a request past the limit within the window');
        check(limitHeaders(reply)?.remaining === 0, 'a 429 reports X-RateLimit-Remaining 0', reply);
        return;
      }
      const next = limitHeaders(reply);
      check(next !== undefined && next.limit === headers.limit, 'X-RateLimit-Limit must be sent on every answer, unchanged', reply);
      const freed = next.remaining >= previous.remaining;
      check(freed || next.remaining === previous.remaining - 1, `X-RateLimit-Remaining must count down by one per request: ${previous.remaining} then ${next.remaining}`, reply);
      previous = next;
    }
    ctx.note(exhaust ? `no 429 after ${headers.limit + 1} requests: the window freed slots as fast as the run sent them` : `the limit (${headers.limit} requests) is too large to use up`);
  },
};

export const rules: readonly Rule[] = [failedLoginLimit, limitBlocksRightPassword, apiLimit];
