/**
 * chat-conformance's config file (every option, the command line overriding it, unknown keys
 * refused with status 2) and selection by endpoint and method.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { configArguments } from '../conformance/cli/config-file.js';
import { buildProgram, REPEATABLE } from '../conformance/cli/options.js';
import { endpointNames } from '../conformance/endpoint-patterns.js';
import type { RuleListing } from '../conformance/cli/list.js';
import { runCliInProcess } from './support/conformance-cli.js';

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-config-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const TOML = 'only = ["server-settings/*"]\nnum-runs = 2\nseed = 41\nreporter = "tap"\nbootstrap = true\n';

t.test('chat-conformance.toml in the working directory sets options; the command line overrides values and lists', async (t) => {
  const cwd = folder({ 'chat-conformance.toml': TOML });
  const fromFile = await runCliInProcess([], { cwd });
  t.equal(fromFile.code, 0, fromFile.stderr);
  t.match(fromFile.stdout, /^TAP version 14\n# [^\n]*seed 41[^\n]*\n1\.\.6\n/, 'selection, seed and reporter come from the file');
  const overridden = await runCliInProcess(['--seed', '7', '--only', 'users/get-own-user-matches-credentials'], { cwd });
  t.match(overridden.stdout, /seed 7[^\n]*\n1\.\.1\n/, 'the command line replaces the seed and the whole --only list');
  const ignored = await runCliInProcess(['--no-config', '--list'], { cwd });
  t.match(ignored.stdout, /\n\d{3} rules\n$/, '--no-config reads no file');
});

t.test('--config names a JSON or TOML file; two default files are ambiguous', async (t) => {
  const cwd = folder({ 'ci.json': JSON.stringify({ only: 'server-settings/*', 'num-runs': 1, reporter: ['json'], 'fail-on-skip': true }), 'chat-conformance.toml': TOML, 'chat-conformance.json': '{}' });
  const json = await runCliInProcess(['--config', 'ci.json'], { cwd });
  t.equal(json.code, 0, json.stderr);
  t.same(JSON.parse(json.stdout).counts, { total: 6, passed: 6, failed: 0, skipped: 0 });
  const both = await runCliInProcess([], { cwd });
  t.equal(both.code, 2);
  t.match(both.stderr, /both chat-conformance\.toml and chat-conformance\.json are in .*: keep one, or choose with --config FILE/);
});

t.test('a config file with an unknown key, a wrong value or bad syntax stops the run with status 2, naming the file', async (t) => {
  const cases: Array<[string, string, RegExp]> = [
    ['chat-conformance.toml', 'base_url = "http://x"\n', /chat-conformance\.toml: unknown key 'base_url' \(keys are the long options without --: .*base-url/],
    ['chat-conformance.toml', 'num-runs = "many"\n', /chat-conformance\.toml: option '--num-runs <n>' argument 'many' is invalid/],
    ['chat-conformance.toml', 'seed = [1, 2]\n', /chat-conformance\.toml: seed takes one value, not a list/],
    ['chat-conformance.toml', 'bail = "yes"\n', /chat-conformance\.toml: bail must be true or false/],
    ['chat-conformance.toml', 'only = [\n', /chat-conformance\.toml is not valid TOML \(line \d+, column \d+\)/],
    ['chat-conformance.json', '{"only": }', /chat-conformance\.json is not valid JSON/],
    ['chat-conformance.json', '["only"]', /chat-conformance\.json: expected a table of options/],
  ];
  for (const [name, text, message] of cases) {
    const run = await runCliInProcess(['--list'], { cwd: folder({ [name]: text }) });
    t.equal(run.code, 2, text);
    t.match(run.stderr, message);
    t.equal(run.serversStarted, 0, 'nothing was run');
  }
});

t.test('every command-line option can be set in the file, except --config, --help and --version', async (t) => {
  const program = buildProgram();
  const keys = new Map<string, unknown>();
  for (const option of program.options) {
    const key = option.long!.replace(/^--(no-)?/, '');
    if (['config', 'help', 'version'].includes(key)) continue;
    keys.set(key, option.required || option.optional ? (REPEATABLE.has(key) ? ['1'] : '1') : option.negate ? false : true);
  }
  t.ok(keys.size > 30, `${keys.size} keys`);
  const { byOption } = configArguments(keys, program, REPEATABLE, 'all.toml');
  t.equal(byOption.size, keys.size, 'each key became arguments');
  t.throws(() => configArguments(new Map([['config', 'x']]), program, REPEATABLE, 'all.toml'), /unknown key 'config'/);
});

t.test('an endpoint text names each endpoint with its methods', async (t) => {
  t.same(endpointNames('GET /messages'), [{ method: 'GET', path: '/messages' }]);
  t.same(endpointNames('POST, GET, DELETE /users/me/subscriptions').map((name) => name.method), ['POST', 'GET', 'DELETE']);
  t.same(endpointNames('/users/me/subscriptions, /get_stream_id'), [{ method: '*', path: '/users/me/subscriptions' }, { method: '*', path: '/get_stream_id' }]);
  t.same(endpointNames('*'), [{ method: '*', path: '*' }]);
});

t.test('--endpoint selects rules by method and path, globs allowed, and combines with --only', async (t) => {
  const listed = async (...args: string[]) => {
    const run = await runCliInProcess(['--list', '--json', '--feature-level', '415', ...args]);
    t.equal(run.code, 0, run.stderr);
    return (JSON.parse(run.stdout) as RuleListing).rules;
  };
  const messages = await listed('--endpoint', 'GET /messages');
  t.ok(messages.length >= 5 && messages.every((rule) => rule.endpoint === 'GET /messages'), `GET /messages (${messages.length})`);
  const subscriptions = await listed('--endpoint', 'delete /users/me/subscriptions');
  t.ok(subscriptions.some((rule) => rule.endpoint === 'POST, GET, DELETE /users/me/subscriptions'), 'a rule naming several methods');
  t.ok(subscriptions.some((rule) => rule.endpoint.startsWith('/users/me/subscriptions,')), 'a rule naming a path without a method');
  t.notOk(subscriptions.some((rule) => rule.endpoint === 'GET /users/me/subscriptions'), 'not another method');
  const globbed = await listed('--endpoint', 'PATCH /users/me/*', '--endpoint', '/realm/linkifiers');
  t.same(
    [...new Set(globbed.map((rule) => rule.endpoint))].sort(),
    ['/users/me/subscriptions, /get_stream_id', 'GET /realm/linkifiers', 'PATCH /realm/linkifiers', 'PATCH /users/me/profile_data', 'PATCH /users/me/subscriptions/muted_topics'],
    '* spans segments; a path named without a method matches any method',
  );
  const both = await listed('--endpoint', 'GET /messages', '--only', 'message-fetch/with-*');
  t.same(both.map((rule) => rule.id), ['message-fetch/with-operator']);
  t.notOk(messages.some((rule) => rule.endpoint === '*'), 'cross-endpoint convention rules are not an endpoint\'s');
  t.ok((await listed('--endpoint', '*')).some((rule) => rule.endpoint === '*'), 'the pattern * selects them');
  const bad = await runCliInProcess(['--list', '--endpoint', 'GET messages']);
  t.equal(bad.code, 2);
  t.match(bad.stderr, /--endpoint: expected 'METHOD \/path'/);
});
