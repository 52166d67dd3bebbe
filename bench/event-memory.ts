/**
 * Memory of event queues and of a client that never reads (not a timed test).
 *
 * 1. Queues: N event queues registered and abandoned (spread over the subscribers of one
 *    channel), then M messages sent to that channel. Reports heap per queue and per delivered
 *    event (after a full GC), and the time per send; then the same events held the previous way,
 *    where every queue kept its own copy of each event and of its message (simulated beside the
 *    live queues and measured the same way).
 * 2. Pipelining: C connections each send P `POST /register` requests without reading a single
 *    answer; the server's peak RSS while they sit, and its RSS after they close.
 *
 *   node dist/bench/event-memory.js [--queues 20000] [--messages 100] [--connections 50] [--pipelined 200]
 */
import { fork } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    queues: { type: 'string', default: '20000' },
    messages: { type: 'string', default: '100' },
    connections: { type: 'string', default: '50' },
    pipelined: { type: 'string', default: '200' },
    child: { type: 'string' },
  },
});
const MiB = 1024 * 1024;
const gc = (): void => {
  const collect = (globalThis as { gc?: () => void }).gc;
  collect?.();
  collect?.();
};
const heap = (): number => {
  gc();
  return process.memoryUsage().heapUsed;
};

async function queues(count: number, messages: number): Promise<void> {
  const { createApp, makeRequest } = await import('../server/index.js');
  const { eventQueues } = await import('../lib/events/queues.js');
  const { DEFAULT_CAPABILITIES } = await import('../lib/entities/client-capabilities.js');
  const app = createApp({ logger: () => undefined });
  const world = app.world;
  const verona = world.streamByName('Verona');
  const hamlet = world.usersByEmail.get('hamlet@zulip.com');
  if (!verona || !hamlet) throw new Error('fixture without Verona or Hamlet');
  const subscribers = [...world.subscribersOf(verona.id)].filter(([, sub]) => sub.active).map(([id]) => id);
  const options = { eventTypes: null, narrow: [], applyMarkdown: true, clientGravatar: false, slimPresence: false, allPublicStreams: false, capabilities: DEFAULT_CAPABILITIES, lifespanSecs: 0 };
  const registry = eventQueues(world);
  const before = heap();
  const made = [];
  for (let i = 0; i < count; i++) made.push(registry.create(subscribers[i % subscribers.length] as number, options, 600, Infinity));
  const withQueues = heap();
  const auth = `Basic ${Buffer.from(`hamlet@zulip.com:${hamlet.apiKey}`).toString('base64')}`;
  const started = performance.now();
  for (let i = 0; i < messages; i++) {
    const body = new URLSearchParams({ type: 'stream', to: 'Verona', topic: 'bench', content: `message ${i} with some text in it` }).toString();
    const reply = await app.handle(makeRequest('POST', '/api/v1/messages', { headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' }, body }));
    if (reply.status !== 200) throw new Error(reply.body);
  }
  const sendMs = (performance.now() - started) / messages;
  const withEvents = heap();
  const delivered = made.reduce((sum, queue) => sum + queue.heldEvents().length, 0);
  // The previous layout: each queue held `{...event, id}` with its own copy of the message.
  const copies = made.map((queue) =>
    queue.heldEvents().map((event, id) => ({ ...event, ...(typeof event.message === 'object' ? { message: { ...(event.message as object) } } : {}), id })),
  );
  const withCopies = heap();
  const perQueue = (withQueues - before) / count;
  const shared = (withEvents - withQueues) / delivered;
  const copied = (withCopies - withEvents) / delivered;
  console.log(`queues: ${count} abandoned, ${messages} messages, ${delivered} deliveries, ${sendMs.toFixed(2)} ms per send`);
  console.log(`  heap per queue:                      ${perQueue.toFixed(0)} B`);
  console.log(`  heap per delivered event, shared:    ${shared.toFixed(1)} B`);
  console.log(`  heap per delivered event, per-queue copies (previous layout): ${copied.toFixed(1)} B`);
  console.log(`  heap for all events: ${((withEvents - withQueues) / MiB).toFixed(1)} MiB shared vs ${((withCopies - withEvents) / MiB).toFixed(1)} MiB copied (${copies.length} queues)`);
}

async function pipelinedServer(): Promise<void> {
  const { startServer } = await import('../server/index.js');
  const server = await startServer({ logger: () => undefined, maxPipelinedRequests: 100_000 });
  const iago = server.world.usersByEmail.get('iago@zulip.com');
  let peak = 0;
  setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20).unref();
  process.on('message', (message: string) => {
    if (message === 'rss') {
      gc();
      process.send?.({ peak, now: process.memoryUsage().rss });
      peak = 0;
    } else process.exit(0);
  });
  process.send?.({ url: server.url, auth: `Basic ${Buffer.from(`iago@zulip.com:${iago?.apiKey}`).toString('base64')}` });
}

async function pipelined(connections: number, each: number): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ['--child', 'pipelined'], { execArgv: ['--expose-gc'], stdio: 'inherit' });
  const ask = <T>(message?: string): Promise<T> =>
    new Promise((resolve) => {
      child.once('message', (reply) => resolve(reply as T));
      if (message) child.send(message);
    });
  const { url, auth } = await ask<{ url: string; auth: string }>();
  const idle = await ask<{ peak: number; now: number }>('rss');
  const { hostname, port } = new URL(url);
  const request = `POST /api/v1/register HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Length: 0\r\n\r\n`.repeat(each);
  const sockets = [];
  for (let i = 0; i < connections; i++) {
    const socket = connect(Number(port), hostname);
    socket.pause();
    socket.on('error', () => undefined);
    socket.write(request);
    sockets.push(socket);
  }
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const loaded = await ask<{ peak: number; now: number }>('rss');
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const after = await ask<{ peak: number; now: number }>('rss');
  console.log(`pipelining: ${connections} connections x ${each} POST /register, answers never read`);
  console.log(`  server RSS idle ${(idle.now / MiB).toFixed(0)} MiB, peak while held ${(loaded.peak / MiB).toFixed(0)} MiB, after close ${(after.now / MiB).toFixed(0)} MiB`);
  child.send('exit');
}

if (values.child === 'pipelined') await pipelinedServer();
else if (values.child === 'queues') await queues(Number(values.queues), Number(values.messages));
else {
  await new Promise<void>((resolve) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child', 'queues', '--queues', values.queues, '--messages', values.messages], { execArgv: ['--expose-gc'], stdio: 'inherit' });
    child.once('exit', () => resolve());
  });
  await pipelined(Number(values.connections), Number(values.pipelined));
}
