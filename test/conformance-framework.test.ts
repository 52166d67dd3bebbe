/**
 * The conformance runner against the embedded reference server (in-process): selection, skips
 * with reasons, cleanups, deviations, properties and their replay, timeouts, target errors.
 */
import fc from 'fast-check';
import t from 'tap';
import { expect, type Rule, runSuite, TargetError } from '../conformance/index.js';
import { brokenApp } from './support/conformance.js';

const rule = (id: string, run: Rule['run'] = async () => undefined, extra: Partial<Rule> = {}): Rule => ({
  id,
  title: id,
  endpoint: 'GET /users/me',
  section: '1',
  writes: false,
  run,
  ...extra,
});

async function run(rules: readonly Rule[], options: Omit<Parameters<typeof runSuite>[0], 'handler' | 'rules' | 'app'> = {}) {
  const { app, handler } = brokenApp();
  try {
    return await runSuite({ handler, rules, numRuns: 10, seed: 3, ...options });
  } finally {
    app.close();
  }
}

const ids = (result: Awaited<ReturnType<typeof run>>) => result.results.map((r) => r.id);

t.test('--only and --skip select rules by glob, --read-only leaves out writing rules', async (t) => {
  const rules = [rule('a/one'), rule('a/two', undefined, { writes: true }), rule('b/one'), rule('b/two-x')];
  t.same(ids(await run(rules, { only: ['a/*'] })), ['a/one', 'a/two']);
  t.same(ids(await run(rules, { only: ['*/one,b/*'], skip: ['*-x'] })), ['a/one', 'b/one']);
  t.same(ids(await run(rules, { readOnly: true })), ['a/one', 'b/one', 'b/two-x']);
});

t.test('shards split the selected rules deterministically into disjoint parts that cover them all', async (t) => {
  const rules = ['c/a', 'c/b', 'c/c', 'c/d', 'c/e'].map((id) => rule(id));
  const parts = [];
  for (const index of [1, 2, 3]) parts.push(ids(await run(rules, { shard: { index, total: 3 } })));
  t.same(parts.flat().sort(), ['c/a', 'c/b', 'c/c', 'c/d', 'c/e']);
  t.same(parts[0], ids(await run(rules, { shard: { index: 1, total: 3 } })));
  t.ok(parts.every((part) => part.length >= 1));
});

t.test('rules outside the feature-level range or with unmet needs are skipped with the reason', async (t) => {
  const result = await run([
    rule('d/future', undefined, { levels: { min: 9999 } }),
    rule('d/past', undefined, { levels: { max: 10 } }),
    rule('d/admin', async (ctx) => void (await ctx.as('admin').get('/users/me')), { needs: ['admin'] }),
  ]);
  const reasons = new Map(result.results.map((r) => [r.id, r.skipReason]));
  t.match(reasons.get('d/future'), /needs feature level >= 9999 \(target: 415\)/);
  t.match(reasons.get('d/past'), /up to feature level 10/);
  t.equal(result.results.find((r) => r.id === 'd/admin')?.outcome, 'passed');
});

t.test('throwaway users carry the run tag and are deactivated when the run ends', async (t) => {
  const { app, handler } = brokenApp();
  const created: Array<{ email: string; userId: number }> = [];
  const result = await runSuite({
    handler,
    rules: [
      rule('k/uses-two', async (ctx) => {
        for (const n of [1, 2]) {
          const { identity, client } = await ctx.throwawayUser();
          created.push(identity);
          expect.expectEqual(expect.expectSuccess(await client.get('/users/me')).user_id, identity.userId, `user ${n}`);
        }
      }, { needs: ['throwaway-user'], writes: true }),
    ],
  });
  t.equal(result.results[0]?.outcome, 'passed');
  t.equal(created.length, 2);
  t.ok(created.every((user) => user.email.startsWith(`${result.runTag}-`)));
  t.same(created.map((user) => app.world.users.get(user.userId)?.isActive), [false, false]);
  app.close();
});

