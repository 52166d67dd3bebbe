/**
 * The optional per-user API rate limit behaves as a production server's: every authenticated
 * request counts, answers carry `X-RateLimit-*`, the request past the limit gets the real 429
 * body with `Retry-After`, and the conformance suite still passes against a limited server.
 */
import t from 'tap';
import { runSuite } from '../conformance/index.js';
import { ManualClock } from '../lib/state/clock.js';
import { createApp, makeRequest } from '../server/index.js';
import { testServer } from './support/harness.js';

t.test('the request past the limit gets 429 RATE_LIMIT_HIT with Retry-After, until the window frees one', async (t) => {
  const clock = new ManualClock(Date.UTC(2025, 5, 1));
  const s = testServer({ clock, apiRateLimit: { attempts: 3, windowMs: 60_000 } });
  const hamlet = s.as('hamlet@zulip.com');
  const remaining: string[] = [];
  for (let i = 0; i < 3; i++) {
    const reply = await hamlet.get('/users/me');
    t.equal(reply.status, 200);
    t.equal(reply.headers['X-RateLimit-Limit'], '3');
    remaining.push(reply.headers['X-RateLimit-Remaining'] ?? '');
  }
  t.same(remaining, ['2', '1', '0']);
  clock.advance(20_000);
  const limited = await hamlet.get('/users/me');
  t.equal(limited.status, 429);
  t.same(limited.body, { result: 'error', msg: 'API usage exceeded rate limit', 'retry-after': 40, code: 'RATE_LIMIT_HIT' });
  t.equal(limited.headers['Retry-After'], '40');
  t.equal(limited.headers['X-RateLimit-Remaining'], '0');
  t.equal((await s.as('othello@zulip.com').get('/users/me')).status, 200, 'each user has a budget of their own');
  t.equal((await s.anonymous.get('/server_settings')).status, 200, 'unauthenticated endpoints do not count');
  clock.advance(40_000);
  t.equal((await hamlet.get('/users/me')).status, 200, 'the window has moved on');
});

t.test('a refused request changes nothing', async (t) => {
  const s = testServer({ apiRateLimit: { attempts: 1, windowMs: 60_000 } });
  const iago = s.as('iago@zulip.com');
  await iago.get('/users/me');
  const reply = await iago.post('/drafts', { drafts: [{ type: 'stream', to: [3], topic: 'x', content: 'limited' }] });
  t.equal(reply.status, 429);
  t.equal([...s.world.drafts.values()].filter((d) => d.content === 'limited').length, 0);
});

t.test('without the option nothing is limited and no rate-limit headers are sent', async (t) => {
  const s = testServer();
  const reply = await s.as('hamlet@zulip.com').get('/users/me');
  t.equal(reply.headers['X-RateLimit-Limit'], undefined);
});

for (const level of [415, 207]) {
  t.test(`the suite passes against a rate-limited server at level ${level}, waiting out every 429`, async (t) => {
    // A tight window so that the suite really meets the limit, without waiting minutes.
    const app = createApp({ logger: () => undefined, featureLevel: level, apiRateLimit: { attempts: 20, windowMs: 300 } });
    let limited = 0;
    const handler = async (request: { method: string; path: string; headers: Record<string, string>; body?: Uint8Array; signal?: AbortSignal }) => {
      const reply = await app.handle(makeRequest(request.method, request.path, { headers: { ...request.headers }, body: request.body ?? new Uint8Array(), ...(request.signal ? { signal: request.signal } : {}) }));
      if (reply.status === 429) limited++;
      return reply;
    };
    try {
      const result = await runSuite({ handler, numRuns: 1, seed: level });
      t.same(result.results.filter((r) => r.outcome === 'failed').map((r) => `${r.id}: ${r.failure?.message ?? ''}`), []);
      t.ok(limited > 0, `the limit was reached (${limited} answers of 429 waited out)`);
    } finally {
      app.close();
    }
  });
}
