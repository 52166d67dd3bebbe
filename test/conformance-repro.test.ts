/**
 * Reproductions of failing cases: --repro-dir writes every exchange of the failing case as a bash
 * script (curl) and a HAR 1.2 file. Replayed with bash against a real listening server broken the
 * same way, the script shows the same wrong answer; against a correct server, the answer differs.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { labelValues } from '../conformance/property.js';
import { firstDifference } from '../conformance/expect/assert.js';
import { foldRepeated } from '../conformance/report/fold.js';
import { multipartBoundary, parseMultipart } from '../conformance/report/repro/multipart.js';
import { multipartEncode } from '../conformance/client/encode.js';
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

function bash(script: string, args: readonly string[], env: Record<string, string> = {}): Promise<Replay> {
  return new Promise((resolve) => {
    execFile('bash', [script, ...args], { env: { PATH: process.env.PATH ?? '', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

/** The body the script printed for its last request. */
function lastAnswer(output: string): unknown {
  const sections = output.split(/^== \d+\/\d+ .*$/m);
  return JSON.parse(sections[sections.length - 1]!.trim().split('\n')[0]!) as unknown;
}

t.test('a failing case is written as a script and a HAR file; the script reproduces the failure against a real server', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-repro-'));
  const run = await runCliInProcess(['--only', RULE, '--num-runs', '5', '--seed', '11', '--reporter', 'json', '--show-credentials', '--repro-dir', dir], { mutate: dropIgnored });
  t.equal(run.code, 1);
  t.match(run.stderr, new RegExp(`reproduction of ${RULE} \\(\\d+ exchanges\\): ${dir}/${RULE}\\.sh, ${dir}/${RULE}\\.har`));
  t.match(run.stderr, /start an equivalent target with `chat-server --feature-level 415`/, 'an embedded run says how to start an equivalent HTTP target');
  const failure = (JSON.parse(run.stdout) as { results: Array<{ failure?: { reproduction: Array<{ url: string; responseBody: string }> } }> }).results[0]!.failure!;

  const har = JSON.parse(readFileSync(join(dir, `${RULE}.har`), 'utf8')) as { log: { version: string; creator: { name: string }; entries: Array<{ request: { url: string; method: string; headers: unknown[] }; response: { status: number; content: { text: string } } }> } };
  t.equal(har.log.version, '1.2');
  t.equal(har.log.creator.name, 'chat-conformance');
  t.same(har.log.entries.map((entry) => entry.request.url), failure.reproduction.map((exchange) => exchange.url), 'the HAR holds every exchange of the case');
  t.equal(har.log.entries.at(-1)!.response.content.text, failure.reproduction.at(-1)!.responseBody);

  const broken = await startHttp(dropIgnored);
  const correct = await startHttp();
  t.teardown(async () => {
    await broken.close();
    await correct.close();
  });
  const script = join(dir, `${RULE}.sh`);
  const recorded = JSON.parse(failure.reproduction.at(-1)!.responseBody) as unknown;
  const again = await bash(script, [broken.url]);
  t.equal(again.code, 0, 'every status is as recorded');
  t.match(again.stdout, /# reproduced: every answer had the recorded status/);
  t.same(lastAnswer(again.stdout), recorded, 'the broken server gives the same wrong answer');
  t.notOk(Object.hasOwn(lastAnswer(again.stdout) as object, 'ignored_parameters_unsupported'));
  const fixed = await bash(script, [correct.url]);
  t.ok(Object.hasOwn(lastAnswer(fixed.stdout) as object, 'ignored_parameters_unsupported'), 'a correct server answers differently');

  const redactedDir = mkdtempSync(join(tmpdir(), 'conformance-repro-'));
  await runCliInProcess(['--only', RULE, '--num-runs', '5', '--seed', '11', '--reporter', 'json', '--repro-dir', redactedDir], { mutate: dropIgnored });
  const redacted = join(redactedDir, `${RULE}.sh`);
  t.notMatch(readFileSync(redacted, 'utf8'), /Basic [A-Za-z0-9+/]{20,}/, 'the default script carries no credentials');
  const refused = await bash(redacted, [broken.url]);
  t.not(refused.code, 0);
  t.match(refused.stderr, /AUTH_1: credentials redacted: set AUTH_1 to the Authorization header of \S+@\S+/);
  const authorization = (har.log.entries.at(-1)!.request.headers as Array<{ name: string; value: string }>).find((header) => header.name === 'authorization')!.value;
  const supplied = await bash(redacted, [broken.url], { AUTH_1: authorization });
  t.same(lastAnswer(supplied.stdout), recorded, 'with the credentials supplied, the redacted script reproduces too');
});

t.test('multipart bodies are split back into fields and files for curl -F', async (t) => {
  const encoded = multipartEncode([['to', '[1]'], ['content', '@not-a-file']], [{ name: 'file', filename: 'a b.txt', contentType: 'text/plain', data: 'line 1\r\nline 2' }]);
  const boundary = multipartBoundary(encoded.contentType);
  t.ok(boundary);
  t.same(parseMultipart(Buffer.from(encoded.body).toString('utf8'), boundary!), [
    { name: 'to', value: '[1]' },
    { name: 'content', value: '@not-a-file' },
    { name: 'file', filename: 'a b.txt', contentType: 'text/plain', value: 'line 1\r\nline 2' },
  ]);
  t.equal(parseMultipart('not multipart', boundary!), undefined);
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
