/**
 * Runs one rule: the context, the per-rule timeout (which aborts the rule's requests), failure
 * classification with its exchanges and replay command, then the rule's cleanups (LIFO, always).
 */
import { shellQuote, exchangeToText } from './client/curl.js';
import type { Exchange } from './client/exchange.js';
import { RuleScope, type RunEnvironment } from './context.js';
import { RuleFailure, RuleSkip } from './errors.js';
import { locateValue, type RecordedCheck } from './expect/recorded-check.js';
import { PropertyFailure } from './property.js';
import type { FailureInfo, RuleResult } from './results.js';
import type { Rule } from './rules/types.js';

export class RuleTimeout extends Error {
  override readonly name = 'RuleTimeout';
}

export interface RuleRunSettings {
  readonly timeoutMs: number;
  readonly cleanupTimeoutMs: number;
  /** The command (argv) that reaches this target again; the replay command extends it. */
  readonly invocation: readonly string[];
  /** Aborted on SIGINT/SIGTERM: the running rule stops (its cleanups still run) and counts as skipped. */
  readonly interrupt?: AbortSignal;
}

/** The reason an interrupted rule reports; the signal's name is the abort reason. */
class RuleInterrupted extends Error {
  override readonly name = 'RuleInterrupted';
}

const SHOWN_EXCHANGES = 8;

function quoteArg(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(arg) ? arg : shellQuote(arg);
}

export function replayCommand(env: RunEnvironment, settings: RuleRunSettings, rule: Rule, replay?: string): string {
  const args = [...settings.invocation, '--only', rule.id, '--seed', String(env.properties.seed), '--num-runs', String(env.properties.numRuns)];
  if (replay !== undefined) args.push('--replay', replay);
  return args.map(quoteArg).join(' ');
}

/**
 * The failing assertion's check. One made without a reply (a value the rule read earlier) is
 * looked for in the last answer, which is usually the read it came from.
 */
function recordedCheck(error: unknown, transcript: RuleScope['transcript']): RecordedCheck | undefined {
  const failure = error instanceof PropertyFailure ? error.cause : error;
  if (!(failure instanceof RuleFailure) || !failure.check) return undefined;
  const { check, checkedValue } = failure;
  const last = transcript.last(1)[0];
  if (check.exchange !== undefined || !checkedValue || !last) return check;
  let body: unknown;
  try {
    body = JSON.parse(last.responseBody) as unknown;
  } catch {
    return check;
  }
  const path = locateValue(body, checkedValue.value, checkedValue.label);
  return path === undefined ? check : { ...check, path, exchange: last.seq };
}

