/**
 * Cost against history length: two generated realms of the same shape (bench/history-scale-fixture.ts),
 * a small history (20,000 messages) and a large one (1,000,000), each loaded by its own worker
 * process as `chat-server --fixture` loads it. Reports each side's ready time (process start to
 * realm built, with the CPU time spent by then) and RSS then, when its search words were listed in
 * the background (operations are timed after that), and per operation the median time on each side and their ratio,
 * the sides alternating sample by sample so that drift in machine load affects both alike.
 * Goals: every ratio <= 1.5; the large side ready in under 10 s and under 2 GiB.
 *
 *   node dist/bench/history-scale.js [--small 20000] [--large 1000000] [--samples 30] [--budget 20] [--only name] [--keep dir] [--ready-only]
 *
 * `--budget` caps the seconds spent on one operation (at least 3 samples are taken), so a slow
 * baseline finishes; `--only` runs the operations whose name contains the text; `--keep` writes
 * the generated fixtures to that folder and reuses them on the next run; `--ready-only` loads the
 * large side alone and reports its ready time and RSS, timing no operation.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type HistoryPlan, writeHistoryFixture } from './history-scale-fixture.js';
import { HISTORY_OPERATIONS } from './history-scale-operations.js';
import type { WorkerCommand, WorkerReady } from './history-scale-worker.js';

const MiB = 1024 * 1024;
const WARMUP = 3;

interface Side {
  readonly label: string;
  readonly child: ChildProcess;
  readonly ready: WorkerReady;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`worker exited with ${code}`));
    child.once('exit', onExit);
    child.once('message', (message) => {
      child.off('exit', onExit);
      resolve(message as T);
    });
  });
}

async function startSide(label: string, fixture: string, plan: string): Promise<Side> {
  const worker = fileURLToPath(new URL('./history-scale-worker.js', import.meta.url));
  const child = fork(worker, [fixture, plan], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await nextMessage<WorkerReady>(child);
  console.log(`${label}: ready ${(ready.readyMs / 1000).toFixed(1)} s after process start (CPU ${(ready.cpuMs / 1000).toFixed(1)} s), RSS ${(ready.rssBytes / MiB).toFixed(0)} MiB`);
  console.log(`  search words listed in the background by ${(ready.settledMs / 1000).toFixed(1)} s, RSS then ${(ready.settledRssBytes / MiB).toFixed(0)} MiB`);
  return { label, child, ready };
}

async function sample(side: Side, operation: number, i: number): Promise<number> {
  const command: WorkerCommand = { operation, sample: i };
  side.child.send(command);
  return (await nextMessage<{ ms: number }>(side.child)).ms;
}

async function compare(small: Side, large: Side, samples: number, budgetMs: number, only: string | undefined): Promise<void> {
  console.log(`\n${'operation (median, ms)'.padEnd(42)}${'small'.padStart(10)}${'large'.padStart(10)}${'ratio'.padStart(8)}  samples`);
  for (const [index, operation] of HISTORY_OPERATIONS.entries()) {
    if (only !== undefined && !operation.name.includes(only)) continue;
    const times = { small: [] as number[], large: [] as number[] };
    const started = performance.now();
    // An even number of samples, so alternating writes (star, unstar) leave the history as it was.
    for (let i = 0; i < samples + WARMUP; i++) {
      for (const side of [small, large]) {
        const ms = await sample(side, index, i);
        if (i >= WARMUP) times[side === small ? 'small' : 'large'].push(ms);
      }
      if (i >= WARMUP + 2 && i % 2 === 0 && performance.now() - started > budgetMs) break;
    }
    const ratio = median(times.large) / median(times.small);
    const flag = ratio <= 1.5 ? '' : '  over 1.5x';
    console.log(
      `${operation.name.padEnd(42)}${median(times.small).toFixed(3).padStart(10)}${median(times.large).toFixed(3).padStart(10)}${`${ratio.toFixed(2)}x`.padStart(8)}  ${times.small.length}${flag}`,
    );
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      small: { type: 'string', default: '20000' },
      large: { type: 'string', default: '1000000' },
      samples: { type: 'string', default: '30' },
      budget: { type: 'string', default: '20' },
      only: { type: 'string' },
      keep: { type: 'string' },
      'ready-only': { type: 'boolean', default: false },
    },
  });
  const dir = values.keep ?? mkdtempSync(join(tmpdir(), 'history-scale-'));
  const sides: Side[] = [];
  try {
    const readyOnly = values['ready-only'];
    const plans = (readyOnly ? [Number(values.large)] : [Number(values.small), Number(values.large)]).map((count) => {
      const path = join(dir, `history-${count}.json`);
      const planPath = `${path}.plan`;
      if (values.keep !== undefined && existsSync(planPath)) return { path, plan: JSON.parse(readFileSync(planPath, 'utf8')) as HistoryPlan };
      const started = performance.now();
      const plan = writeHistoryFixture(path, count);
      writeFileSync(planPath, JSON.stringify(plan));
      console.log(`generated ${count} messages in ${((performance.now() - started) / 1000).toFixed(1)} s (common word "${plan.commonWord}", topic "${plan.topic}" in ${plan.channel})`);
      return { path, plan };
    });
    // One side at a time, so the two loads do not compete for the machine.
    const labelled = readyOnly ? ([['large', plans[0]]] as const) : ([['small', plans[0]], ['large', plans[1]]] as const);
    for (const [label, generated] of labelled) {
      if (generated) sides.push(await startSide(`${label} (${generated.plan.messages} messages)`, generated.path, JSON.stringify(generated.plan)));
    }
    const [small, large] = readyOnly ? [undefined, sides[0]] : sides;
    if (small && large) await compare(small, large, Number(values.samples), Number(values.budget) * 1000, values.only);
    const largeReady = large?.ready;
    if (largeReady) {
      const met = largeReady.readyMs < 10_000 && largeReady.rssBytes < 2048 * MiB;
      console.log(`\nlarge side ready in ${(largeReady.readyMs / 1000).toFixed(1)} s (CPU ${(largeReady.cpuMs / 1000).toFixed(1)} s) with ${(largeReady.rssBytes / MiB).toFixed(0)} MiB (goal < 10 s, < 2048 MiB: ${met ? 'met' : 'not met'})`);
    }
  } finally {
    for (const side of sides) side.child.send({ exit: true } satisfies WorkerCommand);
    if (values.keep === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
