/**
 * auth/api-rate-limit-headers proves its power against a server whose per-user API limit is small
 * enough for the rule to use up: it passes against the unbroken server (having really reached the
 * limit) and fails against broken rate-limit headers.
 */
import t from 'tap';
import { failedIds, failureLines, type Mutation, runOnReference } from './support/conformance.js';

/** The rule against a server whose API limit is small enough to use up (10 requests a minute per user). */
const runOnLimitedServer = (mutate?: Mutation) =>
  runOnReference({ ...(mutate ? { mutate } : {}), numRuns: 1, seed: 5, only: ['auth/api-rate-limit-headers'], app: { apiRateLimit: { attempts: 10, windowMs: 60_000 } } });

t.test('auth/api-rate-limit-headers uses up a small limit and passes against the unbroken server', async (t) => {
  const result = await runOnLimitedServer();
  t.same(failureLines(result), []);
  t.same(result.results[0]?.notes ?? [], [], 'the limit was used up (no note that it was too large or absent)');
});

/** Rewrites one answer header wherever it is sent. */
function rewriteHeader(name: string, change: (value: string) => string): Mutation {
  return async (request, next) => {
    const response = await next(request);
    const value = response.headers[name];
    return value === undefined ? response : { ...response, headers: { ...response.headers, [name]: change(value) } };
  };
}

for (const [what, mutate] of [
  ['X-RateLimit-Remaining is not counted down', rewriteHeader('X-RateLimit-Remaining', () => '8')],
  ['Retry-After is given in milliseconds', rewriteHeader('Retry-After', (value) => String(Number(value) * 1000))],
] as const) {
  t.test(`auth/api-rate-limit-headers fails when ${what}`, async (t) => {
    t.same(failedIds(await runOnLimitedServer(mutate)), ['auth/api-rate-limit-headers']);
  });
}
