/**
 * The chat-conformance command: exit statuses (0 passed, 1 failed, 2 bad usage or unreachable
 * target), reporters and --output, --list, feature levels, credentials from a zuliprc file, and a
 * failure's replay command reproducing the same counterexample.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { SuiteResult } from '../conformance/index.js';
import { brokenApp, mapJsonBody, startHttp } from './support/conformance.js';
import { runCliProcess } from './support/conformance-cli.js';


interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const cli = (args: readonly string[]): Promise<Outcome> => runCliProcess(args);

/** Splits a printed shell command (single-quoted arguments only, as the suite prints them). */
function shellWords(command: string): string[] {
  return [...command.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!));
}

t.test('a run against the embedded server passes and exits 0', async (t) => {
  const { code, stdout } = await cli(['--num-runs', '3', '--reporter', 'tap']);
  t.equal(code, 0);
  t.match(stdout, /^TAP version 14\n/);
  t.match(stdout, /\n1\.\.\d+\n/);
  t.notMatch(stdout, /\nnot ok /);
});

t.test('bad usage exits 2 with a message', async (t) => {
  for (const args of [['--reporter', 'xml'], ['--shard', '0/2'], ['--email', 'a@b.c'], ['--replay', 'nonsense'], ['--num-runs', '0'], ['--replay', '1:1/0']]) {
    const { code, stderr } = await cli(args);
    t.equal(code, 2, args.join(' '));
    t.match(stderr, /^chat-conformance: \S/, args.join(' '));
  }
});

t.test('an unreachable target exits 2 and says so', async (t) => {
  const { code, stderr } = await cli(['--base-url', 'http://127.0.0.1:9']);
  t.equal(code, 2);
  t.match(stderr, /cannot reach http:\/\/127\.0\.0\.1:9/);
});

t.test('--list prints every rule with its section, levels and whether it writes', async (t) => {
  const { code, stdout } = await cli(['--list', '--only', 'users/*']);
  t.equal(code, 0);
  t.match(stdout, /^users\/delivery-email-always-present +section 2\.3 +>= 163 +read-only +GET \/users$/m);
  t.match(stdout, /^\d+ rules$/m);
});

t.test('a failing run exits 1, prints curl and a replay command that reproduces the same counterexample', async (t) => {
  const server = await startHttp(async (request, next) => mapJsonBody(await next(request), (body) => delete body.ignored_parameters_unsupported));
  t.teardown(() => server.close());
  // The conventions rules only: the breakage is theirs, and a whole run would only cost time.
  const first = await cli(['--base-url', server.url, '--only', 'conventions/*', '--reporter', 'spec', '--num-runs', '20', '--seed', '11']);
  t.equal(first.code, 1);
  t.match(first.stdout, /FAIL conventions\/ignored-parameters-listed-sorted/);
  t.match(first.stdout, new RegExp(`curl -sS -i '${server.url}/api/v1/users/\\d+\\?`));
  const replay = /replay: (chat-conformance .*--replay \S+)/.exec(first.stdout)?.[1];
  const counterexample = /counterexample: (.*)/.exec(first.stdout)?.[1];
  t.ok(replay && counterexample);
  const again = await cli([...shellWords(replay!).slice(1), '--reporter', 'spec']);
  t.equal(again.code, 1);
  t.equal(/counterexample: (.*)/.exec(again.stdout)?.[1], counterexample);
  t.match(again.stdout, /0 passed, 1 failed, 0 skipped/, 'the replay runs that one rule');
});

t.test('an observed deviation on which this server takes the real server\'s side passes, with --strict-docs too', async (t) => {
  // Our server answers an administrator who is not an owner as the real server does (owner rights first).
  const rule = 'deactivate-user/sole-owner-refused';
  for (const extra of [[], ['--strict-docs']]) {
    const run = await cli(['--only', rule, '--num-runs', '3', '--reporter', 'tap', ...extra]);
    t.equal(run.code, 0, extra.join(' '));
    t.match(run.stdout, /deviation deactivate-owner-by-administrator-code/, extra.join(' '));
  }
});

t.test('--output writes the report to a file and only a summary to stderr', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'conformance-')), 'report.json');
  const { code, stdout, stderr } = await cli(['--reporter', 'json', '--output', file, '--num-runs', '2', '--only', 'server-settings/*']);
  t.equal(code, 0);
  t.equal(stdout, '');
  t.match(stderr, /6 passed, 0 failed, 0 skipped/);
  const report = JSON.parse(readFileSync(file, 'utf8')) as SuiteResult;
  t.same(report.counts, { total: 6, passed: 6, failed: 0, skipped: 0 });
});

t.test('rules outside the emulated feature level are skipped with the reason', async (t) => {
  const { code, stdout } = await cli(['--server-feature-level', '100', '--only', 'conventions/ignored-*', '--reporter', 'tap', '--num-runs', '2']);
  t.equal(code, 0);
  t.match(stdout, /ok \d+ - conventions\/ignored-parameters-listed-sorted .*# SKIP needs feature level >= 167 \(target: 100\)/);
  const forced = await cli(['--feature-level', '100', '--only', 'conventions/ignored-*', '--reporter', 'tap', '--num-runs', '2']);
  t.match(forced.stdout, /# SKIP needs feature level >= 167 \(target: 100\)/);
});

t.test('credentials from a zuliprc file are used, with no bootstrap', async (t) => {
  const { app } = brokenApp();
  const hamlet = app.world.usersByEmail.get('hamlet@zulip.com')!;
  app.close();
  const file = join(mkdtempSync(join(tmpdir(), 'conformance-')), 'zuliprc');
  writeFileSync(file, `[api]\nemail = ${hamlet.deliveryEmail}\nkey = ${hamlet.apiKey}\nsite = http://localhost:9991\n`);
  const { code, stdout } = await cli(['--config-file', file, '--no-bootstrap', '--reporter', 'json', '--only', 'users/*', '--num-runs', '2']);
  t.equal(code, 0);
  const report = JSON.parse(stdout) as SuiteResult;
  t.same(report.identities, [`member: hamlet@zulip.com (user ${hamlet.id}, member, zuliprc)`]);
  t.equal(report.counts.failed, 0);
});
