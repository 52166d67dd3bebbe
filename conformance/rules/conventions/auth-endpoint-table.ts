/**
 * Section 5 against every authenticated endpoint of the description (4.1-4.21 less 4.6, which
 * needs no key): each refuses a request without credentials, with a malformed Authorization header
 * and with wrong credentials, answering the real server's status, code and message. The table is
 * walked whole on every run (never sampled): one request per endpoint and kind of bad header.
 *
 * Every request is harmless even on a server that wrongly let it through: IDs name nothing and
 * no parameters are sent, so an endpoint that writes fails on a missing argument instead.
 */
import type { ApiClient, Reply } from '../../client/api-client.js';
import { basicAuthorization } from '../../client/encode.js';
import { check, expectEqual, expectError } from '../../expect/assert.js';
import type { Rule, RuleContext } from '../types.js';

/** An ID no realm reaches: user, message, draft, group and attachment paths name nothing. */
const ABSENT_ID = 2_147_483_000;

interface AuthenticatedEndpoint {
  readonly method: string;
  /** A path valid in shape for the route (IDs that name nothing). */
  readonly path: string;
  /** The feature level the endpoint appeared at (it is an unknown route before). */
  readonly since: number;
}

/** The described endpoints that need a user (section 4), in the description's order. */
export const AUTHENTICATED_ENDPOINTS: readonly AuthenticatedEndpoint[] = [
  { method: 'POST', path: '/users/me/subscriptions', since: 1 },
  { method: 'POST', path: '/typing', since: 1 },
  { method: 'PATCH', path: '/realm/user_settings_defaults', since: 96 },
  { method: 'POST', path: '/user_topics', since: 170 },
  { method: 'POST', path: '/users/me/presence', since: 1 },
  { method: 'POST', path: `/users/${ABSENT_ID}/status`, since: 407 },
  { method: 'PATCH', path: `/drafts/${ABSENT_ID}`, since: 87 },
  { method: 'POST', path: '/user_groups/create', since: 1 },
  { method: 'GET', path: `/messages/${ABSENT_ID}/history`, since: 1 },
  { method: 'POST', path: '/mark_topic_as_read', since: 1 },
  { method: 'POST', path: '/mobile_push/register', since: 406 },
  { method: 'PATCH', path: '/navigation_views/conformance-no-such-view', since: 390 },
  { method: 'POST', path: `/messages/${ABSENT_ID}/report`, since: 382 },
  { method: 'DELETE', path: `/users/${ABSENT_ID}`, since: 1 },
  { method: 'POST', path: '/realm/filters', since: 1 },
  { method: 'POST', path: '/reminders', since: 381 },
  { method: 'POST', path: `/user_groups/${ABSENT_ID}/subgroups`, since: 127 },
  { method: 'GET', path: '/realm/linkifiers', since: 54 },
  { method: 'DELETE', path: `/attachments/${ABSENT_ID}`, since: 1 },
  { method: 'GET', path: `/users/${ABSENT_ID}`, since: 1 },
];

/** The real server's texts (section 5.4 and its REST authentication). */
export const AUTH_TEXTS = {
  missing: 'Not logged in: API authentication or user session required',
  malformedHeader: 'Invalid authorization header for basic auth',
  notBasic: 'This endpoint requires HTTP basic authentication.',
  invalidKey: 'Invalid API key',
  malformedKey: 'Malformed API key',
} as const;

/** 401 `UNAUTHORIZED` with the given message and the Basic challenge of API paths. */
export function expectUnauthorizedWith(reply: Reply, msg: string, what: string): void {
  const body = expectError(reply, { status: 401, code: 'UNAUTHORIZED' });
  expectEqual(body.msg, msg, `msg (${what})`, reply);
  check(reply.headers['www-authenticate'] === 'Basic realm="zulip"', `${what}: 401 must carry WWW-Authenticate: Basic realm="zulip", got ${JSON.stringify(reply.headers['www-authenticate'])}`, reply);
}

