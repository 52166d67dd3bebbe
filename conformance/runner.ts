/**
 * Runs the suite against a target: discovery, identities, rule selection, then each rule (or its
 * skip reason), run-level cleanups last. Returns the results; reporters format them.
 */
import { ApiClient, type RateLimitPolicy } from './client/api-client.js';
import { Transcript } from './client/exchange.js';
import { RateLimitWaits, type Sleep } from './client/rate-limit-waits.js';
import { CleanupRegistry } from './cleanup.js';
import { makeCleanupContext, type RateLimitWait, type RunEnvironment } from './context.js';
import { resolveIdentities } from './credentials/pool.js';
import type { CredentialOptions } from './credentials/sources.js';
import { ThrowawayUsers } from './credentials/throwaway.js';
import { capabilityStates } from './capabilities.js';
import { computeCoverage } from './coverage.js';
import { UsageError } from './errors.js';
import { NeedChecker } from './needs.js';
import { countOutcomes, type RuleResult, type SuiteResult, type TargetSummary } from './results.js';
import { allRules, validateRules } from './rules/registry.js';
import type { Rule } from './rules/types.js';
import { runRule, skippedResult } from './run-rule.js';
import { newRunTag, parseReplay, randomSeed } from './seeds.js';
import { type Selection, selectRules } from './selection.js';
import { discover } from './targets/discovery.js';
import type { Target } from './targets/target.js';

/** Keeps properties meaningful while the whole suite stays within budget on the embedded server. */
export const DEFAULT_NUM_RUNS = 100;
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Longer than any answer a rule waits for (rules poll events with `dont_block`). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface RunStartInfo {
  readonly target: TargetSummary;
  readonly seed: number;
  readonly numRuns: number;
  readonly runTag: string;
  readonly total: number;
  /** The selected rules, in run order. */
  readonly rules: readonly Rule[];
  readonly identities: readonly string[];
  readonly warnings: readonly string[];
}

/** Progress callbacks (the spec reporter's progress line uses them). */
export interface RunListener {
  onStart?(info: RunStartInfo): void;
  onRuleStart?(rule: Rule, position: number, total: number): void;
  onRuleEnd?(result: RuleResult, position: number, total: number): void;
  /** A request is about to wait out the target's rate limit (`Retry-After`). */
  onRateLimitWait?(wait: RateLimitWait): void;
}

export interface RunOptions extends Selection {
  /** Run seed (default random; printed in every report). */
  readonly seed?: number;
  /** fast-check runs per property (default 100, as fast-check itself). */
  readonly numRuns?: number;
  /** `SEED:PATH` from a failure report: re-run one counterexample (selection must be one rule). */
  readonly replay?: string;
  /** Per-rule time limit in ms (default 60 000). */
  readonly timeoutMs?: number;
  /** Longest wait for one HTTP answer in ms (default 30 000); a silent target fails fast. */
  readonly requestTimeoutMs?: number;
  /** Stop after the first failure (the rest are reported as skipped). */
  readonly bail?: boolean;
  /** Fail rules that observe a known deviation. */
  readonly strictDocs?: boolean;
  /** Select rules for this feature level instead of the discovered one. */
  readonly featureLevel?: number;
  readonly credentials?: CredentialOptions;
  /** The command that reaches this target again, for printed replay commands. */
  readonly invocation?: readonly string[];
  /** The rules to choose from (default: every registered rule). */
  readonly rules?: readonly Rule[];
  readonly listener?: RunListener;
  readonly rateLimit?: RateLimitPolicy;
  /**
   * How the client waits out a `Retry-After` (default: a timer). A test of the real limit's shape
   * passes one that moves the target's clock forward instead, so a 59 s wait costs no wall time.
   */
  readonly rateLimitSleep?: Sleep;
  /** Time limit of each cleanup in ms (default 30 000; rate-limit waits not counted). */
  readonly cleanupTimeoutMs?: number;
  /** Run rules marked `realmWide` (default: only against the embedded server). */
  readonly allowRealmWrites?: boolean;
  /** Create throwaway users (default: only against the embedded server; elsewhere needs `throwawayEmailDomain`). */
  readonly allowUserCreation?: boolean;
  /** The email domain of users the run creates (`example.org`); required with `allowUserCreation` on a URL target. */
  readonly throwawayEmailDomain?: string;
  /** Fail the run when a rule is skipped for a missing identity or capability (level skips never fail). */
  readonly failOnSkip?: boolean;
  /** Aborted (reason `'SIGINT'` or `'SIGTERM'`) to stop the run: the rest is skipped, cleanups still run. */
  readonly interrupt?: AbortSignal;
}

