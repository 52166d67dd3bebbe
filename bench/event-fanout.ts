/**
 * Event fan-out over real HTTP: N event queues (default 1000) registered with `POST /register`,
 * one `GET /events` long poll held open on each (one keep-alive connection per poll), then one
 * event emitted for every user. Reports the server's heap per queue and per held poll, its CPU
 * use while the polls sit idle, and the time from emitting until each client has its event.
 *
 * The baseline, measured in the same run: a bare node:http server holding the same number of
 * requests and answering them all at once with an event of the same size (the transport's floor).
 *
 * The server runs in a child process (with --expose-gc, so heap figures are after a full GC);
 * this process is the clients. Client-side times include this process parsing every answer;
 * the server-side time (until the last answer is written) isolates the server.
 *
 *   node dist/bench/event-fanout.js [--queues 1000] [--rounds 3]   (round 1 runs on a cold JIT)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

interface Ready {
  readonly url: string;
  readonly users: ReadonlyArray<{ readonly authorization: string }>;
}
type Op = 'heap' | 'waiting' | 'emit' | 'written' | 'idle-cpu';
interface Command {
  readonly id: number;
  readonly op: Op;
  readonly ms: number;
}

async function serve(): Promise<void> {
  const { createApp } = await import('../server/index.js');
  const { createHttpServer } = await import('../server/http/listen.js');
  const { longPoller } = await import('../server/app/long-poll.js');
  const app = createApp({ logger: () => undefined });
  const http = createHttpServer(app);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  // Server-side fan-out time: from emitting until the last held poll's answer is written.
  let emittedAt = 0;
  let expected = Infinity;
  let writtenAfterEmit = 0;
  let lastWrittenAt = 0;
  let allWritten: (() => void) | undefined;
  http.on('request', (_req, res) =>
    res.on('finish', () => {
      if (emittedAt === 0) return;
      lastWrittenAt = performance.now();
      if (++writtenAfterEmit >= expected) allWritten?.();
    }),
  );
  const humans = [...app.world.users.values()].filter((u) => u.isActive && !u.isBot && !u.isSystemBot);
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
  process.on('message', async (message: Command) => {
    let value: number;
    if (message.op === 'heap') {
      gc();
      gc();
      value = process.memoryUsage().heapUsed;
    } else if (message.op === 'waiting') value = longPoller(app).size;
    else if (message.op === 'emit') {
      const event = { type: 'realm_user_settings_defaults', op: 'update', property: 'enter_sends', value: false };
      expected = longPoller(app).size;
      writtenAfterEmit = 0;
      emittedAt = performance.now();
      app.world.events.send(event, humans.map((u) => u.id));
      value = 0;
    } else if (message.op === 'written') {
      if (writtenAfterEmit < expected) await new Promise<void>((resolve) => (allWritten = resolve));
      value = lastWrittenAt - emittedAt;
    } else {
      const before = process.cpuUsage();
      await new Promise((resolve) => setTimeout(resolve, message.ms));
      const used = process.cpuUsage(before);
      value = (used.user + used.system) / 1000;
    }
    process.send?.({ id: message.id, value });
  });
  const users = humans.map((u) => ({ authorization: `Basic ${Buffer.from(`${u.deliveryEmail}:${u.apiKey}`).toString('base64')}` }));
  process.send?.({ ready: { url, users } satisfies Ready });
}

/** The baseline: holds every request and answers all of them with one prepared event on `emit`. */
async function serveBare(): Promise<void> {
  const { createServer } = await import('node:http');
  const held: Array<import('node:http').ServerResponse> = [];
  let emittedAt = 0;
  let lastWrittenAt = 0;
  let pending = 0;
  let allWritten: (() => void) | undefined;
  let round = 0;
  const http = createServer((_req, res) => {
    held.push(res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  process.on('message', async (message: Command) => {
    let value = 0;
    if (message.op === 'heap') value = process.memoryUsage().heapUsed;
    else if (message.op === 'waiting') value = held.length;
    else if (message.op === 'emit') {
      const body = `${JSON.stringify({
        result: 'success',
        msg: '',
        events: [{ type: 'realm_user_settings_defaults', op: 'update', property: 'enter_sends', value: false, id: round++ }],
        queue_id: '00000000-0000-4000-8000-000000000000',
      })}\n`;
      const answering = held.splice(0);
      pending = answering.length;
      emittedAt = performance.now();
      for (const res of answering) {
        res.on('finish', () => {
          lastWrittenAt = performance.now();
          if (--pending === 0) allWritten?.();
        });
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
      }
    } else if (message.op === 'written') {
      if (pending > 0) await new Promise<void>((resolve) => (allWritten = resolve));
      value = lastWrittenAt - emittedAt;
    }
    process.send?.({ id: message.id, value });
  });
  process.send?.({ ready: { url, users: [{ authorization: 'Basic none' }] } satisfies Ready });
}

class Child {
  private nextId = 0;
  private readonly pending = new Map<number, (value: number) => void>();
  private constructor(readonly process: ChildProcess) {
    process.on('message', (message: { id?: number; value?: number }) => {
      if (message.id !== undefined) this.pending.get(message.id)?.(message.value ?? 0);
    });
  }

  static start(mode: '--serve' | '--serve-bare'): Promise<{ child: Child; ready: Ready }> {
    const proc = fork(fileURLToPath(import.meta.url), [mode], { execArgv: ['--expose-gc'], stdio: 'inherit' });
    const child = new Child(proc);
    return new Promise((resolve, reject) => {
      proc.once('message', (message: { ready: Ready }) => resolve({ child, ready: message.ready }));
      proc.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
  }

  ask(op: Op, ms = 0): Promise<number> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.process.send({ id, op, ms });
    });
  }
}

function call(agent: Agent, url: string, method: string, path: string, authorization: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization };
    if (body !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const req = request(`${url}${path}`, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const kib = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KiB`;

interface Round {
  readonly serverMs: number;
  readonly sorted: readonly number[];
}

/** Holds one poll per queue (acknowledging the previous round's event), emits once, times the answers. */
async function round(child: Child, agent: Agent, ready: Ready, queueIds: readonly string[], index: number, whileHeld: () => Promise<void>): Promise<Round> {
  const owner = (i: number) => (ready.users[i % ready.users.length] as { authorization: string }).authorization;
  const received: number[] = [];
  let t0 = 0;
  const polls = queueIds.map((id, i) =>
    call(agent, ready.url, 'GET', `/api/v1/events?queue_id=${id}&last_event_id=${index - 1}&dont_block=false`, owner(i)).then((reply) => {
      received.push(performance.now() - t0);
      const events = (JSON.parse(reply.text) as { events: Array<{ type: string; id: number }> }).events;
      if (reply.status !== 200 || events.length !== 1 || events[0]?.id !== index) throw new Error(`unexpected answer: ${reply.status} ${reply.text}`);
    }),
  );
  while ((await child.ask('waiting')) < queueIds.length) await new Promise((resolve) => setTimeout(resolve, 20));
  await whileHeld();
  t0 = performance.now();
  await child.ask('emit');
  await Promise.all(polls);
  return { serverMs: await child.ask('written'), sorted: [...received].sort((a, b) => a - b) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { queues: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '3' } } });
  const count = Number(values.queues);
  const rounds = Math.max(1, Number(values.rounds));
  const baselineRounds = await measureBaseline(count, rounds);
  const { child, ready } = await Child.start('--serve');
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  try {
    const baseline = await child.ask('heap');
    const queueIds: string[] = [];
    const register = 'event_types=%5B%22realm_user_settings_defaults%22%5D&fetch_event_types=%5B%5D';
    for (let i = 0; i < count; i++) {
      const authorization = (ready.users[i % ready.users.length] as { authorization: string }).authorization;
      const reply = await call(agent, ready.url, 'POST', '/api/v1/register', authorization, register);
      if (reply.status !== 200) throw new Error(`register: ${reply.status} ${reply.text}`);
      queueIds.push((JSON.parse(reply.text) as { queue_id: string }).queue_id);
    }
    const withQueues = await child.ask('heap');
    let withPolls = 0;
    let idleCpuMs = 0;
    const results: Round[] = [];
    for (let r = 0; r < rounds; r++) {
      results.push(
        await round(child, agent, ready, queueIds, r, async () => {
          if (r > 0) return;
          idleCpuMs = await child.ask('idle-cpu', 1000);
          withPolls = await child.ask('heap');
        }),
      );
    }

    console.log(`event fan-out: ${count} queues, ${ready.users.length} users, one long poll held per queue over HTTP`);
    console.log(`  heap per queue:       ${kib((withQueues - baseline) / count)}  (server heap ${kib(baseline)} -> ${kib(withQueues)})`);
    console.log(`  heap per held poll:   ${kib((withPolls - withQueues) / count)}  (request, response, socket, timer)`);
    console.log(`  server CPU while idle: ${idleCpuMs.toFixed(1)} ms over 1000 ms with ${count} polls held`);
    const describe = (label: string, { serverMs, sorted }: Round): void => {
      const client = `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms`;
      console.log(`  ${label}: emit -> client has event ${client}; last answer written at ${serverMs.toFixed(1)} ms`);
    };
    results.forEach((result, r) => describe(`round ${r + 1}${r === 0 ? ' (cold)' : '       '}`, result));
    baselineRounds.forEach((result, r) => describe(`bare ${r + 1}${r === 0 ? ' (cold) ' : '        '}`, result));
    const warm = (list: readonly Round[]) => (list.length > 1 ? list.slice(1) : list);
    const maxOf = (list: readonly Round[]) => warm(list).reduce((sum, r) => sum + (r.sorted.at(-1) ?? 0), 0) / warm(list).length;
    console.log(`  every client has its event: ${maxOf(results).toFixed(1)} ms (reference) vs ${maxOf(baselineRounds).toFixed(1)} ms (bare node:http), ratio ${(maxOf(results) / maxOf(baselineRounds)).toFixed(2)}`);
  } finally {
    agent.destroy();
    child.process.kill();
  }
}

/** The same rounds against the bare server: the floor any long-poll server pays for 1,000 answers. */
async function measureBaseline(count: number, rounds: number): Promise<Round[]> {
  const { child, ready } = await Child.start('--serve-bare');
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  try {
    const ids = Array.from({ length: count }, (_, i) => `bare-${i}`);
    const results: Round[] = [];
    for (let r = 0; r < rounds; r++) results.push(await round(child, agent, ready, ids, r, async () => undefined));
    return results;
  } finally {
    agent.destroy();
    child.process.kill();
  }
}

if (process.argv.includes('--serve-bare')) void serveBare();
else if (process.argv.includes('--serve')) void serve();
else
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
