/**
 * The chat-server program: exit statuses (0 stopped, 2 bad usage or unusable state file),
 * --version, and state kept across a real SIGTERM restart with every acknowledged write present.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const BIN = fileURLToPath(new URL('../bin/chat-server.js', import.meta.url));
const VERSION = (JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as { version: string }).version;
const DEV_KEY_OF_HAMLET = (JSON.parse(readFileSync(fileURLToPath(new URL('../../fixtures/dev-realm.json', import.meta.url)), 'utf8')) as { users: Array<{ email: string; apiKey: string }> }).users.find(
  (user) => user.email === 'hamlet@zulip.com',
)!.apiKey;
const AUTH = `Basic ${Buffer.from(`hamlet@zulip.com:${DEV_KEY_OF_HAMLET}`).toString('base64')}`;

function run(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }));
  });
}

/** Starts chat-server and resolves with its URL once the banner is out. */
function start(args: readonly string[]): Promise<{ child: ChildProcess; url: string; output: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [BIN, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve({ child, url, output: () => output, exited });
    });
    void exited.then((code) => reject(new Error(`chat-server exited with ${code}: ${output}`)));
  });
}

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
  const sent = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const reply = await fetch(`${first.url}/api/v1/messages`, {
        method: 'POST',
        headers: { authorization: AUTH, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ type: 'stream', to: 'Denmark', topic: 'restart', content: `message ${i}` }),
      });
      return { id: ((await reply.json()) as { id: number }).id, content: `message ${i}` };
    }),
  );
  first.child.kill('SIGTERM');
  t.equal(await first.exited, 0, 'a SIGTERM stop exits 0');
  t.match(first.output(), /state saved to .*state\.json/);

  const second = await start(['--state', path]);
  t.teardown(() => void second.child.kill('SIGTERM'));
  t.match(second.output(), /state: loaded from .*state\.json/);
  const found = await Promise.all(
    sent.map(async ({ id }) => {
      const reply = await fetch(`${second.url}/api/v1/messages/${id}`, { headers: { authorization: AUTH } });
      return ((await reply.json()) as { message?: { content?: string } }).message?.content;
    }),
  );
  t.same(found, sent.map(({ content }) => `<p>${content}</p>`), 'every acknowledged message is there after the restart');
  second.child.kill('SIGTERM');
  t.equal(await second.exited, 0);
});
