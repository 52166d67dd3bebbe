/**
 * Helpers for testing the conformance suite against our server: an in-process handler for the
 * embedded reference server, optionally wrapped by a deliberate breakage, and the same over a
 * real socket (for the CLI's --base-url).
 */
import type { AddressInfo } from 'node:net';
import { type InProcessHandler, runSuite, type SuiteResult } from '../../conformance/index.js';
import type { ChatApp } from '../../server/app/app.js';
import { createApp, type CreateAppOptions } from '../../server/index.js';
import { createHttpServer } from '../../server/http/listen.js';
import { type ApiRequest, type ApiResponse, makeRequest } from '../../server/app/request.js';

/** A deliberate breakage: sees each request and may change it, the answer, or both. */
export type Mutation = (request: ApiRequest, next: (request: ApiRequest) => Promise<ApiResponse>, app: ChatApp) => Promise<ApiResponse>;

export interface BrokenApp {
  readonly app: ChatApp;
  readonly handler: InProcessHandler;
}

/** A fresh reference server (development realm, other `options` if given), its `handle` wrapped by `mutate`. */
export function brokenApp(mutate?: Mutation, featureLevel?: number, options: CreateAppOptions = {}): BrokenApp {
  const app = createApp({ logger: () => undefined, ...options, ...(featureLevel === undefined ? {} : { featureLevel }) });
  const original = app.handle.bind(app);
  if (mutate) app.handle = (request) => mutate(request, original, app);
  const handler: InProcessHandler = async (request) =>
    app.handle(makeRequest(request.method, request.path, { headers: { ...request.headers }, body: request.body, signal: request.signal }));
  return { app, handler };
}

export interface ReferenceRun {
  /** The breakage; the unbroken server without it. */
  readonly mutate?: Mutation;
  readonly featureLevel?: number;
  readonly seed: number;
  readonly numRuns: number;
  /** Rule globs (every rule when absent). */
  readonly only?: readonly string[];
  /** Further options of the server (a per-user API rate limit, ...). */
  readonly app?: CreateAppOptions;
}

/** Runs the suite against a fresh reference server (broken or not) and closes it. */
export async function runOnReference(run: ReferenceRun): Promise<SuiteResult> {
  const { app, handler } = brokenApp(run.mutate, run.featureLevel, run.app);
  try {
    return await runSuite({ handler, numRuns: run.numRuns, seed: run.seed, ...(run.only === undefined ? {} : { only: run.only }) });
  } finally {
    app.close();
  }
}

/** The IDs of the rules that failed. */
export const failedIds = (result: SuiteResult): string[] => result.results.filter((r) => r.outcome === 'failed').map((r) => r.id);

/** `id: message` of each failed rule (an empty list when the run passed). */
export const failureLines = (result: SuiteResult): string[] =>
  result.results.filter((r) => r.outcome === 'failed').map((r) => `${r.id}: ${r.failure?.message ?? ''}`);

/** The same over HTTP on 127.0.0.1 (port chosen by the system). */
export async function startHttp(mutate?: Mutation): Promise<{ url: string; close(): Promise<void> }> {
  const { app } = brokenApp(mutate);
  // Through `handle`, which `mutate` replaced (the adapter itself calls `answer`).
  const server = createHttpServer({ answer: (request) => app.handle(request) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        app.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Rewrites a JSON success body. */
export function mapJsonBody(response: ApiResponse, change: (body: Record<string, unknown>) => void): ApiResponse {
  if (!response.body.startsWith('{')) return response;
  const body = JSON.parse(response.body) as Record<string, unknown>;
  change(body);
  return { ...response, body: `${JSON.stringify(body)}\n` };
}