/** Checks the opt-ins: user creation on a real deployment needs a domain the operator names. */
function userCreationSettings(kind: Target['kind'], options: RunOptions): { allowed: boolean; domain: string | undefined } {
  const allowed = options.allowUserCreation ?? kind === 'embedded';
  const domain = options.throwawayEmailDomain?.trim().replace(/^@/, '') || undefined;
  if (domain !== undefined && !/^[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/.test(domain)) throw new UsageError(`--throwaway-email-domain: expected a domain such as example.org, got '${options.throwawayEmailDomain}'`);
  if (allowed && kind === 'url' && domain === undefined) {
    throw new UsageError('--allow-user-creation needs --throwaway-email-domain DOMAIN (created users get addresses at that domain, never at the administrator\'s)');
  }
  return { allowed, domain };
}

/** Why nothing was selected, naming the filters that were given. */
function emptySelectionMessage(selection: Selection): string {
  const filters = [
    ...(selection.only ?? []).map((glob) => `--only ${glob}`),
    ...(selection.skip ?? []).map((glob) => `--skip ${glob}`),
    ...(selection.endpoints ?? []).map((pattern) => `--endpoint '${pattern}'`),
    ...(selection.readOnly ? ['--read-only'] : []),
    ...(selection.shard ? [`--shard ${selection.shard.index}/${selection.shard.total}`] : []),
  ];
  return `no rule matches the selection${filters.length > 0 ? ` (${filters.join(', ')})` : ''}; --list shows the rule ids`;
}

function positiveInteger(value: number | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`${flag}: expected a positive integer, got ${value}`);
  return value;
}

