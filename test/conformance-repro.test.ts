/**
 * Reproductions of failing cases: --repro-dir writes every exchange of the failing case as a Node
 * script and a HAR 1.2 file (the failing exchange marked with why). The script re-checks what
 * failed: run against a real listening server broken the same way it says "reproduced" (exit 0),
 * against a correct server "not reproduced" (exit 1). Throwaway users are created again and
 * secrets asked for, never sent as placeholders.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { labelValues } from '../conformance/property.js';
import { firstDifference } from '../conformance/expect/assert.js';
import { foldRepeated } from '../conformance/report/fold.js';
import { writeReproductions } from '../conformance/report/repro/write.js';
import fc from 'fast-check';
import { expect, type Rule, runSuite } from '../conformance/index.js';
import { brokenApp, mapJsonBody, type Mutation, startHttp } from './support/conformance.js';
import { runCliInProcess } from './support/conformance-cli.js';

const RULE = 'conventions/ignored-parameters-listed-sorted';
const dropIgnored: Mutation = async (request, next) => mapJsonBody(await next(request), (body) => delete body.ignored_parameters_unsupported);

interface Replay {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function node(script: string, args: readonly string[], env: Record<string, string> = {}): Promise<Replay> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { env: { PATH: process.env.PATH ?? '', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

interface HarEntry {
  readonly request: { url: string; method: string; headers: Array<{ name: string; value: string }> };
  readonly response: { status: number; content: { text: string } };
  readonly comment?: string;
}

t.test('a failing case is written as a script and a HAR file; the script re-checks the failure: reproduced against the broken server, not against a correct one', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-repro-'));
  const run = await runCliInProcess(['--only', RULE, '--num-runs', '5', '--seed', '11', '--reporter', 'json', '--show-credentials', '--repro-dir', dir], { mutate: dropIgnored });
  t.equal(run.code, 1);
  t.match(run.stderr, new RegExp(`reproduction of ${RULE} \\(\\d+ exchanges\\): ${dir}/${RULE}\\.mjs, ${dir}/${RULE}\\.har`));
  t.match(run.stderr, /start an equivalent target with `chat-server --feature-level 415`/, 'an embedded run says how to start an equivalent HTTP target');
  const failure = (JSON.parse(run.stdout) as { results: Array<{ failure?: { message: string; check: Record<string, unknown>; reproduction: Array<{ url: string; responseBody: string }> } }> }).results[0]!.failure!;
  t.match(failure.check, { kind: 'equal', path: '.ignored_parameters_unsupported' }, 'the failure records what was checked, where');
  t.ok(Array.isArray(failure.check.expected) && !('received' in failure.check), 'expected the listed names, received nothing');

  const har = JSON.parse(readFileSync(join(dir, `${RULE}.har`), 'utf8')) as { log: { version: string; creator: { name: string }; entries: HarEntry[] } };
  t.equal(har.log.version, '1.2');
  t.equal(har.log.creator.name, 'chat-conformance');
  t.same(har.log.entries.map((entry) => entry.request.url), failure.reproduction.map((exchange) => exchange.url), 'the HAR holds every exchange of the case');
  const commented = har.log.entries.filter((entry) => entry.comment !== undefined);
  t.equal(commented.length, 1, 'one exchange is marked');
  t.equal(commented[0]!.comment, `failing exchange of ${RULE}: ${failure.message}`, 'with the whole failure message');
  t.equal(commented[0]!.response.content.text, failure.reproduction.at(-1)!.responseBody);

  const broken = await startHttp(dropIgnored);
  const correct = await startHttp();
  t.teardown(async () => {
    await broken.close();
    await correct.close();
  });
  const script = join(dir, `${RULE}.mjs`);
  const text = readFileSync(script, 'utf8');
  t.ok(text.includes(failure.message.split('\n').map((line) => `//   ${line}`).join('\n')), 'the header has the whole failure message');
  const again = await node(script, [broken.url]);
  t.equal(again.code, 0, again.stderr);
  t.match(again.stdout, /# reproduced: the same check failed again: \.ignored_parameters_unsupported: expected \[.*\], got nothing \(absent\)/);
  const fixed = await node(script, [correct.url]);
  t.equal(fixed.code, 1, 'a correct server does not reproduce it');
  t.match(fixed.stdout, /# not reproduced: the check held/);

  const redactedDir = mkdtempSync(join(tmpdir(), 'conformance-repro-'));
  await runCliInProcess(['--only', RULE, '--num-runs', '5', '--seed', '11', '--reporter', 'json', '--repro-dir', redactedDir], { mutate: dropIgnored });
  const redacted = join(redactedDir, `${RULE}.mjs`);
  t.notMatch(readFileSync(redacted, 'utf8'), /Basic [A-Za-z0-9+/]{20,}|redacted/, 'the default script carries no credentials and no placeholder');
  const refused = await node(redacted, [broken.url]);
  t.equal(refused.code, 2, 'without the credentials it does not run');
  t.match(refused.stderr, /not run: set AUTH_1 to the API key of \S+@\S+ \(or the whole Authorization header\)/);
  const authorization = har.log.entries.at(-1)!.request.headers.find((header) => header.name === 'authorization')!.value;
  const key = Buffer.from(authorization.slice('Basic '.length), 'base64').toString('utf8').split(':')[1]!;
  const supplied = await node(redacted, [broken.url], { AUTH_1: key });
  t.equal(supplied.code, 0, 'with the API key supplied, the redacted script reproduces too');
});

/** Renames a throwaway user (as the admin) and reads the name back as that user, after a password login. */
const throwawayRule: Rule = {
  id: 'repro/throwaway-rename',
  title: 'a renamed throwaway user sees its new name',
  endpoint: 'GET /users/me',
  section: '2.3',
  writes: true,
  needs: ['admin', 'throwaway-user', 'email-auth'],
  run: async (ctx) => {
    const user = await ctx.throwawayUser();
    expect.expectSuccess(await ctx.anonymous.post('/fetch_api_key', { username: user.identity.email, password: user.password }));
    const name = ctx.name('renamed');
    expect.expectSuccess(await ctx.as('admin').patch(`/users/${user.identity.userId}`, { full_name: name }));
    const me = await user.client.get('/users/me');
    expect.expectEqual(me.body?.full_name, name, 'full_name', me);
  },
};
const staleName: Mutation = async (request, next) => {
  const response = await next(request);
  return request.method === 'GET' && request.path === '/api/v1/users/me' ? mapJsonBody(response, (body) => void (body.full_name = 'stale')) : response;
};

