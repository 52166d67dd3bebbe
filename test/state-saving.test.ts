/**
 * With a state file, the running server saves its world soon after changes (a write request, a
 * reset, or work its timers do such as delivering a reminder), once per burst, without a stop;
 * and a background save that fails is told and does not stop the server.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ManualClock, restoreWorld, type RunningServer, startServer } from '../server/index.js';

const DELAY_MS = 150;
const tempPath = () => join(mkdtempSync(join(tmpdir(), 'state-saving-')), 'state.json');

function auth(server: RunningServer, email: string): string {
  const user = server.world.usersByEmail.get(email)!;
  return `Basic ${Buffer.from(`${user.deliveryEmail}:${user.apiKey}`).toString('base64')}`;
}

async function post(server: RunningServer, path: string, params: Record<string, string>): Promise<Record<string, unknown>> {
  const reply = await fetch(`${server.url}/api/v1${path}`, {
    method: 'POST',
    headers: { authorization: auth(server, 'hamlet@zulip.com'), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params),
  });
  return (await reply.json()) as Record<string, unknown>;
}

/** The world saved in `path` now, or undefined while there is no file. */
function saved(path: string) {
  return existsSync(path) ? restoreWorld(JSON.parse(readFileSync(path, 'utf8'))) : undefined;
}

async function until(what: string, condition: () => boolean, limitMs = 5000): Promise<number> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error(`not within ${limitMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

t.test('a burst of writes is on disk shortly after it, without a stop', async (t) => {
  const path = tempPath();
  const server = await startServer({ logger: () => undefined, statePath: path, stateSaveDelayMs: DELAY_MS });
  t.teardown(() => server.close());
  const ids = await Promise.all(Array.from({ length: 10 }, (_, i) => post(server, '/messages', { type: 'stream', to: 'Denmark', topic: 'burst', content: `burst ${i}` })));
  t.equal(ids.length, 10);
  const text = () => (existsSync(path) ? readFileSync(path, 'utf8') : '');
  const waited = await until('every message of the burst is saved', () => Array.from({ length: 10 }, (_, i) => `burst ${i}`).every((content) => text().includes(content)));
  // Generous: the delay is 150 ms, but the machine may be busy with other tests.
  t.ok(waited < 3000, `saved ${waited} ms after the burst (delay ${DELAY_MS} ms)`);
  t.same([...saved(path)!.messages.keys()].slice(-10), ids.map(({ id }) => id).sort((a, b) => (a as number) - (b as number)));
  t.notOk(existsSync(`${path}.tmp`), 'no temporary file is left');
  t.equal(readFileSync(path).length > 0, true);
});

t.test('reading does not save; a reset does', async (t) => {
  const path = tempPath();
  const server = await startServer({ logger: () => undefined, statePath: path, stateSaveDelayMs: DELAY_MS });
  t.teardown(() => server.close());
  await fetch(`${server.url}/api/v1/users/me`, { headers: { authorization: auth(server, 'iago@zulip.com') } });
  await new Promise((resolve) => setTimeout(resolve, 3 * DELAY_MS));
  t.notOk(existsSync(path), 'a read leaves no file');
  const { id } = await post(server, '/messages', { type: 'stream', to: 'Denmark', topic: 'reset', content: 'gone after the reset' });
  await until('the message is saved', () => saved(path)?.messages.has(id as number) === true);
  await fetch(`${server.url}/__dev/reset`, { method: 'POST' });
  await until('the reset is saved', () => saved(path)?.messages.has(id as number) === false);
});

t.test('work done by a timer (a reminder delivered) is saved though no request asked for it', async (t) => {
  const path = tempPath();
  const clock = new ManualClock(Date.UTC(2025, 5, 1, 12));
  const server = await startServer({ logger: () => undefined, statePath: path, stateSaveDelayMs: DELAY_MS, clock });
  t.teardown(() => server.close());
  const { id } = await post(server, '/messages', { type: 'stream', to: 'Denmark', topic: 'remind', content: 'remind me' });
  const reminder = await post(server, '/reminders', { message_id: String(id), scheduled_delivery_timestamp: String(clock.now() / 1000 + 60) });
  t.equal(reminder.result, 'success');
  await until('the reminder is saved', () => saved(path)?.reminders.size === 1);
  clock.advance(120_000);
  await until('its delivery is saved', () => [...(saved(path)?.reminders.values() ?? [])].some((entry) => entry.delivered));
});

t.test('a background save that fails is told and retried later; the server goes on, and the stop reports its own failure', async (t) => {
  const path = tempPath();
  const told: string[] = [];
  const server = await startServer({ logger: (message) => void told.push(message), statePath: path, stateSaveDelayMs: DELAY_MS });
  rmSync(join(path, '..'), { recursive: true });
  await post(server, '/messages', { type: 'stream', to: 'Denmark', topic: 'lost', content: 'nowhere to go' });
  await until('the failure is told', () => told.length > 0);
  t.match(told[0], /^cannot save the state file .*state\.json: ENOENT \(its folder does not exist\); retrying$/);
  t.equal((await post(server, '/messages', { type: 'stream', to: 'Denmark', topic: 'lost', content: 'still served' })).result, 'success');
  await t.rejects(server.close({ saveState: true }), { name: 'StateFileError', message: /cannot save the state file .*: ENOENT/ });
});
