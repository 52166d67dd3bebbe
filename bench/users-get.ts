/**
 * Throughput of `GET /api/v1/users/{id}` with authentication on the reference server, against a
 * bare node:http server answering the same JSON, measured side by side in one run. Each server
 * runs in its own child process; autocannon drives it from this one. Goal: ratio >= 0.75.
 *
 *   node dist/bench/users-get.js [--seconds 5] [--connections 10] [--rounds 2]
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

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      serve: { type: 'string' },
      seconds: { type: 'string', default: '5' },
      connections: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '2' },
    },
  });
  if (values.serve) return serve(values.serve);
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  const totals = { bare: 0, ours: 0 };
  const rounds = Number(values.rounds);
  // Alternate the two so that drift in machine load affects both alike.
  for (let round = 0; round < rounds; round++) {
    totals.bare += await measure('bare', seconds, connections);
    totals.ours += await measure('ours', seconds, connections);
  }
  const bare = totals.bare / rounds;
  const ours = totals.ours / rounds;
  const ratio = ours / bare;
  console.log(`GET ${TARGET_PATH} (authenticated), ${connections} connections, ${rounds} x ${seconds} s each`);
  console.log(`  bare node:http : ${bare.toFixed(0)} req/s`);
  console.log(`  reference      : ${ours.toFixed(0)} req/s`);
  console.log(`  ratio          : ${ratio.toFixed(2)} (goal >= 0.75) ${ratio >= 0.75 ? 'met' : 'NOT met'}`);
}

await main();
