/**
 * Deadlines of the conformance suite do not count waits for the target's rate limit: a rule's
 * time limit, a cleanup's and an event wait's stand still while a request waits out a
 * `Retry-After`, and cleanups wait out every rate-limit answer until the target answers something
 * else. The server enforces the real limit (200 a minute) on a jumping clock; each wait jumps it
 * and also takes a scaled-down real time longer than the deadlines set here, so only deadlines
 * that leave the waits out can pass.
 */
import t from 'tap';
import { ApiClient, InProcessDispatcher, type Rule, runSuite } from '../conformance/index.js';
import { Transcript } from '../conformance/client/exchange.js';
import { RateLimitWaits } from '../conformance/client/rate-limit-waits.js';
import { pollUntil } from '../conformance/rules/support/event-waits.js';
import { progressListener } from '../conformance/report/progress.js';
import type { ChatApp } from '../server/app/app.js';
import type { ApiRequest } from '../server/app/request.js';
import type { Mutation } from './support/conformance.js';
import { realLimitServer } from './support/real-rate-limit.js';

/** A 60 s wait takes 300 ms of real time, more than every deadline below. */
const SCALE = 200;
const SHORT_MS = 150;

/** The user a request authenticates as (HTTP Basic), if any. */
function requesterId(app: ChatApp, request: ApiRequest): number | undefined {
  const header = request.headers.get('authorization') ?? '';
  const email = Buffer.from(header.replace(/^Basic /, ''), 'base64').toString('utf8').split(':')[0] ?? '';
  return app.world.usersByEmail.get(email.toLowerCase())?.id;
}

t.test("a request waiting out a 60 s Retry-After does not use up its rule's time limit", async (t) => {
  const server = realLimitServer({ scale: SCALE });
  const rule: Rule = {
    id: 'limits/waits-out-the-limit',
    title: 'one request past the limit',
    endpoint: 'GET /users/me',
    section: '1',
    writes: false,
    needs: ['admin'],
    async run(ctx) {
      server.exhaust(ctx.identity('admin').userId);
      const reply = await ctx.as('admin').get('/users/me');
      if (reply.status !== 200) ctx.skip(`answered ${reply.status}`);
    },
  };
  try {
    const result = await runSuite({ handler: server.handler, rules: [rule], timeoutMs: SHORT_MS, rateLimitSleep: server.sleep });
    const [outcome] = result.results;
    t.equal(outcome?.outcome, 'passed', outcome?.failure?.message ?? outcome?.skipReason ?? '');
    t.ok((outcome?.durationMs ?? 0) > SHORT_MS, `the rule took ${outcome?.durationMs} ms of wall time, over its ${SHORT_MS} ms limit`);
    t.ok(server.waits.some((ms) => ms >= 55_000), `the server asked for a long wait (${server.waits.join(', ')} ms)`);
    t.match(outcome?.notes, [/rate limited on .*\/users\/me: waited [56]\d(\.\d)? s/]);
    t.match(result.rateLimited, { waits: 1 });
  } finally {
    server.app.close();
  }
});

t.test('concurrent requests of one user past the limit all get through, taking turns as the window frees one slot at a time', async (t) => {
  // Each request carries its number, so the refusals each one met can be counted.
  const refusals = new Map<string, number>();
  const countRefusals: Mutation = async (request, next) => {
    const answer = await next(request);
    const n = request.query.find(([name]) => name === 'n')?.[1];
    if (answer.status === 429 && n !== undefined) refusals.set(n, (refusals.get(n) ?? 0) + 1);
    return answer;
  };
  const server = realLimitServer({ mutate: countRefusals });
  const rule: Rule = {
    id: 'limits/concurrent',
    title: 'twenty requests at once past the limit',
    endpoint: 'GET /users/me',
    section: '1',
    writes: false,
    needs: ['admin'],
    async run(ctx) {
      // A window of 200 requests 290 ms apart (the setup's requests left behind first), so that it
      // frees one slot at a time.
      server.clock.advance(60_000);
      server.exhaust(ctx.identity('admin').userId, 290);
      const admin = ctx.as('admin');
      const replies = await Promise.all(Array.from({ length: 20 }, (_, n) => admin.get('/users/me', undefined, { query: { n } })));
      ctx.note(`statuses ${replies.map((reply) => reply.status).join(' ')}`);
    },
  };
  try {
    const result = await runSuite({ handler: server.handler, rules: [rule], rateLimitSleep: server.sleep });
    t.ok(result.results[0]?.notes.includes(`statuses ${Array(20).fill(200).join(' ')}`), 'every request was answered 200');
    const most = Math.max(...refusals.values());
    t.ok(most > 4, `one request was refused ${most} times before its turn: more than the four retries a request once had`);
  } finally {
    server.app.close();
  }
});

