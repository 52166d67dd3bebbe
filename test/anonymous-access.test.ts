/**
 * Which `/api/v1` routes answer a request without credentials, as the real server scopes them:
 * its `rest_dispatch` (zerver/lib/rest.py) opens `allow_anonymous_user_web` views to spectators
 * on the web app's `/json` (and upload) paths only ("TODO: Allow /api calls when this is stable
 * enough") and raises `MissingAuthenticationError` for every other `/api` request without an
 * `Authorization` header; only the plain views of `v1_api_mobile_patterns` and the development
 * login views (zproject/urls.py, zproject/dev_urls.py) take no credentials. Its tests:
 * zerver/tests/test_decorators.py (`test_authenticated_rest_api_view`...), and
 * zerver/tests/test_message_fetch.py `test_get_messages_with_web_public` (through `/json`).
 */
import t from 'tap';
import type { Endpoint, Method } from '../server/app/endpoint.js';
import { ROUTES } from '../server/app/routes.js';
import { errorOf, testServer } from './support/harness.js';

/** The routes a caller without credentials may use on `/api/v1`, with what they answer. */
const OPEN_ROUTES = new Map<string, number>([
  ['GET /server_settings', 200],
  ['POST /fetch_api_key', 400],
  ['POST /dev_fetch_api_key', 400],
  // A plain Django view: every method answers.
  ...['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].map((method): [string, number] => [`${method} /dev_list_users`, 200]),
]);

const header = (headers: Readonly<Record<string, string>>, name: string): string | undefined =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];

const NOT_LOGGED_IN = { status: 401, code: 'UNAUTHORIZED', msg: 'Not logged in: API authentication or user session required' };

/** A concrete path for a route pattern: IDs for `{x:int}`, a word for the other parameters. */
const concrete = (pattern: string): string => pattern.replace(/\{[a-z_]+:int\}/g, '1').replace(/\{[a-z_]+(?::path)?\}/g, 'x');

t.test('every route but the login and server-settings views refuses a caller without credentials with 401', async (t) => {
  const s = testServer();
  const seen = new Set<string>();
  for (const route of ROUTES) {
    for (const [method, endpoint] of Object.entries(route.methods) as [Method, Endpoint][]) {
      // Routes of other levels answer as unknown here (their own tests cover them).
      if ((endpoint.since && !s.world.has(endpoint.since)) || (endpoint.until && s.world.has(endpoint.until))) continue;
      const key = `${method} ${route.path}`;
      seen.add(key);
      const reply = await s.anonymous.call(method, concrete(route.path), {});
      const expected = OPEN_ROUTES.get(key);
      if (expected === undefined) {
        t.same(errorOf(reply), NOT_LOGGED_IN, key);
        t.equal(header(reply.headers, 'www-authenticate'), 'Basic realm="zulip"', `${key} asks for HTTP Basic`);
      } else {
        t.equal(reply.status, expected, `${key} is open`);
      }
    }
  }
  for (const key of OPEN_ROUTES.keys()) t.ok(seen.has(key), `${key} is served`);
});

t.test('reading web-public channels needs credentials on /api/v1 even where the realm allows spectators', async (t) => {
  const s = testServer();
  t.equal(s.world.realm.enableSpectatorAccess, true, 'the development realm allows spectators');
  const rome = await s.as('ZOE@zulip.com').post('/messages', { type: 'stream', to: 'Rome', topic: 'x', content: 'public' });
  const narrow = JSON.stringify([{ operator: 'channels', operand: 'web-public' }]);
  t.same(errorOf(await s.anonymous.get('/messages', { anchor: 'newest', num_before: 10, narrow })), NOT_LOGGED_IN, 'GET /messages');
  t.same(errorOf(await s.anonymous.get(`/messages/${rome.body.id}`)), NOT_LOGGED_IN, 'GET /messages/{id}');
  t.same(errorOf(await s.anonymous.post('/register', {})), NOT_LOGGED_IN, 'POST /register');
  t.same(errorOf(await s.anonymous.get('/users')), NOT_LOGGED_IN, 'GET /users (open on /json from level 387)');
  t.same(errorOf(await s.anonymous.get(`/users/me/${s.streamId('Rome')}/topics`)), NOT_LOGGED_IN, 'GET /users/me/{stream_id}/topics');
});

t.test('the authentication check comes before parameters are read', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.anonymous.get('/messages', { anchor: 'nonsense', num_before: -1 })), NOT_LOGGED_IN);
  t.same(errorOf(await s.anonymous.post('/messages', {})), NOT_LOGGED_IN);
});
