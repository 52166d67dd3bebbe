/**
 * Throughput of `GET /api/v1/users/{id}` with authentication on the reference server, against a
 * bare node:http server answering the same JSON, measured side by side in one run. Each server
 * runs in its own child process; autocannon drives it from this one. Goal: ratio >= 0.75.
 *
 *   node dist/bench/users-get.js [--seconds 5] [--connections 10] [--rounds 3]
 */
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const TARGET_PATH = '/api/v1/users/10';
const EMAIL = 'iago@zulip.com';

async function serve(kind: string): Promise<void> {
  const { startServer } = await import('../server/index.js');
  const ours = await startServer({ logger: () => undefined });
  const key = ours.world.usersByEmail.get(EMAIL)?.apiKey ?? '';
  const authorization = `Basic ${Buffer.from(`${EMAIL}:${key}`).toString('base64')}`;
  if (kind === 'ours') {
    process.send?.({ url: ours.url, authorization });
    return;
  }
  // The bare server answers with exactly the bytes the reference server sends for this request.
  const sample = await fetch(`${ours.url}${TARGET_PATH}`, { headers: { authorization } });
  const body = await sample.text();
  await ours.close();
  const bare = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
  bare.listen(0, '127.0.0.1', () => {
    const { port } = bare.address() as AddressInfo;
    process.send?.({ url: `http://127.0.0.1:${port}`, authorization });
  });
}

function startChild(kind: string): Promise<{ child: ChildProcess; url: string; authorization: string }> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', kind], { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, ...(message as { url: string; authorization: string }) }));
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}

async function measure(kind: string, seconds: number, connections: number): Promise<number> {
  const { child, url, authorization } = await startChild(kind);
  try {
    const result = await autocannon({ url: `${url}${TARGET_PATH}`, headers: { authorization }, duration: seconds, connections });
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${kind}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return result.requests.average;
  } finally {
    child.kill();
  }
}

function median(list: readonly number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      serve: { type: 'string' },
      seconds: { type: 'string', default: '5' },
      connections: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '3' },
    },
  });
  if (values.serve) return serve(values.serve);
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  const rounds = Number(values.rounds);
  const bareRates: number[] = [];
  const referenceRates: number[] = [];
  // Alternate the two so that drift in machine load affects both alike.
  for (let round = 0; round < rounds; round++) {
    bareRates.push(await measure('bare', seconds, connections));
    referenceRates.push(await measure('ours', seconds, connections));
  }
  // Medians: one round disturbed by another process moves them less than it moves a mean.
  const bare = median(bareRates);
  const ours = median(referenceRates);
  const ratio = ours / bare;
  const rates = (list: number[]) => list.map((rate) => rate.toFixed(0)).join(', ');
  console.log(`GET ${TARGET_PATH} (authenticated), ${connections} connections, ${rounds} x ${seconds} s each, medians of the rounds`);
  console.log(`  bare node:http : ${bare.toFixed(0)} req/s (${rates(bareRates)})`);
  console.log(`  reference      : ${ours.toFixed(0)} req/s (${rates(referenceRates)})`);
  console.log(`  ratio          : ${ratio.toFixed(2)} (goal >= 0.75) ${ratio >= 0.75 ? 'met' : 'NOT met'}`);
}

await main();