t.test('a script creates its throwaway users again, sends their fresh password and IDs, and re-checks the value with the fresh run tag', async (t) => {
  const { app, handler } = brokenApp(staleName);
  const result = await runSuite({ handler, rules: [throwawayRule], numRuns: 1, seed: 5 });
  app.close();
  const failure = result.results[0]!.failure!;
  t.equal(failure.throwawayUsers?.length, 1);
  t.match(failure.check, { kind: 'equal', path: '.full_name', received: 'stale' });
  const dir = mkdtempSync(join(tmpdir(), 'conformance-repro-'));
  writeReproductions(dir, result, { redact: true });
  const script = join(dir, `${throwawayRule.id}.mjs`);
  const text = readFileSync(script, 'utf8');
  t.notOk(text.includes(failure.throwawayUsers![0]!.password), 'the recorded password is not in the script');
  t.match(text, /AUTH_1: API key of iago@zulip\.com \(an administrator: creates the throwaway users\)/);

  const broken = await startHttp(staleName);
  const correct = await startHttp();
  t.teardown(async () => {
    await broken.close();
    await correct.close();
  });
  const adminKey = async (url: string) => ((await (await fetch(`${url}/api/v1/dev_fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: 'iago@zulip.com' }) })).json()) as { api_key: string }).api_key;
  const again = await node(script, [broken.url], { AUTH_1: await adminKey(broken.url) });
  t.equal(again.code, 0, again.stdout + again.stderr);
  t.match(again.stdout, /# created the throwaway user conf-[a-z0-9]{6}-user1@zulip\.com \(user \d+\)/);
  t.match(again.stdout, /== 1\/3 POST \/api\/v1\/fetch_api_key -> HTTP 200\n/, 'the fresh password logs in');
  t.match(again.stdout, /# reproduced: the same check failed again: \.full_name: expected "conf-[a-z0-9]{6}-renamed-\d+", got "stale"/);
  t.notMatch(again.stdout, new RegExp(result.runTag), 'names carry a fresh run tag');
  t.equal(again.stderr, '', 'the created user is deactivated at the end');
  // A second run on the same server gets another user ID: the later requests must follow it.
  const twice = await node(script, [broken.url], { AUTH_1: await adminKey(broken.url) });
  const ids = [again, twice].map((run) => Number(/# created the throwaway user \S+ \(user (\d+)\)/.exec(run.stdout)?.[1]));
  t.not(ids[0], ids[1]);
  t.match(twice.stdout, new RegExp(`== 2/3 PATCH /api/v1/users/${ids[1]} -> HTTP 200`), 'the fresh user ID replaces the recorded one');
  t.equal(twice.code, 0, twice.stdout + twice.stderr);
  const fixed = await node(script, [correct.url], { AUTH_1: await adminKey(correct.url) });
  t.equal(fixed.code, 1, fixed.stdout + fixed.stderr);
  t.match(fixed.stdout, /# not reproduced: the check held: \.full_name/);
});

t.test('failure text: repeated findings folded, first difference named, counterexample values labelled', async (t) => {
  const lines = ['response shape (14 problems):', ...Array.from({ length: 14 }, (_, i) => `  - users[${i}].email: expected string, got null`), '  - realm: missing'];
  t.same(foldRepeated(lines), ['response shape (14 problems):', '  - users[0].email: expected string, got null', '  - users[1].email: expected string, got null', '  - ... and 12 more like this', '  - realm: missing']);
  t.same(firstDifference({ a: [1, { b: 'x', c: 2 }] }, { a: [1, { b: 'y', c: 2 }] }), { path: '.a[1].b', actual: 'x', expected: 'y' });
  t.same(firstDifference([1, 2, 3], [1, 2]), { path: '.length', actual: 3, expected: 2 });
  t.equal(firstDifference({ a: 1 }, { a: 1 }), undefined);
  t.same(labelValues('files x delete order', [['a'], [2, 0]]), ['files: ["a"]', 'delete order: [2,0]']);
  t.same(labelValues('topic names', ['x']), ['topic names: "x"']);
  t.same(labelValues('anything', [1, 'b'], ['count', 'name']), ['count: 1', 'name: "b"']);
  t.same(labelValues('two things', [1, 2]), ['value 1: 1', 'value 2: 2']);
});

t.test('the reproduction holds the case: setup and the failing exchanges, not the passing runs of other properties', async (t) => {
  const base = { endpoint: 'GET /server_settings', section: '9.2', writes: false } as const;
  const get = (ctx: Parameters<Rule['run']>[0], step: string) => ctx.anonymous.get('/server_settings', { step });
  const rules: Rule[] = [
    {
      ...base,
      id: 'case/assertion-after-property',
      title: 'fails after a passing property',
      run: async (ctx) => {
        await get(ctx, 'setup');
        await ctx.property('passing', [fc.nat()], async () => void (await get(ctx, 'passing-run')));
        expect.fail('broken', await get(ctx, 'failing'));
      },
    },
    {
      ...base,
      id: 'case/property',
      title: 'a failing property after setup',
      run: async (ctx) => {
        await get(ctx, 'setup');
        await ctx.property('n', [fc.nat()], async (n) => expect.check(n < 3, 'too big', await get(ctx, `run-${n}`)));
      },
    },
  ];
  const { app, handler } = brokenApp();
  const result = await runSuite({ handler, rules, numRuns: 30, seed: 1 });
  app.close();
  const steps = (id: string) => result.results.find((rule) => rule.id === id)!.failure!.reproduction.map((exchange) => new URL(exchange.url).searchParams.get('step'));
  t.same(steps('case/assertion-after-property'), ['setup', 'failing']);
  t.same(steps('case/property'), ['setup', 'run-3'], 'setup, then the shrunk counterexample alone');
});

/** A channel shared by the run: made by whichever rule asks first. */
const sharedChannel = (ctx: Parameters<Rule['run']>[0]) =>
  ctx.runShared('repro-channel', async () => {
    const name = ctx.name('shared');
    expect.expectSuccess(await ctx.as('admin').post('/users/me/subscriptions', { subscriptions: [{ name }] }));
    const id = (await ctx.as('admin').get('/get_stream_id', { stream: name })).body?.stream_id as number;
    return { id, name };
  });
const channelRules: Rule[] = ['a-makes', 'b-uses'].map((id) => ({
  id: `repro/${id}`,
  title: `${id} the shared channel`,
  endpoint: 'GET /streams/{stream_id}',
  section: '3.1',
  writes: true,
  needs: ['admin'],
  run: async (ctx) => {
    const channel = await sharedChannel(ctx);
    if (id === 'a-makes') return;
    const reply = await ctx.as('admin').get(`/streams/${channel.id}`);
    expect.expectEqual((reply.body?.stream as { name?: unknown } | undefined)?.name, channel.name, 'stream.name', reply);
  },
}));
const renamed: Mutation = async (request, next) => {
  const response = await next(request);
  return request.method === 'GET' && /^\/api\/v1\/streams\/\d+$/.test(request.path) ? mapJsonBody(response, (body) => void ((body.stream as Record<string, unknown>).name = 'renamed')) : response;
};

t.test('a rule using a fixture another rule made carries the exchanges that made it; its script replays them and follows the fresh channel ID', async (t) => {
  const { app, handler } = brokenApp(renamed);
  const result = await runSuite({ handler, rules: channelRules, numRuns: 1, seed: 5 });
  app.close();
  const failure = result.results.find((rule) => rule.id === 'repro/b-uses')!.failure!;
  t.same(failure.sharedSetup?.map((exchange) => new URL(exchange.url).pathname), ['/api/v1/users/me/subscriptions', '/api/v1/get_stream_id']);
  t.match(failure.check, { kind: 'equal', path: '.stream.name', received: 'renamed' });
  const dir = mkdtempSync(join(tmpdir(), 'conformance-repro-'));
  writeReproductions(dir, result, { redact: false });
  const script = join(dir, 'repro/b-uses.mjs');
  const har = JSON.parse(readFileSync(join(dir, 'repro/b-uses.har'), 'utf8')) as { log: { entries: HarEntry[] } };
  t.same(har.log.entries.map((entry) => entry.comment !== undefined), [false, false, true], 'the failing exchange, after the shared setup, is marked');

  const broken = await startHttp(renamed);
  const correct = await startHttp();
  t.teardown(async () => {
    await broken.close();
    await correct.close();
  });
  const first = await node(script, [broken.url]);
  const second = await node(script, [broken.url]);
  const ids = [first, second].map((run) => Number(/== 3\/3 GET \/api\/v1\/streams\/(\d+) /.exec(run.stdout)?.[1]));
  t.not(ids[0], ids[1], 'the second run made another channel and followed its ID');
  t.same([first.code, second.code], [0, 0], second.stdout);
  t.match(second.stdout, /# reproduced: the same check failed again: \.stream\.name: expected "conf-[a-z0-9]{6}-shared-1", got "renamed"/);
  const fixed = await node(script, [correct.url]);
  t.equal(fixed.code, 1, fixed.stdout);
});