function failureInfo(error: unknown, scope: RuleScope, env: RunEnvironment, settings: RuleRunSettings): FailureInfo {
  let exchanges: readonly Exchange[] = scope.transcript.last(SHOWN_EXCHANGES);
  // Passing property runs are not part of the failing case: replay only what the rule sent outside them.
  let reproduction: readonly Exchange[] = scope.properties.outsideProperties();
  const check = recordedCheck(error, scope.transcript);
  const withCurl = (info: Omit<FailureInfo, 'curl' | 'exchanges' | 'reproduction'>): FailureInfo => ({
    ...info,
    exchanges,
    reproduction,
    curl: exchanges.map(exchangeToText),
    ...(check ? { check } : {}),
    ...(scope.throwawayUsers.length > 0 ? { throwawayUsers: scope.throwawayUsers } : {}),
    ...(scope.sharedSetup.length > 0 ? { sharedSetup: scope.sharedSetup } : {}),
  });
  if (error instanceof PropertyFailure) {
    if (error.exchanges.length > 0) exchanges = error.exchanges.slice(-SHOWN_EXCHANGES);
    reproduction = [...error.setup, ...error.exchanges];
    return withCurl({ kind: 'property', message: error.message, property: error.property, replayCommand: replayCommand(env, settings, scope.rule, error.property.replay) });
  }
  const replay = replayCommand(env, settings, scope.rule);
  if (error instanceof RuleTimeout) return withCurl({ kind: 'timeout', message: error.message, replayCommand: replay });
  if (error instanceof RuleFailure) {
    const failing = error.exchange;
    if (failing && !exchanges.some((exchange) => exchange.seq === failing.seq)) exchanges = [...exchanges.slice(1), failing];
    return withCurl({ kind: 'assertion', message: error.message, replayCommand: replay });
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return withCurl({ kind: 'error', message, replayCommand: replay, ...(error instanceof Error && error.stack ? { stack: error.stack } : {}) });
}

export async function runRule(env: RunEnvironment, rule: Rule, settings: RuleRunSettings): Promise<RuleResult> {
  const scope = new RuleScope(env, rule);
  const started = performance.now();
  // The rule's time limit does not count waits for the target's rate limit (see rate-limit-waits.ts).
  const deadline = env.waits.deadline(settings.timeoutMs);
  let stopDeadline: () => void = () => undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    stopDeadline = deadline.whenPassed(() => {
      const error = new RuleTimeout(`timed out after ${settings.timeoutMs} ms (--timeout; rate-limit waits not counted)`);
      scope.controller.abort(error);
      reject(error);
    });
  });
  let onInterrupt: (() => void) | undefined;
  const interrupted = new Promise<never>((_resolve, reject) => {
    const signal = settings.interrupt;
    if (!signal) return;
    onInterrupt = () => {
      const error = new RuleInterrupted(`interrupted by ${String(signal.reason)} while running`);
      scope.controller.abort(error);
      reject(error);
    };
    if (signal.aborted) onInterrupt();
    else signal.addEventListener('abort', onInterrupt, { once: true });
  });
  interrupted.catch(() => undefined);
  const running = Promise.resolve().then(() => rule.run(scope.ctx));
  running.catch(() => undefined); // a rule still running after its timeout must not crash the run
  let outcome: RuleResult['outcome'] = 'passed';
  let failure: FailureInfo | undefined;
  let skipReason: string | undefined;
  let skipCause: string | undefined;
  try {
    await Promise.race([running, timedOut, interrupted]);
  } catch (error) {
    if (error instanceof RuleInterrupted) {
      outcome = 'skipped';
      skipReason = error.message;
      skipCause = 'interrupted';
    } else if (error instanceof RuleSkip) {
      outcome = 'skipped';
      skipReason = error.message;
      skipCause = error.missing;
    } else {
      outcome = 'failed';
      // Give aborted requests a moment to settle, so their exchanges appear in the report.
      if (error instanceof RuleTimeout) await Promise.race([running.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 50))]);
      failure = failureInfo(error, scope, env, settings);
    }
  } finally {
    stopDeadline();
    if (onInterrupt) settings.interrupt?.removeEventListener('abort', onInterrupt);
  }
  const cleanupAbort = new AbortController();
  const cleanupErrors = await scope.cleanups.runAll(scope.cleanupContext(cleanupAbort.signal), settings.cleanupTimeoutMs, env.waits);
  cleanupAbort.abort(new Error('cleanup phase over'));
  return {
    ...ruleIdentity(rule),
    outcome,
    durationMs: Math.round(performance.now() - started),
    ...(skipReason === undefined ? {} : { skipReason }),
    ...(skipCause === undefined ? {} : { skipCause }),
    ...(failure ? { failure } : {}),
    deviations: scope.deviations,
    notes: scope.notes,
    cleanupErrors,
    requests: scope.transcript.size,
  };
}

/** The fields of a result that describe the rule itself (in report order). */
function ruleIdentity(rule: Rule): Pick<RuleResult, 'id' | 'title' | 'endpoint' | 'section' | 'levels' | 'writes'> {
  return { id: rule.id, title: rule.title, endpoint: rule.endpoint, section: rule.section, levels: rule.levels ?? {}, writes: rule.writes };
}

/** A result for a rule that was not run. */
export function skippedResult(rule: Rule, reason: string, cause: string): RuleResult {
  return {
    ...ruleIdentity(rule),
    outcome: 'skipped',
    durationMs: 0,
    skipReason: reason,
    skipCause: cause,
    deviations: [],
    notes: [],
    cleanupErrors: [],
    requests: 0,
  };
}