t.test('cleanups meeting six long Retry-After answers in a row, each wait longer than their time limit, still complete', async (t) => {
  const refusals = new Map<string, number>();
  // The limit falls on the cleanups of the issue: deactivating the rule's groups, and the run's
  // deactivation of its throwaway users (after every rule has ended).
  let rulesDone = false;
  const exhaustBefore: Mutation = async (request, next, app) => {
    const kind = /^\/api\/v1\/user_groups\/\d+\/deactivate$/.test(request.path) ? 'group' : rulesDone && request.method === 'DELETE' && /^\/api\/v1\/users\/\d+$/.test(request.path) ? 'user' : undefined;
    if (kind !== undefined && (refusals.get(kind) ?? 0) < 6) {
      refusals.set(kind, (refusals.get(kind) ?? 0) + 1);
      const id = requesterId(app, request);
      if (id !== undefined) server.exhaust(id);
    }
    return next(request);
  };
  const server = realLimitServer({ scale: SCALE, mutate: exhaustBefore });
  const only = ['user-groups/create-name-length-limit', 'presence/event-when-user-comes-online'];
  try {
    const result = await runSuite({
      handler: server.handler,
      only,
      numRuns: 1,
      seed: 22,
      cleanupTimeoutMs: SHORT_MS,
      rateLimitSleep: server.sleep,
      listener: { onRuleEnd: (_result, position, total) => void (rulesDone = position === total) },
    });
    t.same(result.results.map((rule) => [rule.id, rule.outcome]).sort(), only.map((id) => [id, 'passed']).sort());
    t.same(result.leftChanged, [], 'nothing left changed');
    t.same(Object.fromEntries(refusals), { group: 6, user: 6 }, 'both cleanups met the limit six times');
    t.ok(server.waits.filter((ms) => ms >= 55_000).length >= 12, `each refusal was a long wait (${server.waits.length} waits)`);
    t.match(result.results.find((rule) => rule.id === only[0])?.notes, [/cleanup rate limited on .*\/deactivate: waited/]);
    const groups = [...server.app.world.groups.values()].filter((group) => group.name.startsWith(result.runTag));
    t.ok(groups.length >= 3 && groups.every((group) => group.deactivated), 'every group of the rule is deactivated');
    const created = [...server.app.world.users.values()].filter((user) => user.deliveryEmail.startsWith(result.runTag));
    t.ok(created.length >= 1 && created.every((user) => !user.isActive), 'every throwaway user is deactivated');
  } finally {
    server.app.close();
  }
});

t.test('after an interruption, a cleanup still waits out the rate limit and completes', async (t) => {
  const server = realLimitServer({ scale: SCALE });
  const interrupt = new AbortController();
  let restored = false;
  const rule: Rule = {
    id: 'limits/interrupted',
    title: 'interrupted with a cleanup pending',
    endpoint: '*',
    section: '1',
    writes: true,
    needs: ['admin'],
    async run(ctx) {
      const admin = ctx.identity('admin');
      ctx.cleanup('restore after the limit', async (c) => {
        server.exhaust(admin.userId);
        restored = (await c.as('admin').get('/users/me')).status === 200;
      });
      interrupt.abort('SIGINT');
      await new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
    },
  };
  try {
    const result = await runSuite({ handler: server.handler, rules: [rule], cleanupTimeoutMs: SHORT_MS, rateLimitSleep: server.sleep, interrupt: interrupt.signal });
    t.equal(result.interrupted, 'SIGINT');
    t.ok(restored, 'the cleanup got its answer after the wait');
    t.same(result.leftChanged, []);
  } finally {
    server.app.close();
  }
});

