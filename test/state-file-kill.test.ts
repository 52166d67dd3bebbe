/**
 * The state file as a real process keeps it: after writes and a SIGKILL (no chance to save on
 * the way out), a restart from the file has every write older than the save delay; and `npm start`
 * passes SIGTERM on to the server (its script execs node, so no shell stands in between), which
 * saves and stops instead of being left running.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { contentAsHamlet, PACKAGE_ROOT, sendAsHamlet, start } from './support/chat-server-process.js';

const tempPath = () => join(mkdtempSync(join(tmpdir(), 'state-kill-')), 'state.json');

async function until(what: string, condition: () => boolean, limitMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error(`not within ${limitMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const fileHas = (path: string, texts: readonly string[]) => () => existsSync(path) && texts.every((text) => readFileSync(path, 'utf8').includes(text));

t.test('after writes and a SIGKILL, a restart from the state file has every write', async (t) => {
  const path = tempPath();
  const first = await start(['--state', path, '--save-delay', '200']);
  t.match(first.output(), /saved about 0\.2 s after changes and on Ctrl-C or SIGTERM/);
  const contents = Array.from({ length: 10 }, (_, i) => `killed after ${i}`);
  const ids = await Promise.all(contents.map((content) => sendAsHamlet(first.url, content)));
  await until('the writes are saved', fileHas(path, contents));
  first.child.kill('SIGKILL');
  t.equal(await first.exited, null, 'killed, not stopped');

  const second = await start(['--state', path]);
  t.teardown(() => void second.child.kill('SIGTERM'));
  t.match(second.output(), /state: loaded from /);
  t.same(await Promise.all(ids.map((id) => contentAsHamlet(second.url, id))), contents.map((content) => `<p>${content}</p>`));
});

t.test('npm start passes SIGTERM to the server, which saves its state and stops', async (t) => {
  const path = tempPath();
  // --save-delay 0: only the stop saves, so the file proves that the signal arrived.
  const running = await start(['start', '--silent', '--', '--port', '0', '--state', path, '--save-delay', '0'], ['npm'], PACKAGE_ROOT);
  const id = await sendAsHamlet(running.url, 'saved by a SIGTERM through npm');
  t.notOk(existsSync(path), 'nothing saved before the stop');
  running.child.kill('SIGTERM');
  t.equal(await running.exited, 0, 'npm exits 0 once the server did');
  t.match(running.output(), /state saved to /);
  t.ok(fileHas(path, ['saved by a SIGTERM through npm'])(), `message ${id} is in the file`);
  await t.rejects(fetch(`${running.url}/api/v1/server_settings`), 'the server is gone, not orphaned');
});
