/**
 * The programmatic API of the conformance suite: run it against a base URL or an in-process
 * handler and get the results (the project's tests run it against deliberately broken variants
 * of the reference server). The suite never imports the server: callers pass the handler in.
 *
 * ```ts
 * const result = await runSuite({ app: createApp(), numRuns: 10, only: ['users/*'] });
 * if (!result.ok) console.log(renderReport('spec', result));
 * ```
 */
import type { Dispatcher } from 'undici';
import { type RunOptions, runRules } from './runner.js';
import type { SuiteResult } from './results.js';
import { EMBEDDED_BASE_URL, embeddedTarget } from './targets/embedded.js';
import type { InProcessHandler } from './targets/in-process.js';
import type { Target } from './targets/target.js';
import type { ConnectionOptions } from './targets/connection.js';
import { type FetchApp, fetchAppHandler } from './targets/fetch-app.js';
import { normalizeBaseUrl, urlTarget } from './targets/url.js';

export type SuiteTarget =
  /**
   * A server reached over HTTP; `dispatcher` replaces the default connection pool (a proxy agent,
   * or the in-process fake's dispatcher), `connection` sets headers, proxy and TLS for the default one.
   */
  | { readonly baseUrl: string; readonly dispatcher?: Dispatcher; readonly connection?: ConnectionOptions; readonly handler?: undefined; readonly app?: undefined }
  /** An in-process handler (no socket); `baseUrl` is the address it pretends to have. */
  | { readonly handler: InProcessHandler; readonly baseUrl?: string; readonly app?: undefined }
  /** An app answering web `Request`s (`fetch(request)`), in-process: this package's `ChatApp`, or a Hono-style app. */
  | { readonly app: FetchApp; readonly baseUrl?: string; readonly handler?: undefined };

export type SuiteOptions = SuiteTarget & RunOptions;

/** Builds the target, runs the selected rules, releases the target. */
export async function runSuite(options: SuiteOptions): Promise<SuiteResult> {
  const target = makeTarget(options);
  try {
    return await runRules(target, options);
  } finally {
    await target.close();
  }
}

export function makeTarget(options: SuiteTarget): Target {
  if (options.handler) return embeddedTarget(options.handler, options.baseUrl ?? EMBEDDED_BASE_URL);
  if (options.app) return embeddedTarget(fetchAppHandler(options.app), options.baseUrl ?? EMBEDDED_BASE_URL);
  // A caller-supplied dispatcher (a MockAgent, a proxy) stays the caller's to close.
  if (options.dispatcher) return { kind: 'url', baseUrl: normalizeBaseUrl(options.baseUrl), dispatcher: options.dispatcher, close: async () => undefined };
  return urlTarget(options.baseUrl, options.connection);
}

export { runRules, DEFAULT_NUM_RUNS, DEFAULT_TIMEOUT_MS, type RunOptions, type RunListener, type RunStartInfo } from './runner.js';
export type { SuiteResult, RuleResult, FailureInfo, PropertyFailureInfo, DeviationRecord, Outcome } from './results.js';
export type { Rule, RuleContext, Need, Capability, FeatureRange, PropertyOptions } from './rules/types.js';
export { allRules } from './rules/registry.js';
export { DEVIATIONS, type Deviation, type DeviationId } from './deviations.js';
export { expectDocumentedError } from './expect/deviation.js';
export { renderReport, REPORT_FORMATS, type ReportFormat } from './report/index.js';
export { ApiClient, type Reply, type CallOptions } from './client/api-client.js';
export { RateLimitWaits, Deadline, type Sleep } from './client/rate-limit-waits.js';
export type { RateLimitWait } from './context.js';
export { InProcessDispatcher, type InProcessHandler, type InProcessRequest, type InProcessResponse } from './targets/in-process.js';
export { embeddedTarget, EMBEDDED_BASE_URL } from './targets/embedded.js';
export { urlTarget } from './targets/url.js';
export { networkDispatcher, type ConnectionOptions } from './targets/connection.js';
export type { FetchApp } from './targets/fetch-app.js';
export { UsageError, TargetError, RuleFailure } from './errors.js';
export * as expect from './expect/assert.js';
export { v, type Validator } from './expect/shape.js';
