/**
 * The conformance CLI's reports in CI (run in-process through its `main`): several reporters in
 * one run, TAP streamed rule by rule, per-endpoint progress without a terminal, credentials
 * redacted by default, and exit status 2 for an empty selection, an unwritable report path and a
 * silent target.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { SuiteResult } from '../conformance/index.js';
import { tapStream } from '../conformance/report/tap.js';
import { runRules } from '../conformance/runner.js';
import { embeddedTarget } from '../conformance/targets/embedded.js';
import type { Rule } from '../conformance/rules/types.js';
import { brokenApp, mapJsonBody, type Mutation } from './support/conformance.js';
import { runCliInProcess } from './support/conformance-cli.js';

const dropIgnored: Mutation = async (request, next) => mapJsonBody(await next(request), (body) => delete body.ignored_parameters_unsupported);
const FAILING = ['--only', 'conventions/ignored-parameters-listed-sorted', '--num-runs', '5', '--seed', '11'];
const tempDir = () => mkdtempSync(join(tmpdir(), 'conformance-outputs-'));

/** Every API key of the development realm: none may appear in a default report. */
function devApiKeys(): string[] {
  const { app } = brokenApp();
  const keys = [...app.world.users.values()].map((user) => user.apiKey);
  app.close();
  return keys;
}

t.test('several reporters write in one run: spec on stdout, junit, tap and json to files', async (t) => {
  const dir = tempDir();
  const files = { junit: join(dir, 'report.xml'), tap: join(dir, 'report.tap'), json: join(dir, 'report.json') };
  const run = await runCliInProcess(['--only', 'server-settings/*', '--num-runs', '2', '--reporter', 'spec', ...Object.entries(files).flatMap(([format, path]) => ['--reporter', `${format}=${path}`])]);
  t.equal(run.code, 0);
  t.match(run.stdout, /^chat-conformance against http:\/\/localhost:9991 /);
  t.match(run.stdout, /6 passed, 0 failed, 0 skipped/);
  t.match(readFileSync(files.junit, 'utf8'), /<testsuites name="chat-conformance" tests="6" failures="0"/);
  const tap = readFileSync(files.tap, 'utf8');
  t.match(tap, /^TAP version 14\n# chat-conformance against the embedded reference server \(in-process, as http:\/\/localhost:9991\), [^\n]*\n1\.\.6\n/, 'the TAP header says the run was against the embedded server');
  t.same(tap.match(/^ok \d - /gm), ['ok 1 - ', 'ok 2 - ', 'ok 3 - ', 'ok 4 - ', 'ok 5 - ', 'ok 6 - ']);
  t.match(tap, /\n# passed 6, failed 0, skipped 0\n# seed \d+\n# coverage: 0 rules skipped for a missing identity or capability[^\n]*\n(# [^\n]*\n)+$/);
  t.same((JSON.parse(readFileSync(files.json, 'utf8')) as SuiteResult).counts, { total: 6, passed: 6, failed: 0, skipped: 0 });
  // Without a terminal, spec progress still reports each endpoint as it completes.
  t.match(run.stderr, /^chat-conformance: 6 rules over 1 endpoints against http:\/\/localhost:9991/);
  t.match(run.stderr, /\[6\/6\] GET \/server_settings: 6 passed, 0 failed, 0 skipped \(1\/1 endpoints; \d+:\d\d elapsed, ~\d+:\d\d left, 0 failed so far\)/);
});

t.test('reporter destinations are refused before the run when they clash or cannot be written', async (t) => {
  const dir = tempDir();
  const cases: Array<[string[], RegExp]> = [
    [['--reporter', 'spec', '--reporter', 'tap'], /only one reporter can write to stdout/],
    [['--reporter', `junit=${join(dir, 'a')}`, '--reporter', `tap=${join(dir, 'a')}`], /two reporters write to /],
    [['--reporter', 'xml=out.xml'], /--reporter: unknown format 'xml'/],
    [['--reporter', `junit=${join(dir, 'missing-dir', 'x', 'report.xml')}`], /cannot write the junit report to .*: ENOENT/],
    [['--repro-dir', join('/dev/null', 'repro')], /--repro-dir .*: cannot write there: ENOTDIR/],
    // A folder that refuses new entries while its parent exists (node's recursive mkdir loops there forever).
    [['--repro-dir', '/proc/no-such-folder/repro'], /--repro-dir \/proc\/no-such-folder\/repro: cannot write there: E[A-Z]+/],
    [['--reporter', 'junit=/proc/no-such-folder/report.xml'], /cannot write the junit report to \/proc\/no-such-folder\/report\.xml: E[A-Z]+/],
    [['--only', 'users/typo-*'], /no rule matches the selection \(--only users\/typo-\*\); --list shows the rule ids/],
    [['--list', '--only', 'nothing-like-this'], /no rule matches the selection/],
  ];
  for (const [args, message] of cases) {
    const run = await runCliInProcess(args);
    t.equal(run.code, 2, args.join(' '));
    t.match(run.stderr, message, args.join(' '));
    t.equal(run.stdout, '', `${args.join(' ')}: no report`);
    if (/cannot write|stdout|two reporters/.test(run.stderr)) t.equal(run.serversStarted, 0, `${args.join(' ')}: refused before any target was started`);
  }
});

t.test('a target that accepts connections but never answers ends the run with status 2 after --request-timeout', async (t) => {
  const sockets: Socket[] = [];
  const silent = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    silent.close();
  });
  const { port } = silent.address() as { port: number };
  const started = Date.now();
  const run = await runCliInProcess(['--base-url', `http://127.0.0.1:${port}`, '--request-timeout', '300']);
  t.equal(run.code, 2);
  t.match(run.stderr, /cannot reach http:\/\/127\.0\.0\.1:\d+: GET .*\/server_settings: no answer within 300 ms \(--request-timeout\)/);
  t.ok(Date.now() - started < 5000, 'it does not hang');
});

