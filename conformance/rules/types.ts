/**
 * The rule API. A rule is one checkable statement of the description ("any set of unknown
 * parameter names is reported exactly in ignored_parameters_unsupported"), run against a target
 * through a `RuleContext`. See conformance/README.md for a walkthrough.
 */
import type fc from 'fast-check';
import type { CleanupFn } from '../cleanup.js';
import type { ApiClient } from '../client/api-client.js';
import type { Identity, IdentityName, Need } from '../credentials/types.js';
import type { DeviationId } from '../deviations.js';
import type { TargetInfo } from '../targets/target.js';

export type { Capability, Need } from '../credentials/types.js';

/** Inclusive feature-level range; a missing bound is open. */
export interface FeatureRange {
  readonly min?: number;
  readonly max?: number;
}

export interface Rule {
  /** Stable id, `<resource>/<behaviour>` in kebab case: `subscribe/principals-omitted-subscribes-requester`. */
  readonly id: string;
  /** The behaviour as a sentence (shown in reports). */
  readonly title: string;
  /**
   * The endpoints the rule checks, `METHOD /path` with the route's placeholder names
   * (`POST /users/me/subscriptions`, `DELETE /drafts/{draft_id}`), several separated by `, ` where a
   * method alone shares the next path (`GET, POST /drafts, DELETE /drafts/{draft_id}`) and a path
   * alone means every method (conformance/endpoint-patterns.ts reads it); or `*` for conventions of
   * every endpoint. docs/endpoints.md lists the rules of each endpoint from it.
   */
  readonly endpoint: string;
  /** The section of the description enforced: `4.1 rule 1`, `1 convention 4`, `5.4`. */
  readonly section: string;
  /** Feature levels the rule applies to; outside it the rule is skipped with the reason. */
  readonly levels?: FeatureRange;
  /** True when the rule changes server state (`--read-only` leaves it out). */
  readonly writes: boolean;
  /**
   * True when the rule changes what every member inherits (realm user-settings defaults, `PATCH
   * /realm` settings, linkifiers and their order, default channels), even if it restores them:
   * skipped unless the run allows realm-wide writes (`--allow-realm-writes`; on by default
   * against the embedded server only).
   */
  readonly realmWide?: boolean;
  /** Identities and capabilities; the rule is skipped (with the reason) when one is missing. */
  readonly needs?: readonly Need[];
  /**
   * Identities that read back what the rule did when the run has them (the first one present),
   * so that the busiest identity's requests go to a quieter one; `ctx.reader(fallback)` gives its
   * client. Not needs: without any of them the fallback reads. List only identities the real
   * server shows the same data as the fallback.
   */
  readonly readers?: readonly IdentityName[];
  /** The known deviation this rule may observe (conformance/deviations.ts). */
  readonly deviation?: DeviationId;
  readonly run: (ctx: RuleContext) => Promise<void>;
}

export interface PropertyOptions {
  /** Upper bound on runs for this property (rate-limited endpoints); the run's `--num-runs` otherwise. */
  readonly maxRuns?: number;
  /**
   * Names of the generated values, in order, for labelled counterexamples. Without them, a name
   * such as "files x delete order" labels its values by its ` x `-separated parts.
   */
  readonly labels?: readonly string[];
}

/** fast-check settings of the run. */
export interface PropertySettings {
  /** The run's seed (`--seed`); each property derives its own from it. */
  readonly seed: number;
  readonly numRuns: number;
  /** Set when replaying one counterexample (`--replay`). */
  readonly replay?: { readonly seed: number; readonly propertyIndex: number; readonly path: string };
}

export interface ThrowawayUser {
  readonly identity: Identity;
  /** The password the user was created with (for password login, `fetch_api_key`). */
  readonly password: string;
  readonly client: ApiClient;
}

export interface RuleContext {
  readonly rule: Rule;
  readonly target: TargetInfo;
  /** The level the rule runs against (`--feature-level`, else the discovered one). */
  readonly featureLevel: number;
  /** Unique prefix for this run (`conf-k3x9q2`): every object the run creates carries it. */
  readonly runTag: string;
  readonly properties: PropertySettings;
  /** Aborted when the rule times out; clients of the context already use it. */
  readonly signal: AbortSignal;
  /** True with `--strict-docs` (then `deviation()` fails the rule). */
  readonly strictDocs: boolean;

  /** A client authenticated as the identity; the rule must list it in `needs`. */
  as(who: IdentityName | 'user'): ApiClient;
  /** A client of the first of the rule's `readers` the run has, else of `fallback` (listed in `needs`). */
  reader(fallback: IdentityName | 'user'): ApiClient;
  /** The identity itself (email, user id, role); the rule must list it in `needs`. */
  identity(who: IdentityName | 'user'): Identity;
  /** Every identity the run has (for "is each of ours listed" checks). */
  readonly identities: readonly Identity[];
  /** A client without credentials (use `.withAuthorization(...)` for hand-made headers). */
  readonly anonymous: ApiClient;
  /** A user created for this rule alone (needs `throwaway-user`); deactivated when the run ends. */
  throwawayUser(): Promise<ThrowawayUser>;

  /**
   * A fixture made once per run by the first rule that asks (`create` runs in that rule's context;
   * its cleanups must be run-scoped) and reused by later rules, such as the one run channel
   * rules post to when they need no channel of their own. A failed creation is retried by the next rule.
   */
  runShared<T>(key: string, create: () => Promise<T>): Promise<T>;

  /** A unique name carrying the run tag: `name('group')` gives `conf-k3x9q2-group-1`. */
  name(label: string): string;

  /**
   * Runs a fast-check property with the run's seed and `--num-runs`; on failure captures the
   * shrunk counterexample, its seed and path, and its HTTP exchanges, and fails the rule.
   */
  property<Ts extends [unknown, ...unknown[]]>(
    name: string,
    arbitraries: { [K in keyof Ts]: fc.Arbitrary<Ts[K]> },
    predicate: (...args: Ts) => Promise<boolean | void>,
    options?: PropertyOptions,
  ): Promise<void>;
  /** The same for a property built with `fc.asyncProperty` (hooks, `fc.pre`, ...). */
  assert<Ts>(name: string, property: fc.IAsyncProperty<Ts>, options?: PropertyOptions): Promise<void>;

  /** Registers a cleanup (LIFO). `rule` scope runs after this rule; `run` scope after the whole run. */
  cleanup(label: string, fn: CleanupFn, options?: { readonly scope?: 'rule' | 'run' }): void;
  /** Records that the target showed the real server's behaviour for a known deviation. */
  deviation(id: DeviationId, detail: string): void;
  /** A note shown with the result (not a failure). */
  note(message: string): void;
  /**
   * Ends the rule as skipped (the target cannot exercise it, e.g. no suitable data). `missing`
   * names the identity or capability the run lacked, when that is why (counted in the coverage).
   */
  skip(reason: string, missing?: string): never;
}
