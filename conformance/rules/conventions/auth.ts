/**
 * Authentication (section 5) and getting an API key (section 4.6, plus the development variant it
 * references). Wrong-password checks use random usernames that exist nowhere: the real server
 * allows 5 failed logins per 30 minutes per username, so they never lock out a real account.
 */
import fc from 'fast-check';
import { basicAuthorization } from '../../client/encode.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { caseVariant, printableText } from '../support/arbitraries.js';
import { expectUnauthorized } from './credentials-required.js';
import type { Rule } from '../types.js';

/** Endpoints that need a user at every feature level (requests without credentials change nothing). */
const AUTHED_GETS = ['/users/me', '/users', '/users/1', '/users/2147483000'];

const noCredentials: Rule = {
  id: 'auth/no-credentials-unauthorized',
  title: 'a request without credentials gets 401 UNAUTHORIZED with a Basic challenge',
  endpoint: '*',
  section: '5.4',
  writes: false,
  async run(ctx) {
    await ctx.property('routes that need a user', [fc.constantFrom(...AUTHED_GETS)], async (path) => {
      expectUnauthorized(await ctx.anonymous.get(path));
    });
  },
};

const asciiText = (max: number) => fc.string({ unit: 'grapheme-ascii', maxLength: max });

const invalidCredentials: Rule = {
  id: 'auth/invalid-credentials-unauthorized',
  title: 'garbage keys, wrong emails and malformed Basic headers all get 401 UNAUTHORIZED',
  endpoint: 'GET /users/me',
  section: '5.1, 5.4',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const me = ctx.identity('user');
    const domain = me.email.split('@')[1] ?? 'example.com';
    const others = ctx.identities.filter((identity) => identity.userId !== me.userId).map((identity) => identity.email);
    const notMyKey = (key: string) => key.trim() !== me.apiKey;
    const notMyEmail = (email: string) => email.trim().toLowerCase() !== me.email.toLowerCase();
    const header = fc.oneof(
      // Right email, a well-formed or malformed key that is not the user's.
      fc.oneof(fc.stringMatching(/^[A-Za-z0-9]{32}$/), asciiText(40)).filter(notMyKey).map((key) => basicAuthorization(me.email, key)),
      // Another address (random, or another identity's) with the user's real key.
      fc
        .oneof(fc.stringMatching(/^[a-z0-9._-]{1,16}$/).map((local) => `${local}@${domain}`), others.length > 0 ? fc.constantFrom(...others) : fc.constant(`nobody@${domain}`))
        .filter(notMyEmail)
        .map((email) => basicAuthorization(email, me.apiKey)),
      // Malformed: not base64, no colon, several colons, no credentials token, too many tokens.
      fc.stringMatching(/^[A-Za-z0-9+/=!*._-]{1,40}$/).map((token) => `Basic ${token}`),
      asciiText(30).filter((text) => !text.includes(':')).map((text) => `Basic ${Buffer.from(text).toString('base64')}`),
      fc.tuple(asciiText(10), asciiText(10)).map(([a, b]) => `Basic ${Buffer.from(`${me.email}:${a}:${b}`).toString('base64')}`),
      fc.constantFrom('Basic', 'basic', 'Basic a b'),
    );
    await ctx.property('bad Authorization headers', [header], async (authorization) => {
      expectUnauthorized(await ctx.anonymous.withAuthorization(authorization).get('/users/me'));
    });
  },
};

const nonBasicScheme: Rule = {
  id: 'auth/non-basic-scheme-bad-request',
  title: 'an Authorization scheme other than Basic gets 400 BAD_REQUEST',
  endpoint: 'GET /users/me',
  section: '5.1',
  writes: false,
  async run(ctx) {
    const scheme = fc.oneof(fc.constantFrom('Bearer', 'Digest', 'Token', 'Negotiate'), fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,11}$/)).filter((s) => s.toLowerCase() !== 'basic');
    const token = fc.stringMatching(/^[A-Za-z0-9+/=._~-]{1,40}$/);
    await ctx.property('scheme and one credentials token', [scheme, token], async (name, credentials) => {
      expectError(await ctx.anonymous.withAuthorization(`${name} ${credentials}`).get('/users/me'), { status: 400, code: 'BAD_REQUEST' });
    });
  },
};

const caseInsensitive: Rule = {
  id: 'auth/scheme-and-email-case-insensitive',
  title: 'the Basic scheme name and the email match without regard to letter case',
  endpoint: 'GET /users/me',
  section: '5.1',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const me = ctx.identity('user');
    await ctx.property('case variants', [caseVariant('basic'), caseVariant(me.email)], async (scheme, email) => {
      const credentials = Buffer.from(`${email}:${me.apiKey}`).toString('base64');
      const reply = await ctx.anonymous.withAuthorization(`${scheme} ${credentials}`).get('/users/me');
      expectEqual(expectSuccess(reply).user_id, me.userId, 'user_id', reply);
    });
  },
};

