/**
 * A client that pipelines requests without reading the answers cannot make the server hold
 * their answers in memory: the connection stops being served until the client reads, and past
 * `maxPipelinedRequests` waiting requests it is closed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { eventQueues } from '../lib/events/queues.js';
import { type RunningServer, type ServerOptions, startServer } from '../server/index.js';
import { basic } from './support/harness.js';
import { open, statuses } from './support/raw-http.js';

async function serve(t: Test, options: ServerOptions = {}): Promise<RunningServer> {
  const server = await startServer({ logger: () => undefined, ...options });
  t.teardown(() => server.close());
  return server;
}

function registers(server: RunningServer, count: number): string {
  const iago = server.world.usersByEmail.get('iago@zulip.com');
  const auth = basic('iago@zulip.com', iago?.apiKey ?? '');
  const request = `POST /api/v1/register HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 0\r\n\r\n`;
  return request.repeat(count);
}

t.test('pipelined requests whose answers are not read wait; reading the answers lets them all through', async (t) => {
  // More answers than the kernel's socket buffers hold (about 4 MiB here; a full /register is ~50 KB).
  const server = await serve(t, { maxPipelinedRequests: 1000, events: { maxQueuesPerUser: 1000 } });
  const count = 200;
  const conn = await open(server.url);
  conn.socket.pause();
  conn.socket.write(registers(server, count));
  await sleep(500);
  const handled = eventQueues(server.world).size;
  t.ok(handled < count, `${handled} of ${count} handled while the client does not read`);
  conn.socket.resume();
  let seen = 0;
  for (let i = 0; i < 200 && seen < count; i++) {
    await sleep(50);
    seen = eventQueues(server.world).size;
  }
  t.equal(seen, count, 'every request is handled once the client reads');
  conn.socket.end();
  const reply = await conn.closed();
  t.equal(statuses(reply.text).filter((s) => s === 200).length, count, 'and every answer arrives, in order');
});

t.test('a connection with more than maxPipelinedRequests waiting is closed; others are served', async (t) => {
  const server = await serve(t, { maxPipelinedRequests: 8 });
  const conn = await open(server.url);
  conn.socket.pause();
  conn.socket.write(registers(server, 50));
  await sleep(300);
  conn.socket.resume();
  const reply = await conn.closed(3000);
  t.ok(reply.closedAfterMs < Infinity, 'the connection is closed');
  t.ok(statuses(reply.text).length < 50, `${statuses(reply.text).length} of 50 answered`);
  const ok = await fetch(`${server.url}/api/v1/server_settings`);
  t.equal(ok.status, 200, 'the server keeps serving');
});
