/**
 * Cost against the organization's size: the same single-object operations on the development realm
 * and on a generated large realm (the development realm plus N members, M channels of 10
 * subscribers each and one channel of B subscribers), measured alternately in one process through
 * the in-process handler, with each side's median and their ratio. Goal: every ratio <= 1.5.
 * With `--load`, also the large realm's start: a `chat-server` process on the generated fixture,
 * time until it listens and its resident memory then (goal: under 2 s and 512 MiB).
 *
 *   node dist/bench/realm-scale.js [--users 100000] [--channels 10000] [--big 20000] [--messages 100000] [--samples 60] [--load]
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEV_REALM_PATH } from '../fixtures/index.js';
import { parseFixture } from '../lib/fixture/build.js';
import type { Fixture } from '../lib/fixture/schema.js';
import { createApp, makeRequest, type ChatApp } from '../server/index.js';
import { OPERATIONS, type Operation, type Side } from './realm-scale-operations.js';
import { addHistory } from './realm-scale-history.js';

const EMAIL = 'iago@zulip.com';

/** A deterministic 32-character key from a number (the fixture requires the API key's shape). */
function keyFor(n: number): string {
  return `k${n.toString(36)}`.padEnd(32, 'x').slice(0, 32);
}

/** The large realm's fixture text: the development realm's JSON with generated members and channels appended. */
function largeFixtureText(users: number, channels: number, big: number): string {
  const base = JSON.parse(readFileSync(DEV_REALM_PATH, 'utf8')) as { users: unknown[]; channels: unknown[] };
  const domain = 'zulip.com';
  const generated = Array.from({ length: users }, (_, i) => ({
    id: 1000 + i,
    email: `member${i}@${domain}`,
    fullName: `Member ${i}`,
    role: 400 as const,
    apiKey: keyFor(i),
  }));
  const emails = generated.map((u) => u.email);
  const generatedChannels = Array.from({ length: channels }, (_, i) => ({
    id: 100_000 + i,
    name: `generated ${i}`,
    description: `Generated channel ${i}`,
    subscribers: Array.from({ length: 10 }, (_, k) => emails[(i * 10 + k) % emails.length] as string),
  }));
  const crowd = { id: 99_999, name: 'crowd', description: 'One large channel', subscribers: emails.slice(0, big) };
  return JSON.stringify({ ...base, users: [...base.users, ...generated], channels: [...base.channels, crowd, ...generatedChannels] });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function timeOne(app: ChatApp, authorization: string, operation: Operation, i: number, side: Side): Promise<number> {
  const { method, path, params } = operation.request(i, side);
  const form = new URLSearchParams(params ?? {}).toString();
  const inQuery = method === 'GET' || method === 'DELETE';
  const url = inQuery && form ? `/api/v1${path}?${form}` : `/api/v1${path}`;
  const headers: Record<string, string> = { authorization };
  if (!inQuery) headers['content-type'] = 'application/x-www-form-urlencoded';
  const request = makeRequest(method, url, { headers, ...(inQuery ? {} : { body: form }) });
  const start = process.hrtime.bigint();
  const response = await app.handle(request);
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (response.status !== 200) throw new Error(`${operation.name}: ${response.status} ${response.body}`);
  return elapsed;
}

function authorizationFor(app: ChatApp): string {
  const key = app.world.usersByEmail.get(EMAIL)?.apiKey ?? '';
  return `Basic ${Buffer.from(`${EMAIL}:${key}`).toString('base64')}`;
}

async function compareOperations(fixture: Fixture, samples: number, history: number): Promise<void> {
  const sides = { dev: createApp({ logger: () => undefined }), large: createApp({ fixture, logger: () => undefined }) };
  const auth = { dev: authorizationFor(sides.dev), large: authorizationFor(sides.large) };
  const info = { dev: { messageId: addHistory(sides.dev.world, 100) }, large: { messageId: addHistory(sides.large.world, history) } };
  console.log(`operation (median of ${samples}, ms)`.padEnd(48) + 'dev'.padStart(9) + 'large'.padStart(9) + 'ratio'.padStart(8));
  for (const operation of OPERATIONS) {
    const times = { dev: [] as number[], large: [] as number[] };
    // Alternate the sides so that drift in machine load affects both alike; warm up first.
    for (let i = 0; i < samples + 5; i++) {
      for (const side of ['dev', 'large'] as const) {
        const ms = await timeOne(sides[side], auth[side], operation, i, info[side]);
        if (i >= 5) times[side].push(ms);
      }
    }
    const dev = median(times.dev);
    const large = median(times.large);
    const ratio = large / dev;
    console.log(
      operation.name.padEnd(48) + dev.toFixed(3).padStart(9) + large.toFixed(3).padStart(9) + `${ratio.toFixed(2)}x`.padStart(8) + (ratio <= 1.5 ? '' : '  over 1.5x'),
    );
  }
  for (const app of Object.values(sides)) app.close();
}

async function measureLoad(fixtureText: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'realm-scale-'));
  const path = join(dir, 'large-realm.json');
  writeFileSync(path, fixtureText);
  const bin = fileURLToPath(new URL('../bin/chat-server.js', import.meta.url));
  const start = process.hrtime.bigint();
  const child = spawn(process.execPath, [bin, '--port', '0', '--fixture', path], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('http://')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`chat-server exited with ${code}`)));
    });
    const ready = Number(process.hrtime.bigint() - start) / 1e6;
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    console.log(`large realm: ready ${ready.toFixed(0)} ms after process start (goal < 2000), RSS ${(rssKiB / 1024).toFixed(0)} MiB (goal < 512)`);
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '100000' },
      channels: { type: 'string', default: '10000' },
      big: { type: 'string', default: '20000' },
      samples: { type: 'string', default: '60' },
      load: { type: 'boolean', default: false },
      messages: { type: 'string', default: '100000' },
    },
  });
  const text = largeFixtureText(Number(values.users), Number(values.channels), Number(values.big));
  console.log(`large realm: dev realm + ${values.users} members, ${values.channels} channels of 10, one of ${values.big}, ${values.messages} messages in Verona`);
  if (values.load) await measureLoad(text);
  await compareOperations(parseFixture(text), Number(values.samples), Number(values.messages));
}

await main();
