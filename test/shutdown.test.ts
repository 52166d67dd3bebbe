/**
 * Graceful close: `close()` (and SIGTERM on chat-server) stops accepting connections, answers
 * held polls, lets requests in flight finish, closes idle keep-alive connections, then exits.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { startServer } from '../server/index.js';
import { basic } from './support/harness.js';
import { firstResponse, open, type RawConnection } from './support/raw-http.js';

const BODY = 'username=iago%40zulip.com&password=wrong-password';

/** Starts `POST /fetch_api_key` and sends all of its body but the last byte. */
async function startRequest(url: string): Promise<RawConnection> {
  const conn = await open(url);
  conn.socket.write(
    `POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY.slice(0, -1)}`,
  );
  await sleep(50);
  return conn;
}

/** Runs the chat-server command on a free port; resolves once it listens. */
async function chatServer(t: Test, args: readonly string[]): Promise<{ child: ChildProcess; url: string; exited: Promise<number | null> }> {
  const bin = fileURLToPath(new URL('../bin/chat-server.js', import.meta.url));
  const child = spawn(process.execPath, [bin, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => void child.kill('SIGKILL'));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found) resolve(found[1] as string);
    });
  });
  return { child, url, exited };
}

const finish = (conn: RawConnection): void => void conn.socket.write(BODY.slice(-1));

t.test('close() lets a request in flight finish with its full answer, and refuses new connections', async (t) => {
  const server = await startServer({ logger: () => undefined });
  const inFlight = await startRequest(server.url);
  const idle = await open(server.url);
  const closing = server.close();
  await sleep(50);
  await t.rejects(fetch(`${server.url}/api/v1/server_settings`), 'no new connection is accepted');
  t.ok((await idle.closed(2000)).closedAfterMs < Infinity, 'an idle connection is closed');
  finish(inFlight);
  const reply = await inFlight.closed();
  const { status, body } = firstResponse(reply.text);
  t.equal(status, 401, `the request in flight is answered (client error: ${reply.error ?? 'none'})`);
  t.match(body, { result: 'error', code: 'AUTHENTICATION_FAILED' });
  await closing;
});

t.test('close() stops waiting for requests in flight after shutdownGraceMs', async (t) => {
  const server = await startServer({ logger: () => undefined, shutdownGraceMs: 100 });
  const stuck = await startRequest(server.url);
  const started = performance.now();
  await server.close();
  t.ok(performance.now() - started < 2000, 'close resolves after the grace period');
  t.ok((await stuck.closed(1000)).closedAfterMs < Infinity, 'the unfinished request is cut');
});

t.test('chat-server on SIGTERM finishes a request in flight and answers held polls before exiting', async (t) => {
  const { child, url, exited } = await chatServer(t, []);
  const key = await fetch(`${url}/api/v1/dev_fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: 'iago@zulip.com' }) });
  const auth = basic('iago@zulip.com', ((await key.json()) as { api_key: string }).api_key);
  const registered = await fetch(`${url}/api/v1/register`, { method: 'POST', headers: { authorization: auth }, body: new URLSearchParams({ fetch_event_types: '[]' }) });
  const queueId = ((await registered.json()) as { queue_id: string }).queue_id;
  const poll = fetch(`${url}/api/v1/events?queue_id=${queueId}&last_event_id=-1`, { headers: { authorization: auth } });
  const inFlight = await startRequest(url);
  child.kill('SIGTERM');
  await sleep(100);
  finish(inFlight);
  const { status } = firstResponse((await inFlight.closed()).text);
  t.equal(status, 401, 'the request in flight got its answer');
  const held = await poll;
  t.equal(held.status, 200, 'the held poll is answered');
  t.equal(await exited, 0, 'the process exits cleanly');
});