t.test('where users cannot be created, rules needing a throwaway user are skipped with the reason', async (t) => {
  const { app, handler } = brokenApp(async (request, next) =>
    request.method === 'POST' && request.path === '/api/v1/users'
      ? { status: 400, headers: {}, body: '{"result":"error","msg":"User not authorized to create users","code":"BAD_REQUEST"}' }
      : next(request),
  );
  const result = await runSuite({ handler, rules: [rule('k/needs-throwaway', undefined, { needs: ['throwaway-user'] })] });
  app.close();
  t.match(result.results[0]?.skipReason, /needs users the run can create: POST \/users answered HTTP 400 BAD_REQUEST/);
});

t.test('with a single credential and no bootstrap, rules needing a second identity are skipped', async (t) => {
  const { app, handler } = brokenApp();
  const hamlet = app.world.usersByEmail.get('hamlet@zulip.com')!;
  const result = await runSuite({
    handler,
    rules: [rule('e/two', undefined, { needs: ['member', 'second-member'] }), rule('e/one', undefined, { needs: ['member'] })],
    credentials: { pairs: [{ email: hamlet.deliveryEmail, apiKey: hamlet.apiKey }], bootstrap: false },
  });
  app.close();
  t.match(result.results.find((r) => r.id === 'e/two')?.skipReason, /needs the 'second-member' identity/);
  t.equal(result.results.find((r) => r.id === 'e/one')?.outcome, 'passed');
  t.same(result.identities, ['member: hamlet@zulip.com (user 10, member, flags)']);
});

t.test('cleanups run last-in-first-out after a failure and after a timeout; run cleanups run at the end', async (t) => {
  const order: string[] = [];
  const failing = rule('f/fails', async (ctx) => {
    ctx.cleanup('first', async () => void order.push('fails:first'));
    ctx.cleanup('second', async (c) => {
      const reply = await c.anonymous.get('/server_settings');
      order.push(`fails:second:${reply.status}`);
    });
    ctx.cleanup('at the end', async () => void order.push('run-scoped'), { scope: 'run' });
    expect.fail('deliberate');
  });
  const slow = rule('f/slow', async (ctx) => {
    ctx.cleanup('after timeout', async (c) => void order.push(`slow:${(await c.anonymous.get('/server_settings')).status}`));
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  });
  const result = await run([failing, slow, rule('f/then')], { timeoutMs: 200 });
  t.same(order, ['fails:second:200', 'fails:first', 'slow:200', 'run-scoped']);
  t.equal(result.results[0]?.failure?.message, 'deliberate');
  t.equal(result.results[1]?.failure?.kind, 'timeout');
  t.equal(result.results[2]?.outcome, 'passed');
});

t.test('a timeout aborts the requests the rule has in flight', async (t) => {
  const { app, handler } = brokenApp(async (request, next) => (request.path.endsWith('/hang') ? new Promise(() => undefined) : next(request)));
  const result = await runSuite({ handler, timeoutMs: 100, rules: [rule('g/hangs', async (ctx) => void (await ctx.anonymous.get('/hang')))] });
  app.close();
  const failure = result.results[0]?.failure;
  t.equal(failure?.kind, 'timeout');
  t.match(failure?.exchanges.at(-1)?.error ?? '', /abort|timed out/i);
});

t.test('a known deviation passes by default and fails with strictDocs where this server keeps to the description', async (t) => {
  const observes = rule('h/deviates', async (ctx) => ctx.deviation('navigation-view-not-found-code', 'saw BAD_REQUEST'), { deviation: 'navigation-view-not-found-code' });
  const lenient = await run([observes]);
  t.equal(lenient.results[0]?.outcome, 'passed');
  t.same(lenient.results[0]?.deviations.map((d) => [d.id, d.section, d.detail]), [['navigation-view-not-found-code', '4.13', 'saw BAD_REQUEST']]);
  const strict = await run([observes], { strictDocs: true });
  t.equal(strict.results[0]?.outcome, 'failed');
  t.match(strict.results[0]?.failure?.message, /known deviation 'navigation-view-not-found-code' observed \(--strict-docs\)/);
  // Where this server itself takes the real server's side, --strict-docs records but does not fail.
  const realSide = rule('h/real-side', async (ctx) => ctx.deviation('emojiset-names', 'saw google'), { deviation: 'emojiset-names' });
  const recorded = await run([realSide], { strictDocs: true });
  t.equal(recorded.results[0]?.outcome, 'passed');
  t.same(recorded.results[0]?.deviations.map((d) => d.id), ['emojiset-names']);
});

