/**
 * The reducer registry of the events-convergence harness: how a client folds each event type
 * into the state `POST /register` gave it. Reducers live next to this file, one small module
 * per area, and register themselves with `defineReducer`.
 */

export type State = Record<string, unknown>;
export type ApiEvent = Record<string, unknown> & { readonly type: string; readonly id: number };
/** Who the client is (reducers need it, e.g. to drop the user from a channel it left). */
export interface ReducerContext {
  readonly userId: number;
  /** The client_capabilities the client registered with. */
  readonly capabilities: Readonly<Record<string, boolean>>;
}
export type Reducer = (state: State, event: ApiEvent, context: ReducerContext) => void;

/** An event the harness cannot apply: no reducer, or an op the reducer does not know. */
export class UnmodelledEvent extends Error {}

const REDUCERS = new Map<string, Reducer>();

/** Registers how a client applies events of `type` to its register state. */
export function defineReducer(type: string, reducer: Reducer): void {
  REDUCERS.set(type, reducer);
}

export function reducerFor(type: string): Reducer | undefined {
  return REDUCERS.get(type);
}

/** Throws for an op the reducer does not model, so a new op cannot slip through unnoticed. */
export function unknownOp(event: ApiEvent): never {
  throw new UnmodelledEvent(`${event.type} op ${String(event.op)}: ${JSON.stringify(event)}`);
}

/** The list under `key`, or undefined when the client did not fetch that state. */
export function listOf<T = State>(state: State, key: string): T[] | undefined {
  const value = state[key];
  return Array.isArray(value) ? (value as T[]) : undefined;
}

export const ascending = (ids: Iterable<number>): number[] => [...new Set(ids)].sort((a, b) => a - b);
