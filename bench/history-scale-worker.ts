/**
 * One side of `history-scale`, in its own process: loads the generated fixture as `chat-server
 * --fixture` does (the same `createApp`), reports the time since the process started and its RSS,
 * waits for the app's background work (listing the search words) to end, so that it does not
 * share the machine with the samples, and then times the operations it is asked for through the
 * in-process handler.
 *
 *   (forked by history-scale) history-scale-worker.js FIXTURE PLAN_JSON
 */
import { createApp, makeRequest, type ChatApp } from '../server/index.js';
import type { HistoryPlan } from './history-scale-fixture.js';
import { HISTORY_OPERATIONS, type HistoryRequest, type HistorySide } from './history-scale-operations.js';

export interface WorkerReady {
  readonly readyMs: number;
  /** CPU time (user and system) spent by then: on a shared machine, the part of readyMs that is this process's own work. */
  readonly cpuMs: number;
  readonly rssBytes: number;
  /** When the search words were all listed (since process start), and the RSS then. */
  readonly settledMs: number;
  readonly settledRssBytes: number;
}

export type WorkerCommand = { readonly operation: number; readonly sample: number } | { readonly exit: true };

const EMAIL = 'hamlet@zulip.com';

function send(app: ChatApp, authorization: string, request: HistoryRequest) {
  const form = new URLSearchParams(request.params ?? {}).toString();
  const inQuery = request.method === 'GET' || request.method === 'DELETE';
  const url = inQuery && form ? `/api/v1${request.path}?${form}` : `/api/v1${request.path}`;
  const headers: Record<string, string> = { authorization };
  if (!inQuery) headers['content-type'] = 'application/x-www-form-urlencoded';
  return app.handle(makeRequest(request.method, url, { headers, ...(inQuery ? {} : { body: form }) }));
}

async function main(): Promise<void> {
  const [fixture, planText] = process.argv.slice(2);
  if (!fixture || !planText || !process.send) throw new Error('history-scale-worker is started by history-scale');
  const app = createApp({ fixture, logger: () => undefined });
  const cpu = process.cpuUsage();
  const [readyMs, rssBytes] = [performance.now(), process.memoryUsage().rss];
  while (app.world.messages.index.pendingWords > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  const ready: WorkerReady = { readyMs, cpuMs: (cpu.user + cpu.system) / 1000, rssBytes, settledMs: performance.now(), settledRssBytes: process.memoryUsage().rss };
  const plan = JSON.parse(planText) as HistoryPlan;
  const side: HistorySide = { ...plan, middleId: app.world.messages.ids[plan.middleIndex] ?? 0 };
  const key = app.world.usersByEmail.get(EMAIL)?.apiKey ?? '';
  const authorization = `Basic ${Buffer.from(`${EMAIL}:${key}`).toString('base64')}`;
  process.on('message', (command: WorkerCommand) => {
    if ('exit' in command) {
      app.close();
      process.exit(0);
    }
    void (async () => {
      const operation = HISTORY_OPERATIONS[command.operation];
      if (!operation) throw new Error(`no operation ${command.operation}`);
      const start = process.hrtime.bigint();
      const answer = await send(app, authorization, operation.request(command.sample, side));
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (answer.status !== 200) throw new Error(`${operation.name}: ${answer.status} ${answer.body}`);
      const cleanup = operation.cleanup?.(JSON.parse(answer.body) as Record<string, unknown>);
      if (cleanup) await send(app, authorization, cleanup);
      process.send?.({ ms });
    })();
  });
  process.send(ready);
}

await main();