const evenOnly = rule('i/property', async (ctx) => {
  await ctx.property('numbers', [fc.integer({ min: 0, max: 1000 })], async (n) => {
    const reply = await ctx.anonymous.get('/server_settings', { probe: n });
    expect.check(n < 100, `too big: ${n}`, reply);
  });
});

t.test('a failing property reports the shrunk counterexample, its seed, path and exchanges', async (t) => {
  const result = await run([evenOnly], { numRuns: 50 });
  const failure = result.results[0]?.failure;
  t.equal(failure?.kind, 'property');
  t.equal(failure?.property?.counterexample, '[100]');
  t.ok(failure?.property?.reproduced);
  t.same(failure?.exchanges.map((e) => e.url), ['http://localhost:9991/api/v1/server_settings?probe=100']);
  t.match(failure?.curl[0], /^curl -sS -i 'http:\/\/localhost:9991\/api\/v1\/server_settings\?probe=100' -H 'accept: application\/json'\n# -> HTTP 200 /);
  t.match(failure?.replayCommand, new RegExp(`^chat-conformance --only i/property --seed 3 --num-runs 50 --replay ${failure?.property?.replay}$`));
});

t.test('replaying the printed token re-runs exactly that counterexample', async (t) => {
  const first = await run([evenOnly], { numRuns: 50 });
  const token = first.results[0]?.failure?.property?.replay;
  const replay = await run([evenOnly], { numRuns: 50, seed: 999, replay: token! });
  const failure = replay.results[0]?.failure;
  t.equal(failure?.property?.counterexample, '[100]');
  t.equal(failure?.property?.numRuns, 1);
  t.equal(replay.results[0]?.requests, 2, 'one run plus the recorded re-run');
});

t.test('a rule using an identity it did not declare fails with a clear error', async (t) => {
  const result = await run([rule('j/undeclared', async (ctx) => void ctx.as('guest'))]);
  t.match(result.results[0]?.failure?.message, /uses 'guest' without listing it in needs/);
});

t.test('a target that is not a chat server, or refused credentials, end the run with TargetError', async (t) => {
  await t.rejects(runSuite({ handler: async () => ({ status: 404, headers: {}, body: 'no' }), rules: [] }), TargetError);
  const { app, handler } = brokenApp();
  await t.rejects(runSuite({ handler, rules: [], credentials: { pairs: [{ email: 'iago@zulip.com', apiKey: 'x'.repeat(32) }] } }), /credentials from flags were refused/);
  app.close();
});

t.test('waiting out a 429 does not count against the rule time limit', async (t) => {
  let limited = 0;
  const { app, handler } = brokenApp(async (request, next) => {
    if (!request.path.endsWith('/limited') || limited++ > 0) return next(request);
    return { status: 429, headers: { 'Retry-After': '1.2' }, body: '{"result":"error","msg":"API usage exceeded rate limit","code":"RATE_LIMIT_HIT","retry-after":1.2}' };
  });
  // A limit of 200 ms was too tight for a loaded machine: the request itself took longer in a shard.
  const result = await runSuite({
    handler,
    timeoutMs: 1000,
    rules: [rule('l/limited', async (ctx) => expect.expectStatus(await ctx.anonymous.get('/limited'), 404))],
  });
  app.close();
  t.equal(result.results[0]?.outcome, 'passed', result.results[0]?.failure?.message ?? 'passed');
  t.match(result.results[0]?.notes[0], /rate limited on http:\/\/localhost:9991\/api\/v1\/limited: waited 1\.3 s/);
});

t.test('with bail the run stops after the first failure and reports the rest as not run', async (t) => {
  const result = await run([rule('m/a'), rule('m/b', async () => expect.fail('no')), rule('m/c'), rule('m/d')], { bail: true });
  t.same(result.results.map((r) => [r.id, r.outcome]), [['m/a', 'passed'], ['m/b', 'failed'], ['m/c', 'skipped'], ['m/d', 'skipped']]);
  t.equal(result.results[2]?.skipReason, 'not run: --bail after a failure');
});
