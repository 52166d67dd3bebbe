/**
 * What the convergence check passes around: a client's state (a `POST /register` answer, copied
 * and changed by events), the events a queue delivered, and who the client is.
 */

/** A mutable JSON object (a copy of a register answer, or a part of it). */
export type State = Record<string, unknown>;

/** One event as `GET /events` delivered it. */
export type QueueEvent = Readonly<Record<string, unknown>> & { readonly type: string; readonly id: number };

/** The client the state belongs to, as a reducer needs to know it. */
export interface ClientView {
  readonly userId: number;
  /** The target's feature level (event shapes change with it). */
  readonly featureLevel: number;
  /** The `client_capabilities` the client registered with. */
  readonly capabilities: Readonly<Record<string, boolean>>;
  /** Whether the client asked for subscriber lists (`include_subscribers`). */
  readonly includeSubscribers: boolean;
}

/**
 * Something an event said that the client's own state contradicts (an `update_message` whose
 * `orig_subject` is not where the client has the message, a draft update for a draft it never
 * heard of): reported like a divergence, naming the event.
 */
export interface Inconsistency {
  /** Where in the state the contradiction sits (`unread_msgs.streams`, `drafts`). */
  readonly path: string;
  /** What the client's state says. */
  readonly expected: unknown;
  /** What the event says. */
  readonly received: unknown;
  readonly why: string;
}

/** A list in the state, or undefined when the client did not fetch it. */
export function listIn(state: State, key: string): State[] | undefined {
  const value = state[key];
  return Array.isArray(value) ? (value as State[]) : undefined;
}

/** An object in the state, or undefined. */
export function objectIn(state: State, key: string): State | undefined {
  const value = state[key];
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as State) : undefined;
}

/** Numbers of a list field (`[]` when absent or not numbers). */
export function idsIn(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((x): x is number => typeof x === 'number') : [];
}

export const ascending = (ids: Iterable<number>): number[] => [...new Set(ids)].sort((a, b) => a - b);
