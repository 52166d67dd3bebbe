/** What a run produces: one result per selected rule, and the run's summary. Reporters read these. */
import type { Exchange } from './client/exchange.js';
import type { RecordedCheck } from './expect/recorded-check.js';

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
  /**
   * The exchanges that made the shared fixtures (`ctx.runShared`) this rule used but another rule
   * made, oldest first: reproductions replay them before `reproduction`. Absent when there are none.
   */
  readonly sharedSetup?: readonly Exchange[];
  /** The same exchanges as curl commands, each followed by a `# -> answer` line. */
  readonly curl: readonly string[];
  /** The command that re-runs this rule (and, for a property, exactly its counterexample). */
  readonly replayCommand: string;
  readonly stack?: string;
  /** What the failing assertion checked (absent for timeouts and errors thrown by the rule). */
  readonly check?: RecordedCheck;
  /**
   * Users the run created for this rule (`ctx.throwawayUser()`, possibly before the case's first
   * exchange): a reproduction creates its own instead, as `createdBy` (an administrator) did.
   */
  readonly throwawayUsers?: readonly ThrowawayUserRecord[];
}

export interface ThrowawayUserRecord {
  readonly email: string;
  readonly userId: number;
  readonly fullName: string;
  /** Its password (redacted in reports like every credential): a reproduction sends its own user's instead. */
  readonly password: string;
  /** The administrator who created it, and its API key (redacted unless --show-credentials). */
  readonly createdBy: string;
  readonly createdByApiKey: string;
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
  /**
   * What the run lacked, for skips the runner decided: an identity (`owner`), a capability
   * (`throwaway-user`, `realm-writes`, ...), `level` (outside the rule's feature levels) or
   * `bail`/`interrupted`. Absent for a skip the rule itself decided (no suitable data).
   */
  readonly skipCause?: string;
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
  /** Which identities and capabilities the run had, and how many rules each missing one skipped. */
  readonly coverage: Coverage;
  /**
   * Cleanups that failed (rule and run level): state the run left changed on the target, named.
   * Any entry fails the run.
   */
  readonly leftChanged: readonly string[];
  /**
   * The run's waits for the target's rate limit (429 with `Retry-After`): how many, and the time
   * they asked for in all (overlapping waits each counted). No deadline counts them.
   */
  readonly rateLimited: { readonly waits: number; readonly waitedMs: number };
  /** The signal that interrupted the run (rules after it were not run; cleanups still ran). */
  readonly interrupted?: 'SIGINT' | 'SIGTERM';
  /** True with `--fail-on-skip` and at least one rule skipped for a missing identity or capability. */
  readonly failedOnSkip: boolean;
  readonly counts: { readonly total: number; readonly passed: number; readonly failed: number; readonly skipped: number };
  /** True when no rule failed, every cleanup succeeded, the run was not interrupted and no skip failed it. */
  readonly ok: boolean;
}

/** One identity or capability: whether the run had it, and the rules skipped for its lack. */
export interface CoverageEntry {
  /** `owner`, `admin`, `moderator`, `member`, `second-member`, `guest`, `throwaway-user`, `realm-writes`, ... */
  readonly name: string;
  readonly kind: 'identity' | 'capability';
  readonly available: boolean;
  /** Who fills an identity, or why a capability is missing. */
  readonly detail?: string;
  /** Rules skipped because this was missing (the first missing need of each rule counts). */
  readonly skippedRules: number;
}

export interface Coverage {
  readonly entries: readonly CoverageEntry[];
  /** Rules skipped for a missing identity or capability (what `--fail-on-skip` fails on). */
  readonly skippedForMissing: number;
  /** Rules skipped because their feature levels exclude the target (never a failure). */
  readonly skippedForLevel: number;
}

export function countOutcomes(results: readonly RuleResult[]): SuiteResult['counts'] {
  const count = (outcome: Outcome) => results.filter((result) => result.outcome === outcome).length;
  return { total: results.length, passed: count('passed'), failed: count('failed'), skipped: count('skipped') };
}