export async function runRules(target: Target, options: RunOptions = {}): Promise<SuiteResult> {
  const started = Date.now();
  const numRuns = positiveInteger(options.numRuns, DEFAULT_NUM_RUNS, '--num-runs');
  const timeoutMs = positiveInteger(options.timeoutMs, DEFAULT_TIMEOUT_MS, '--timeout');
  const seed = options.seed ?? randomSeed();
  if (!Number.isInteger(seed)) throw new UsageError(`--seed: expected an integer, got ${seed}`);
  const replay = options.replay === undefined ? undefined : parseReplay(options.replay);
  const rules = options.rules ?? allRules();
  validateRules(rules);
  const selected = selectRules(rules, options);
  // An explicitly empty rule list is the caller's choice; filters that leave nothing are a mistake.
  if (selected.length === 0 && rules.length > 0) throw new UsageError(emptySelectionMessage(options));
  if (replay && selected.length !== 1) {
    throw new UsageError(`--replay re-runs one counterexample of one rule: select exactly one rule with --only (selected ${selected.length})`);
  }

  const creation = userCreationSettings(target.kind, options);
  const realmWrites = options.allowRealmWrites ?? target.kind === 'embedded';
  const requestTimeoutMs = positiveInteger(options.requestTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS, '--request-timeout');
  const info = await discover(target, { requestTimeoutMs, ...(options.featureLevel === undefined ? {} : { featureLevel: options.featureLevel }) });
  const setupTranscript = new Transcript(50);
  const waits = new RateLimitWaits(options.rateLimitSleep);
  const onRateLimitWait = options.listener?.onRateLimitWait?.bind(options.listener);
  const anonymous = new ApiClient({
    baseUrl: target.baseUrl,
    dispatcher: target.dispatcher,
    transcript: setupTranscript,
    requestTimeoutMs,
    waits,
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    ...(onRateLimitWait ? { onRateLimited: (waitMs: number, url: string) => onRateLimitWait({ waitMs, url, during: 'run' }) } : {}),
  });
  const { pool, warnings } = await resolveIdentities(anonymous, target, info, options.credentials ?? {});
  const runTag = newRunTag();
  const runCleanups = new CleanupRegistry();
  const admin = pool.get('admin');
  const throwaway = new ThrowawayUsers({
    admin: admin ? anonymous.withCredentials(admin.email, admin.apiKey) : undefined,
    adminEmail: admin?.email,
    anonymous,
    info,
    runTag,
    allowed: creation.allowed,
    emailDomain: creation.domain,
    registerCleanup: (label, fn) => runCleanups.add(label, fn),
  });
  let names = 0;
  const env: RunEnvironment = {
    target,
    info,
    pool,
    runTag,
    properties: { seed, numRuns, ...(replay ? { replay } : {}) },
    strictDocs: options.strictDocs ?? false,
    throwaway,
    runCleanups,
    requestTimeoutMs,
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    waits,
    ...(onRateLimitWait ? { onRateLimitWait } : {}),
    nextNameNumber: () => ++names,
    shared: new Map(),
    sharedSetup: new Map(),
  };
  const summary: TargetSummary = {
    kind: info.kind,
    baseUrl: info.baseUrl,
    featureLevel: info.featureLevel,
    discoveredFeatureLevel: info.discoveredFeatureLevel,
    zulipVersion: info.zulipVersion,
  };
  if (pool.identities.length === 0) warnings.push('no credentials: rules that need an authenticated user are skipped');
  options.listener?.onStart?.({ target: summary, seed, numRuns, runTag, total: selected.length, rules: selected, identities: pool.describe(), warnings });

  const needs = new NeedChecker(info, pool, throwaway, anonymous, realmWrites);
  const interrupt = options.interrupt;
  const settings = { timeoutMs, cleanupTimeoutMs: options.cleanupTimeoutMs ?? 30_000, invocation: options.invocation ?? ['chat-conformance'], ...(interrupt ? { interrupt } : {}) };
  const results: RuleResult[] = [];
  let bailed = false;
  for (const [index, rule] of selected.entries()) {
    options.listener?.onRuleStart?.(rule, index + 1, selected.length);
    const unmet = interrupt?.aborted
      ? { reason: `not run: interrupted by ${String(interrupt.reason)}`, cause: 'interrupted' }
      : bailed
        ? { reason: 'not run: --bail after a failure', cause: 'bail' }
        : await needs.unmet(rule);
    const result = unmet === undefined ? await runRule(env, rule, settings) : skippedResult(rule, unmet.reason, unmet.cause);
    results.push(result);
    if (result.outcome === 'failed' && options.bail) bailed = true;
    options.listener?.onRuleEnd?.(result, index + 1, selected.length);
  }

  const cleanupAbort = new AbortController();
  const cleanupContext = makeCleanupContext(env, setupTranscript, cleanupAbort.signal, { note: (message) => void warnings.push(message) });
  const runCleanupErrors = await runCleanups.runAll(cleanupContext, settings.cleanupTimeoutMs, waits);
  cleanupAbort.abort(new Error('cleanup phase over'));
  const counts = countOutcomes(results);
  const coverage = computeCoverage(pool, capabilityStates(info, realmWrites, options, throwaway), results);
  const leftChanged = [...results.flatMap((result) => result.cleanupErrors.map((error) => `${result.id}: ${error}`)), ...runCleanupErrors.map((error) => `run: ${error}`)];
  const failedOnSkip = (options.failOnSkip ?? false) && coverage.skippedForMissing > 0;
  const interruptedBy = interrupt?.aborted ? (String(interrupt.reason) === 'SIGTERM' ? 'SIGTERM' : 'SIGINT') : undefined;
  return {
    target: summary,
    seed,
    numRuns,
    runTag,
    strictDocs: env.strictDocs,
    ...(options.replay === undefined ? {} : { replay: options.replay }),
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    identities: pool.describe(),
    warnings,
    results,
    coverage,
    leftChanged,
    rateLimited: waits.totals(),
    ...(interruptedBy ? { interrupted: interruptedBy } : {}),
    failedOnSkip,
    counts,
    ok: counts.failed === 0 && leftChanged.length === 0 && !failedOnSkip && interruptedBy === undefined,
  };
}
