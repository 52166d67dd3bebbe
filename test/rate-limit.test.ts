/**
 * The optional per-user API rate limit behaves as a production server's: every authenticated
 * request counts, answers carry `X-RateLimit-*`, the request past the limit gets the real 429
 * body with `Retry-After`, and a full conformance run against the real limit (200 requests a
 * minute, on a clock that jumps over the waits) passes and leaves nothing changed.
 */
import t from 'tap';
import { runSuite, type SuiteResult } from '../conformance/index.js';
import { ManualClock } from '../lib/state/clock.js';
import { failureLines } from './support/conformance.js';
import { testServer } from './support/harness.js';
import { counting429, realLimitServer } from './support/real-rate-limit.js';

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

/** `id: message` of every failed rule, and every state left changed. */
const problems = (result: SuiteResult) => [...failureLines(result), ...result.leftChanged];

for (const level of [415, 207]) {
  t.test(`a full run against the real limit (200 a minute) at level ${level} passes and leaves nothing changed, waiting out minute-long Retry-Afters`, async (t) => {
    // The limiter runs on the server's clock; each wait jumps it instead of taking a minute.
    const server = realLimitServer({ featureLevel: level });
    const counted = counting429(server.handler);
    try {
      const result = await runSuite({ handler: counted.handler, numRuns: 3, seed: level, rateLimitSleep: server.sleep });
      t.same(problems(result), []);
      t.equal(result.ok, true);
      const long = server.waits.filter((ms) => ms >= 50_000).length;
      t.ok(long >= 4, `the window filled again and again (${long} waits of 50 s or more, ${counted.limited()} answers of 429)`);
      t.equal(result.rateLimited.waits, server.waits.length, 'the result counts every wait');
    } finally {
      server.app.close();
    }
  });
}

/** The rules with the most cleanups (groups, channels, linkifiers, moderation channels) and event waits. */
const CLEANUP_AND_EVENT_RULES = ['user-groups/*', 'user-group-subgroups/*', 'subscribe/*', 'subscriptions*/*', 'unsubscribe/*', 'linkifiers/*', 'typing/*', 'user-topics/*', 'report-message/*'];

t.test('the cleanup- and event-heavy rules pass against the real limit and leave nothing changed with delivery up to 300 ms late (--delivery-delay 300)', async (t) => {
  // A subset: a delayed run spends most of its time polling for events, and the whole suite
  // already runs with this delay in delivery-delay.test.ts.
  const server = realLimitServer({ app: { deliveryDelayMs: 300 } });
  // The administrator's window starts full, so the run meets a minute-long Retry-After for certain
  // (how many more it meets depends on how the delayed deliveries interleave).
  const admin = server.app.world.usersByEmail.get('iago@zulip.com');
  if (admin) server.exhaust(admin.id);
  try {
    const result = await runSuite({ handler: server.handler, numRuns: 3, seed: 22, rateLimitSleep: server.sleep, only: CLEANUP_AND_EVENT_RULES });
    t.same(problems(result), []);
    t.ok(result.counts.passed >= 100, `${result.counts.passed} rules passed`);
    const long = server.waits.filter((ms) => ms >= 50_000).length;
    t.ok(long >= 1, `${long} of ${server.waits.length} waits were of 50 s or more`);
  } finally {
    server.app.close();
  }
});
