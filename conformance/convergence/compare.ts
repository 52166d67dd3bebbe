/**
 * Compares a replayed state with a fresh register, part by part (normalize.ts), and says where
 * they differ. The initial register tells whether something outside the run changed a part
 * meanwhile: then only the run's own objects of that part are compared, and a note says so.
 */
import { differences, type Difference } from './norm.js';
import { ruleFor, type Scope, VOLATILE_KEYS } from './normalize.js';
import type { State } from './types.js';

export interface Divergence extends Difference {
  /** The register key the difference is under. */
  readonly key: string;
  /** In the run's own objects, in the rest of that part, or in totals over both. */
  readonly part: 'own' | 'foreign' | 'derived';
}

export interface Comparison {
  readonly divergences: readonly Divergence[];
  /** What was not compared, and why (other traffic, a deleted newest message). */
  readonly notes: readonly string[];
}

export interface CompareInput {
  readonly initial: State;
  readonly fresh: State;
  readonly replayed: State;
  readonly scope: Scope;
  /** Message IDs the events deleted. */
  readonly deleted: ReadonlySet<number>;
}

/** The comparable own and foreign parts of `key` in `state`. */
export function partsOf(state: State, key: string, scope: Scope): { own: unknown; foreign: unknown; derived: unknown } {
  const rule = ruleFor(key);
  if (!rule) return { own: state[key], foreign: undefined, derived: undefined };
  const split = rule.split(state[key], scope);
  return { own: split.own, foreign: split.foreign, derived: split.derived };
}

/**
 * `max_message_id`: the newest message the client has. After a deletion of that message only
 * the server knows the one before it; a newer message the run did not send is other traffic.
 */
function maxMessageId(input: CompareInput, notes: string[]): Divergence[] {
  const expected = input.fresh.max_message_id;
  const received = input.replayed.max_message_id;
  if (expected === received || typeof expected !== 'number' || typeof received !== 'number') {
    return expected === received ? [] : [{ key: 'max_message_id', part: 'own', steps: [], expected, received }];
  }
  if (received > expected && input.deleted.has(received)) {
    notes.push('max_message_id not compared after the newest message was deleted: only a fresh register knows the newest one left');
    return [];
  }
  if (expected > received && !input.scope.messageIds.has(expected)) {
    notes.push('max_message_id not compared: a newer message than any the run knows of is other traffic');
    return [];
  }
  return [{ key: 'max_message_id', part: 'own', steps: [], expected, received }];
}

export function compareStates(input: CompareInput): Comparison {
  const { initial, fresh, replayed, scope } = input;
  const notes: string[] = [];
  const divergences: Divergence[] = [];
  const keys = [...new Set([...Object.keys(fresh), ...Object.keys(replayed)])].filter((key) => !VOLATILE_KEYS.has(key));
  for (const key of keys) {
    if (key === 'max_message_id') {
      divergences.push(...maxMessageId(input, notes));
      continue;
    }
    const expected = partsOf(fresh, key, scope);
    const received = partsOf(replayed, key, scope);
    divergences.push(...differences(expected.own, received.own).map((d) => ({ ...d, key, part: 'own' as const })));
    if (expected.foreign === undefined && received.foreign === undefined) continue;
    const before = partsOf(initial, key, scope).foreign;
    if (differences(before, expected.foreign).length > 0) {
      notes.push(`${key}: only the run's own objects compared (something outside the run changed the rest during the run)`);
      continue;
    }
    divergences.push(...differences(expected.foreign, received.foreign).map((d) => ({ ...d, key, part: 'foreign' as const })));
    divergences.push(...differences(expected.derived, received.derived).map((d) => ({ ...d, key, part: 'derived' as const })));
  }
  return { divergences, notes };
}