/** One kind of bad Authorization header and the answer it gets. */
interface BadHeader {
  readonly what: string;
  /** The header value (undefined: none sent). */
  readonly header: (ctx: RuleContext) => string | undefined;
  readonly expect: (reply: Reply, what: string) => void;
}

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** Another 32-character key, differing from the real one in its last character. */
const otherKey = (key: string) => `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`;

/** Sends every kind of header to every endpoint the target's level has. */
async function walkTable(ctx: RuleContext, kinds: readonly BadHeader[]): Promise<void> {
  const endpoints = AUTHENTICATED_ENDPOINTS.filter((endpoint) => ctx.featureLevel >= endpoint.since);
  for (const kind of kinds) {
    const client: ApiClient = ctx.anonymous.withAuthorization(kind.header(ctx));
    for (const { method, path } of endpoints) kind.expect(await client.call(method, path), `${method} ${path}, ${kind.what}`);
  }
}

const unauthorizedAs = (msg: string) => (reply: Reply, what: string) => expectUnauthorizedWith(reply, msg, what);

const missing: Rule = {
  id: 'auth/every-endpoint-refuses-missing-credentials',
  title: 'every authenticated endpoint answers a request without credentials with 401 UNAUTHORIZED, the real message and a Basic challenge',
  endpoint: '*',
  section: '5.1, 5.4; 4.1-4.21',
  writes: false,
  async run(ctx) {
    await walkTable(ctx, [{ what: 'no Authorization header', header: () => undefined, expect: unauthorizedAs(AUTH_TEXTS.missing) }]);
  },
};

const malformed: Rule = {
  id: 'auth/every-endpoint-refuses-malformed-header',
  title: 'every authenticated endpoint answers a non-Basic scheme with 400 BAD_REQUEST, and Basic credentials that are not base64 or have no colon with 401 UNAUTHORIZED',
  endpoint: '*',
  section: '5.1, 5.4; 4.1-4.21',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const notBasic = (reply: Reply, what: string) => {
      const body = expectError(reply, { status: 400, code: 'BAD_REQUEST' });
      expectEqual(body.msg, AUTH_TEXTS.notBasic, `msg (${what})`, reply);
    };
    await walkTable(ctx, [
      { what: 'Bearer scheme', header: (c) => `Bearer ${base64(`${c.identity('user').email}:${c.identity('user').apiKey}`)}`, expect: notBasic },
      { what: 'credentials not base64', header: () => 'Basic %%%%', expect: unauthorizedAs(AUTH_TEXTS.malformedHeader) },
      { what: 'credentials without a colon', header: (c) => `Basic ${base64(`${c.identity('user').email}${c.identity('user').apiKey}`)}`, expect: unauthorizedAs(AUTH_TEXTS.malformedHeader) },
    ]);
  },
};

const wrong: Rule = {
  id: 'auth/every-endpoint-refuses-wrong-credentials',
  title: "every authenticated endpoint answers a wrong key, a key of the wrong form and another address with the user's key with 401 UNAUTHORIZED and the real message",
  endpoint: '*',
  section: '5.1, 5.4; 4.1-4.21',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const me = ctx.identity('user');
    const domain = me.email.split('@')[1] ?? 'example.com';
    await walkTable(ctx, [
      { what: 'a wrong key', header: () => basicAuthorization(me.email, otherKey(me.apiKey)), expect: unauthorizedAs(AUTH_TEXTS.invalidKey) },
      { what: 'a key of 31 characters', header: () => basicAuthorization(me.email, me.apiKey.slice(1)), expect: unauthorizedAs(AUTH_TEXTS.malformedKey) },
      { what: "an unknown address with the user's key", header: (c) => basicAuthorization(`${c.name('nobody')}@${domain}`, me.apiKey), expect: unauthorizedAs(AUTH_TEXTS.invalidKey) },
    ]);
  },
};

export const rules: readonly Rule[] = [missing, malformed, wrong];