const missingArgument: Rule = {
  id: 'fetch-api-key/missing-argument',
  title: 'a missing username or password gets 400 REQUEST_VARIABLE_MISSING naming it (username first)',
  endpoint: 'POST /fetch_api_key',
  section: '4.6; 7',
  writes: false,
  async run(ctx) {
    const present = fc.constantFrom('none', 'username', 'password');
    await ctx.property('one or both missing', [present, printableText(), printableText()], async (which, username, password) => {
      const params = which === 'username' ? { username } : which === 'password' ? { password } : {};
      const body = expectError(await ctx.anonymous.post('/fetch_api_key', params), { status: 400, code: 'REQUEST_VARIABLE_MISSING' });
      expectEqual(body.var_name, which === 'username' ? 'password' : 'username', 'var_name');
    });
  },
};

const wrongPassword: Rule = {
  id: 'fetch-api-key/wrong-password-authentication-failed',
  title: 'a username/password pair that matches no account gets 401 AUTHENTICATION_FAILED',
  endpoint: 'POST /fetch_api_key',
  section: '4.6',
  writes: false,
  needs: ['email-auth'],
  async run(ctx) {
    const domain = ctx.identities[0]?.email.split('@')[1] ?? 'example.com';
    await ctx.property(
      'unknown usernames, any password',
      [printableText(30)],
      async (password) => {
        const username = `${ctx.name('nobody')}@${domain}`;
        expectError(await ctx.anonymous.post('/fetch_api_key', { username, password }), { status: 401, code: 'AUTHENTICATION_FAILED' });
      },
      { maxRuns: 3 },
    );
  },
};

const invalidEmail: Rule = {
  id: 'fetch-api-key/username-not-an-email-bad-request',
  title: 'a username that is not an email address gets 400 BAD_REQUEST when usernames must be emails',
  endpoint: 'POST /fetch_api_key',
  section: '4.6',
  writes: false,
  async run(ctx) {
    if (!ctx.target.requireEmailFormatUsernames) ctx.skip('the target accepts non-email usernames (require_email_format_usernames is false)');
    const username = printableText(20).filter((text) => text !== '' && !text.includes('@'));
    await ctx.property('usernames without @', [username, printableText()], async (name, password) => {
      expectError(await ctx.anonymous.post('/fetch_api_key', { username: name, password }), { status: 400, code: 'BAD_REQUEST' });
    });
  },
};

const devKeyShape = v.object({ api_key: v.string({ nonEmpty: true }), email: v.string(), user_id: v.optional(v.int({ min: 1 })) });

const devFetchKey: Rule = {
  id: 'dev-fetch-api-key/returns-working-key',
  title: "the development key endpoint returns the user's existing key, email and user ID, and the key works",
  endpoint: 'POST /dev_fetch_api_key',
  section: '4.6; 5.2',
  writes: false,
  needs: ['dev-endpoints', 'user'],
  async run(ctx) {
    const me = ctx.identity('user');
    const reply = await ctx.anonymous.post('/dev_fetch_api_key', { username: me.email });
    const body = expectShape(expectSuccess(reply), devKeyShape, 'body', reply);
    expectEqual(body.email.toLowerCase(), me.email.toLowerCase(), 'email', reply);
    expectEqual(body.api_key, me.apiKey, 'api_key (existing keys are returned, not rotated)', reply);
    if (ctx.featureLevel >= 171) expectEqual(body.user_id, me.userId, 'user_id', reply);
    const own = await ctx.anonymous.withCredentials(body.email, body.api_key).get('/users/me');
    expectEqual(expectSuccess(own).user_id, me.userId, 'user_id of GET /users/me with the returned key', own);
  },
};

const devUnknownUser: Rule = {
  id: 'dev-fetch-api-key/unknown-user-authentication-failed',
  title: 'the development key endpoint answers 401 AUTHENTICATION_FAILED for an address with no account',
  endpoint: 'POST /dev_fetch_api_key',
  section: '4.6',
  writes: false,
  needs: ['dev-endpoints'],
  async run(ctx) {
    const domain = ctx.identities[0]?.email.split('@')[1] ?? 'example.com';
    await ctx.property('unknown addresses', [fc.stringMatching(/^[a-z0-9]{1,12}$/)], async (local) => {
      const username = `${ctx.name(`nobody-${local}`)}@${domain}`;
      expectError(await ctx.anonymous.post('/dev_fetch_api_key', { username }), { status: 401, code: 'AUTHENTICATION_FAILED' });
    }, { maxRuns: 5 });
  },
};

const listedUser = v.object({ email: v.string({ nonEmpty: true }), realm_url: v.optional(v.string()), realm_uri: v.optional(v.string()) });

const devListUsers: Rule = {
  id: 'dev-list-users/lists-logins',
  title: 'dev_list_users lists administrators and other users, each with an email and the realm URL',
  endpoint: 'GET /dev_list_users',
  section: '4.6',
  writes: false,
  needs: ['dev-endpoints'],
  async run(ctx) {
    const reply = await ctx.anonymous.get('/dev_list_users');
    const body = expectShape(expectSuccess(reply), v.object({ direct_admins: v.array(listedUser), direct_users: v.array(listedUser) }), 'body', reply);
    for (const entry of [...body.direct_admins, ...body.direct_users]) {
      check(entry.realm_url !== undefined || entry.realm_uri !== undefined, `entry ${entry.email} lacks realm_url/realm_uri`, reply);
    }
  },
};

export const rules: readonly Rule[] = [noCredentials, invalidCredentials, nonBasicScheme, caseInsensitive, missingArgument, wrongPassword, invalidEmail, devFetchKey, devUnknownUser, devListUsers];