t.test('credentials are redacted in every report by default and shown with --show-credentials', async (t) => {
  const keys = devApiKeys();
  const dir = tempDir();
  const outputs = ['junit', 'tap', 'json', 'spec'].map((format) => [format, join(dir, `redacted.${format}`)] as const);
  const redacted = await runCliInProcess([...FAILING, ...outputs.map(([format, path]) => `--reporter=${format}=${path}`), '--repro-dir', join(dir, 'repro')], { mutate: dropIgnored });
  t.equal(redacted.code, 1);
  const texts = [...outputs.map(([, path]) => readFileSync(path, 'utf8')), readFileSync(join(dir, 'repro', 'conventions', 'ignored-parameters-listed-sorted.har'), 'utf8')];
  for (const [index, text] of texts.entries()) {
    t.match(text, /<redacted>|&lt;redacted&gt;/, `report ${index} says where a credential was`);
    t.same(keys.filter((key) => text.includes(key)), [], `report ${index} shows no API key`);
    t.notMatch(text, /Authorization: Basic [A-Za-z0-9+/]{8,}/i, `report ${index} shows no Authorization value`);
  }
  t.match(texts[3], /-H 'Authorization: Basic <redacted>'|-u '[^']+:<redacted>'/, 'the curl command shows where the key goes');
  const shown = await runCliInProcess([...FAILING, '--reporter', 'json', '--show-credentials'], { mutate: dropIgnored });
  t.equal(shown.code, 1);
  t.ok(keys.some((key) => shown.stdout.includes(key)), '--show-credentials keeps the keys');
});

t.test('TAP is written rule by rule while the run goes on', async (t) => {
  const written: string[] = [];
  const seenByLaterRules: string[] = [];
  const base = { endpoint: 'GET /server_settings', section: '9.2', writes: false } as const;
  const rules: Rule[] = ['a', 'b', 'c'].map((name) => ({ ...base, id: `stream/${name}`, title: name, run: async () => void seenByLaterRules.push(written.join('')) }));
  const stream = tapStream((text) => void written.push(text));
  const { app, handler } = brokenApp();
  const target = embeddedTarget(handler);
  const result = await runRules(target, { rules, listener: stream, numRuns: 1 });
  stream.finish(result);
  await target.close();
  app.close();
  t.match(seenByLaterRules[0], /^TAP version 14\n[^\n]*\n1\.\.3\n$/, 'the header and plan come before the first rule runs');
  t.match(seenByLaterRules[1], /\nok 1 - stream\/a [^\n]*\n$/, 'rule a is reported before rule b runs');
  t.match(seenByLaterRules[2], /\nok 2 - stream\/b [^\n]*\n$/, 'rule b is reported before rule c runs');
  t.match(written.join(''), /\nok 3 - stream\/c [^\n]*\n# passed 3, failed 0, skipped 0\n/);
});

t.test('--version, --help, --list --json and colours', async (t) => {
  const version = await runCliInProcess(['--version']);
  t.same([version.code, version.stdout], [0, '9.9.9-test\n']);
  const help = await runCliInProcess(['--help']);
  t.equal(help.code, 0);
  for (const part of [/Examples:\n  chat-conformance /, /Exit status:\n  0 /, /\n  2  bad usage/, /Environment:\n  ZULIP_EMAIL/, /NO_COLOR/, /FORCE_COLOR/, /--request-timeout <ms>/, /--repro-dir <dir>/]) t.match(help.stdout, part);
  const listing = await runCliInProcess(['--list', '--json', '--only', 'conventions/ignored-*', '--server-feature-level', '100']);
  t.equal(listing.code, 0);
  const parsed = JSON.parse(listing.stdout) as { featureLevel: number; rules: Array<Record<string, unknown>> };
  t.equal(parsed.featureLevel, 100);
  t.match(parsed.rules.find((rule) => rule.id === 'conventions/ignored-parameters-listed-sorted'), { title: String, section: String, levels: { min: 167 }, writes: Boolean, selected: false });
  const args = ['--only', 'server-settings/*', '--num-runs', '1', '--reporter', 'spec'];
  const forced = await runCliInProcess(args, { env: { FORCE_COLOR: '1' } });
  t.match(forced.stdout, /\u001b\[32mPASS/, 'FORCE_COLOR colours a report that is not on a terminal');
  const plain = await runCliInProcess(args, { env: { NO_COLOR: '1' }, isTTY: true });
  t.notMatch(plain.stdout, /\u001b\[/, 'NO_COLOR turns colours off on a terminal');
  const flag = await runCliInProcess([...args, '--no-color'], { env: { FORCE_COLOR: '1' } });
  t.notMatch(flag.stdout, /\u001b\[/, '--no-color wins over FORCE_COLOR');
});