t.test('an event wait does not count the time a poll spends waiting out the rate limit', async (t) => {
  let polls = 0;
  const handler = async (): Promise<{ status: number; headers: Record<string, string>; body: string }> => {
    polls++;
    if (polls === 1) return { status: 429, headers: { 'retry-after': '59', 'content-type': 'application/json' }, body: '{"result":"error","msg":"API usage exceeded rate limit","code":"RATE_LIMIT_HIT","retry-after":59}' };
    const events = polls >= 4 ? [{ id: 0, type: 'heartbeat' }] : [];
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ result: 'success', msg: '', events }) };
  };
  const dispatcher = new InProcessDispatcher(handler);
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms / SCALE));
  const client = new ApiClient({ baseUrl: 'http://localhost:9991', dispatcher, transcript: new Transcript(), waits: new RateLimitWaits(sleep) });
  const queue = { state: {}, client, poll: async () => ((await client.get('/events')).body?.events ?? []) as Array<Record<string, unknown>>, close: async () => undefined };
  const started = performance.now();
  const events = await pollUntil(queue, (received) => received.length > 0, 100);
  t.ok(performance.now() - started > 100, 'more wall time passed than the deadline');
  t.same(events, [{ id: 0, type: 'heartbeat' }], 'the event was still waited for');
  t.equal(client.waits.totals().waits, 1);
  await dispatcher.close();
});

t.test('a deadline stands still while any wait is in progress, once for waits that overlap', async (t) => {
  const waits = new RateLimitWaits();
  const deadline = waits.deadline(200);
  const started = performance.now();
  await Promise.all([waits.wait(150), waits.wait(150), new Promise((resolve) => setTimeout(resolve, 50)).then(() => waits.wait(150))]);
  const paused = performance.now() - started;
  t.ok(paused >= 190, `the overlapping waits took ${Math.round(paused)} ms`);
  const remaining = deadline.remainingMs();
  t.ok(remaining > 150 && remaining <= 200, `the deadline kept ${Math.round(remaining)} of its 200 ms, and gained none from the 450 ms the waits asked for`);
  t.notOk(deadline.passed);
  await new Promise((resolve) => setTimeout(resolve, 210));
  t.ok(deadline.passed, 'it passes once its own time is spent');
  t.same(waits.totals(), { waits: 3, waitedMs: 450 });
});

t.test('progress output names each wait and whose it is: the rule, a rule\'s cleanup or the run itself', async (t) => {
  const lines: string[] = [];
  const log = progressListener({ write: (text: string) => void lines.push(text) });
  t.teardown(() => log.stop());
  log.onRuleStart?.({ id: 'users/y' } as Rule, 3, 9);
  log.onRateLimitWait?.({ waitMs: 58_400, url: 'http://localhost:9991/api/v1/users/me', during: 'cleanup', ruleId: 'users/x' });
  log.onRateLimitWait?.({ waitMs: 120, url: 'http://localhost:9991/api/v1/users/me', during: 'rule', ruleId: 'users/y' });
  log.onRateLimitWait?.({ waitMs: 7_000, url: 'http://localhost:9991/api/v1/users/11', during: 'run' });
  t.same(lines, [
    '[0/0] cleanup of users/x: rate limited on /api/v1/users/me, waiting 58.4 s\n',
    '[0/0] users/y: rate limited on /api/v1/users/me, waiting 0.1 s\n',
    '[0/0] the run itself: rate limited on /api/v1/users/11, waiting 7.0 s\n',
  ]);
  let screen = '';
  const terminal = progressListener({ isTTY: true, columns: 200, write: (text: string) => void (screen = text) });
  t.teardown(() => terminal.stop());
  terminal.onRuleStart?.({ id: 'users/y' } as Rule, 3, 9);
  terminal.onRateLimitWait?.({ waitMs: 59_000, url: 'http://localhost:9991/api/v1/users', during: 'cleanup', ruleId: 'users/x' });
  t.match(screen, /· rate limited: waiting 59\.0 s \(\/api\/v1\/users, cleanup of users\/x\)$/);
});
