/**
 * `chat-server --exec CMD` and `--write-zuliprc DIR` as real processes: the command reaches the
 * server through the URL and credentials in its environment, chat-server exits with its status
 * after saving the state, and a bot reads its zuliprc (python-zulip-api itself when installed).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const BIN = fileURLToPath(new URL('../bin/chat-server.js', import.meta.url));

function chatServer(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, '--port', '0', ...args], (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }));
  });
}

/** A node one-liner: sends a message as the environment's user, prints the sender it reads back, exits with `status`. */
const sendAndRead = (status: number) =>
  `node -e "const auth = 'Basic ' + Buffer.from(process.env.ZULIP_EMAIL + ':' + process.env.ZULIP_API_KEY).toString('base64');` +
  ` const api = process.env.CHAT_SERVER_URL + '/api/v1';` +
  ` fetch(api + '/messages', { method: 'POST', headers: { authorization: auth }, body: new URLSearchParams({ type: 'stream', to: 'Verona', topic: 'exec', content: 'from exec' }) })` +
  `.then((r) => r.json()).then((sent) => fetch(api + '/messages/' + sent.id, { headers: { authorization: auth } })).then((r) => r.json())` +
  `.then((got) => { console.log(process.env.ZULIP_SITE === process.env.CHAT_SERVER_URL, got.message.content); process.exit(${status}); })"`;

t.test('--exec runs the command against the server, then saves the state and exits with its status', async (t) => {
  const state = join(mkdtempSync(join(tmpdir(), 'chat-server-exec-')), 'state.json');
  const run = await chatServer(['--state', state, '--exec', sendAndRead(7)]);
  t.equal(run.code, 7, 'the command\'s status');
  t.equal(run.stdout, 'true <p>from exec</p>\n', 'stdout is the command\'s alone');
  t.match(run.stderr, /chat-server \S+ listening on http:\/\/127\.0\.0\.1:\d+/, 'the banner goes to stderr');
  t.match(run.stderr, /state saved to /);
  t.match(readFileSync(state, 'utf8'), /from exec/, 'the state file holds what the command wrote');
  const passing = await chatServer(['--exec', 'node -e "process.exit(0)"']);
  t.equal(passing.code, 0);
  const killed = await chatServer(['--exec', 'kill -TERM $$']);
  t.equal(killed.code, 128 + 15, 'a command ended by a signal gives 128 + its number');
});

t.test('--write-zuliprc writes one private [api] file per development user and bot', async (t) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'chat-server-zuliprc-')), 'bots');
  const run = await chatServer(['--write-zuliprc', dir, '--exec', 'cat "$ZULIP_CONFIG"']);
  t.equal(run.code, 0, run.stderr);
  const files = readdirSync(dir).sort();
  t.ok(files.includes('hamlet@zulip.com.zuliprc') && files.includes('default-bot@zulip.com.zuliprc'), files.join(', '));
  t.notOk(files.some((name) => name.startsWith('notification-bot')), 'no system bot');
  const hamlet = readFileSync(join(dir, 'hamlet@zulip.com.zuliprc'), 'utf8');
  t.match(hamlet, /^\[api\]\nemail=hamlet@zulip\.com\nkey=\w{32}\nsite=http:\/\/127\.0\.0\.1:\d+\n$/);
  t.equal(statSync(join(dir, 'hamlet@zulip.com.zuliprc')).mode & 0o777, 0o600, 'readable by its owner only');
  t.match(run.stdout, /^\[api\]\nemail=iago@zulip\.com\n/, 'ZULIP_CONFIG names the --exec user\'s file');
  const environment = await chatServer(['--write-zuliprc', dir, '--exec', 'echo "${ZULIP_EMAIL-unset} ${ZULIP_API_KEY-unset}"']);
  t.equal(environment.stdout, 'unset unset\n', 'no ZULIP_EMAIL or ZULIP_API_KEY to override a bot\'s own file');
  t.match(run.stderr, /zuliprc files: 1\d written to /);
});

function hasPythonZulip(): boolean {
  try {
    execFileSync('python3', ['-c', 'import zulip'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

if (hasPythonZulip()) {
  t.test('python-zulip-api reads ZULIP_CONFIG and the zuliprc files as they are written', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'chat-server-python-'));
    const script = [
      'import os, zulip',
      "env = zulip.Client(client='test')",
      "rc = zulip.Client(config_file=os.path.join(os.environ['BOTS'], 'hamlet@zulip.com.zuliprc'), client='test')",
      "sent = rc.send_message({'type': 'stream', 'to': 'Denmark', 'topic': 'bots', 'content': 'hello from python'})",
      "print(env.get_profile()['role'], sent['result'], env.get_raw_message(sent['id'])['message']['sender_email'])",
    ].join('; ');
    const run = await chatServer(['--write-zuliprc', dir, '--exec', `BOTS=${dir} python3 -c "${script}"`]);
    t.equal(run.code, 0, run.stderr);
    t.match(run.stdout, /^200 success user10@zulipdev\.com\n$/);
  });
} else {
  t.skip('python-zulip-api is not installed (pip install zulip): the Python bot check did not run', () => undefined);
}
