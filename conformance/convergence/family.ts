/**
 * A family of actions the convergence check runs: what its observers register for, the fixture
 * its rule sets up once, how it generates and performs actions, and which objects are the run's.
 */
import type fc from 'fast-check';
import type { ApiClient } from '../client/api-client.js';
import type { IdentityName } from '../credentials/types.js';
import type { FeatureRange, Need, RuleContext } from '../rules/types.js';

/** What the run owns, as the family knows it (message IDs it sent included). */
export interface Owned {
  readonly channelIds: readonly number[];
  readonly groupIds: readonly number[];
  readonly userIds: readonly number[];
  readonly messageIds: readonly number[];
}

export interface Family<F, A> {
  /** Rule id and title. */
  readonly id: string;
  readonly title: string;
  /** The real server's documentation the rule checks against. */
  readonly section: string;
  readonly levels: FeatureRange;
  readonly needs: readonly Need[];
  /** Identities that register a queue and have their state compared. */
  readonly observers: readonly IdentityName[];
  /** Event types the queues take (the marker's `drafts` is added) and state types fetched. */
  eventTypes(level: number): readonly string[];
  fetchTypes(level: number): readonly string[];
  readonly includeSubscribers: boolean;
  /** Upper bound on sequences (each costs every observer about ten requests). */
  readonly maxRuns: number;
  setup(ctx: RuleContext): Promise<F>;
  /**
   * The kinds of action, each with the most actions of that kind one sequence has (`weight`). A
   * sequence draws up to that many of every kind, in a random order: each sequence costs every
   * observer about ten requests whatever its length, so every sequence tries every kind.
   */
  kinds(fixture: F, level: number): ReadonlyArray<fc.WeightedArbitrary<A>>;
  /** Performs one action; answers one line for the report (what was done, or why it was not). */
  perform(ctx: RuleContext, fixture: F, action: A): Promise<string>;
  /**
   * Undoes what earlier sequences left changed. Runs at the start of each sequence (so the undoing
   * is checked too, and a missing event of a change is not hidden by its undoing in the same
   * window), where it may leave private objects for later sequences to act on, and with `final`
   * when the rule ends, where it undoes everything.
   */
  restore?(as: (who: IdentityName) => ApiClient, fixture: F, final: boolean): Promise<string[]>;
  owned(ctx: RuleContext, fixture: F): Owned;
}

/** Sequences per rule at most: six sequences with every kind of action each, within the budget. */
export const MAX_SEQUENCES = 6;

/** Queues that take and fetch the same types, without subscriber lists. */
export function fetching(types: readonly string[]): Pick<Family<unknown, unknown>, 'eventTypes' | 'fetchTypes' | 'includeSubscribers'> {
  return { eventTypes: () => types, fetchTypes: () => types, includeSubscribers: false };
}
