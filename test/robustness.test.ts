/**
 * Bad input never crashes the server and never yields a 5xx: random methods, paths built from
 * the real routes, hostile parameter names and values, with and without valid credentials.
 */
import fc from 'fast-check';
import t from 'tap';
import { ROUTES } from '../server/app/routes.js';
import { basic, Client, testServer } from './support/harness.js';

const hostileStrings = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', ' ', '\u0000', 'null', 'NaN'),
  fc.constantFrom('[]', '{}', '[1,"a"]', '{"__proto__":1}', '1e999', '-1', '0', '99999999999999999999', 'true', '"x"', '[[[]]]'),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.json({ maxDepth: 3 }),
);

const pathFor = (pattern: string) =>
  fc.tuple(...pattern.split('/').filter(Boolean).map((segment) =>
    /^\{/.test(segment) ? fc.oneof(fc.constantFrom('1', '10', '0', '999999', 'me', 'x', '%00', '__proto__'), fc.nat().map(String)) : fc.constant(segment),
  )).map((parts) => `/api/v1/${parts.join('/')}`);

const requestArb = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS'),
  path: fc.constantFrom(...ROUTES.map((r) => r.path)).chain(pathFor),
  params: fc.dictionary(fc.oneof(hostileStrings, fc.constantFrom('to', 'type', 'op', 'stream_id', 'topic', 'subscriptions', 'principals', 'draft', 'name', 'members', 'content', 'status')), hostileStrings, { maxKeys: 4 }),
  who: fc.constantFrom('iago@zulip.com', 'hamlet@zulip.com', 'polonius@zulip.com', 'default-bot@zulip.com', 'anonymous', 'garbage'),
});

t.test('no request, however malformed, yields a 5xx or an uncaught error', async (t) => {
  const s = testServer();
  const garbage = new Client(s.app, basic('iago@zulip.com', 'x'.repeat(32)));
  await fc.assert(
    fc.asyncProperty(requestArb, async ({ method, path, params, who }) => {
      const client = who === 'anonymous' ? s.anonymous : who === 'garbage' ? garbage : s.as(who);
      const reply = await client.call(method, path, params);
      if (reply.status >= 500) throw new Error(`${method} ${path} ${JSON.stringify(params)} -> ${reply.status} ${reply.text}`);
      // Only the file views answer HTML (their 403 and 404 pages, as on the real server); everything else is JSON.
      const htmlPage = path.startsWith('/api/v1/user_uploads/') && reply.headers['Content-Type'] === 'text/html; charset=utf-8';
      if (reply.text !== '' && method !== 'HEAD' && !htmlPage) JSON.parse(reply.text);
    }),
    { numRuns: Number(process.env.ROBUSTNESS_RUNS ?? 400) },
  );
  t.pass();
});
