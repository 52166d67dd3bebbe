/** What a run produces: one result per selected rule, and the run's summary. Reporters read these. */
import type { Exchange } from './client/exchange.js';

export type Outcome = 'passed' | 'failed' | 'skipped';

export interface PropertyFailureInfo {
  /** The property's name as the rule gave it. */
  readonly name: string;
  /** Position of the property in the rule, 1-based. */
  readonly index: number;
  /** The seed this property ran with (derived from the run's seed, the rule id and the index). */
  readonly seed: number;
  /** fast-check's path to the shrunk counterexample. */
  readonly path: string;
  /** The shrunk counterexample, rendered by `fc.stringify`. */
  readonly counterexample: string;
  /** Each generated value of the counterexample with its label (`files: [...]`, or `value 1: ...`). */
  readonly labelledValues: readonly string[];
  readonly numRuns: number;
  readonly numShrinks: number;
  /** The `--replay` value that re-runs exactly this counterexample. */
  readonly replay: string;
  /** Whether re-running the counterexample failed again (false: the failure is flaky). */
  readonly reproduced: boolean;
}

export interface FailureInfo {
  readonly kind: 'assertion' | 'property' | 'timeout' | 'error';
  readonly message: string;
  readonly property?: PropertyFailureInfo;
  /** The exchanges of the failing attempt (for a property: of the shrunk counterexample). */
  readonly exchanges: readonly Exchange[];
  /**
   * Every exchange of the failing case, its setup included, oldest first: for a property, what the
   * rule sent before the property plus the counterexample's exchanges; otherwise the rule's whole
   * transcript. Reproduction scripts and HAR files are made from these.
   */
  readonly reproduction: readonly Exchange[];
  /** The same exchanges as curl commands, each followed by a `# -> answer` line. */
  readonly curl: readonly string[];
  /** The command that re-runs this rule (and, for a property, exactly its counterexample). */
  readonly replayCommand: string;
  readonly stack?: string;
}

export interface DeviationRecord {
  readonly id: string;
  readonly section: string;
  readonly detail: string;
  readonly documented: string;
  readonly real: string;
}

export interface RuleResult {
  readonly id: string;
  readonly title: string;
  readonly endpoint: string;
  readonly section: string;
  readonly levels: { readonly min?: number; readonly max?: number };
  readonly writes: boolean;
  readonly outcome: Outcome;
  readonly durationMs: number;
  readonly skipReason?: string;
  readonly failure?: FailureInfo;
  readonly deviations: readonly DeviationRecord[];
  readonly notes: readonly string[];
  /** Cleanups of this rule that failed (state may have been left behind). */
  readonly cleanupErrors: readonly string[];
  /** Requests the rule sent. */
  readonly requests: number;
}

export interface TargetSummary {
  readonly kind: 'embedded' | 'url';
  readonly baseUrl: string;
  readonly featureLevel: number;
  readonly discoveredFeatureLevel: number;
  readonly zulipVersion: string | undefined;
}

export interface SuiteResult {
  readonly target: TargetSummary;
  readonly seed: number;
  readonly numRuns: number;
  readonly runTag: string;
  readonly strictDocs: boolean;
  readonly replay?: string;
  readonly startedAt: string;
  readonly durationMs: number;
  /** The identities used ("admin: iago@zulip.com (user 11, admin, dev-bootstrap)"). */
  readonly identities: readonly string[];
  readonly warnings: readonly string[];
  readonly results: readonly RuleResult[];
  readonly counts: { readonly total: number; readonly passed: number; readonly failed: number; readonly skipped: number };
  /** True when no rule failed. */
  readonly ok: boolean;
}

export function countOutcomes(results: readonly RuleResult[]): SuiteResult['counts'] {
  const count = (outcome: Outcome) => results.filter((result) => result.outcome === outcome).length;
  return { total: results.length, passed: count('passed'), failed: count('failed'), skipped: count('skipped') };
}
