/**
 * The chat-server program: exit statuses (0 stopped, 2 bad usage or unusable state file),
 * --version, and state kept across a real SIGTERM restart with every acknowledged write present.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { contentAsHamlet, run, sendAsHamlet, start } from './support/chat-server-process.js';

const VERSION = (JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string }).version;

t.test('usage errors and unusable state files exit 2; --version prints the version', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-server-'));
  const corrupt = join(dir, 'corrupt.json');
  writeFileSync(corrupt, 'not json at all');
  const [version, help, level, unknown, state] = await Promise.all([run(['--version']), run(['--help']), run(['--feature-level', '999']), run(['--bogus']), run(['--port', '0', '--state', corrupt])]);
  t.same([version.code, version.stdout.trim()], [0, VERSION]);
  t.equal(help.code, 0);
  for (const part of [/Examples:\n  chat-server /, /Exit status:\n  0 /, /\n  2  bad usage/, /Environment:/, /POST \/__dev\/reset/, /--state <file>/, /--log/, /--cors/]) t.match(help.stdout, part);
  t.equal(level.code, 2);
  t.match(level.stderr, /--feature-level.*expected an integer from 1 to 415/);
  t.equal(unknown.code, 2);
  t.match(unknown.stderr, /unknown option '--bogus'/);
  t.equal(state.code, 2);
  t.match(state.stderr, /^chat-server: the state file .*corrupt\.json is not valid JSON .*it was left as it is/);
  t.equal(readFileSync(corrupt, 'utf8'), 'not json at all');
});

t.test('a SIGTERM restart with --state keeps every acknowledged write', async (t) => {
  const path = join(mkdtempSync(join(tmpdir(), 'chat-server-')), 'state.json');
  const first = await start(['--state', path]);
  t.match(first.output(), /state: new; will be saved to .*state\.json/);
  t.match(first.output(), /log in as a development user, e.g. \S+@zulip\.com/);
  const sent = await Promise.all(Array.from({ length: 20 }, async (_, i) => ({ id: await sendAsHamlet(first.url, `message ${i}`), content: `message ${i}` })));
  first.child.kill('SIGTERM');
  t.equal(await first.exited, 0, 'a SIGTERM stop exits 0');
  t.match(first.output(), /state saved to .*state\.json/);

  const second = await start(['--state', path]);
  t.teardown(() => void second.child.kill('SIGTERM'));
  t.match(second.output(), /state: loaded from .*state\.json/);
  const found = await Promise.all(sent.map(({ id }) => contentAsHamlet(second.url, id)));
  t.same(found, sent.map(({ content }) => `<p>${content}</p>`), 'every acknowledged message is there after the restart');
  second.child.kill('SIGTERM');
  t.equal(await second.exited, 0);
});

t.test('a host that does not resolve or is not this machine\'s, and a state path that cannot be written, exit 2 with a sentence', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-server-'));
  const cases: Array<[string[], RegExp]> = [
    [['--host', 'no-such-host.invalid'], /^chat-server: --host no-such-host\.invalid: (cannot resolve it \(E[A-Z_]+[^)]*\)|the name did not resolve within 10 s)\n$/],
    // TEST-NET-1 (RFC 5737): an address no machine here has.
    [['--host', '192.0.2.1'], /^chat-server: cannot listen on 192\.0\.2\.1:0: EADDRNOTAVAIL \(not an address of this machine\)\n$/],
    [['--state', '/proc/no-such-folder/state.json'], /^chat-server: cannot write the state file \/proc\/no-such-folder\/state\.json: E[A-Z]+ \([^)]+\)\n$/],
    [['--state', dir], /^chat-server: cannot write the state file .*: EISDIR \(it is a folder\)\n$/],
    [['--state', join(dir, 'missing', 'state.json')], /^chat-server: cannot write the state file .*: ENOENT \(its folder does not exist\)\n$/],
  ];
  const runs = await Promise.all(cases.map(([args]) => run(['--port', '0', ...args], 30_000)));
  cases.forEach(([args, message], i) => {
    t.equal(runs[i]?.code, 2, args.join(' '));
    t.match(runs[i]?.stderr, message, args.join(' '));
    t.equal(runs[i]?.stdout, '', `${args.join(' ')}: nothing served`);
  });
});
