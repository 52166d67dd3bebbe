/**
 * Zulip's "apply the events to the state register returned, and compare with a fresh register"
 * check, as a reusable helper: every operation that emits events can prove that a client which
 * follows the events ends up where a client that registers afresh starts.
 *
 * Reducers are defined per event type (test/support/reducers/, `defineReducer`); an event
 * without a reducer fails the check, so a new event type cannot slip through unmodelled.
 */
import type { Test } from 'tap';
import type { Client, Params } from './harness.js';
import './reducers/index.js';
import { type ApiEvent, type ReducerContext, reducerFor, type State, UnmodelledEvent } from './reducers/registry.js';

export { type ApiEvent, defineReducer, type Reducer, type ReducerContext, type State, UnmodelledEvent } from './reducers/registry.js';

/** Applies the events in order to a deep copy of `state`; heartbeats change nothing. */
export function applyEvents(state: State, events: readonly ApiEvent[], context: ReducerContext): State {
  const next = structuredClone(state);
  for (const event of events) {
    if (event.type === 'heartbeat') continue;
    const reducer = reducerFor(event.type);
    if (!reducer) throw new UnmodelledEvent(`no reducer for event type ${event.type}: ${JSON.stringify(event)}`);
    reducer(next, event, context);
  }
  return next;
}

/** Register-response keys that legitimately differ between two registrations. */
export const VOLATILE_KEYS = ['result', 'msg', 'queue_id', 'last_event_id', 'server_timestamp', 'ignored_parameters_unsupported'];

const byNumber = (key: string) => (a: State, b: State) => (a[key] as number) - (b[key] as number);
const sortedIds = (value: unknown) => (Array.isArray(value) ? [...(value as number[])].sort((a, b) => a - b) : value);

/**
 * Lists a client keeps by ID (in maps, not in the server's order) are compared in ID order, with
 * their inner ID sets sorted; everything else must match exactly, order included.
 */
const KEYED_LISTS: ReadonlyArray<readonly [string, (a: State, b: State) => number, readonly string[]]> = [
  ['subscriptions', byNumber('stream_id'), ['subscribers', 'partial_subscribers']],
  ['unsubscribed', byNumber('stream_id'), ['subscribers', 'partial_subscribers']],
  ['never_subscribed', byNumber('stream_id'), ['subscribers', 'partial_subscribers']],
  ['realm_users', byNumber('user_id'), []],
  ['realm_non_active_users', byNumber('user_id'), []],
  ['realm_user_groups', byNumber('id'), ['members', 'direct_subgroup_ids']],
  ['reminders', byNumber('reminder_id'), []],
  [
    'user_topics',
    (a, b) => (a.stream_id as number) - (b.stream_id as number) || String(a.topic_name).localeCompare(String(b.topic_name)),
    [],
  ],
];

/** The state as a client sees it: volatile keys dropped, keyed lists in ID order. */
export function comparable(state: State, ignore: readonly string[] = []): State {
  const out: State = { ...state };
  for (const key of [...VOLATILE_KEYS, ...ignore]) delete out[key];
  for (const [key, order, idSets] of KEYED_LISTS) {
    const list = out[key];
    if (!Array.isArray(list)) continue;
    out[key] = (list as State[])
      .map((item) => {
        const copy = { ...item };
        for (const set of idSets) if (set in copy) copy[set] = sortedIds(copy[set]);
        return copy;
      })
      .sort(order);
  }
  return out;
}

export interface ConvergenceCheck {
  /** State types to fetch (null: all); queues listen to the same types unless `eventTypes` says otherwise. */
  readonly fetchEventTypes: readonly string[] | null;
  readonly eventTypes?: readonly string[] | null;
  /** Extra register parameters (client_capabilities, apply_markdown, ...). */
  readonly registerParams?: Params;
  /** The operation under test; it runs between the two registrations. */
  readonly action: () => Promise<unknown>;
  /** Fields to leave out of the comparison (beyond VOLATILE_KEYS). */
  readonly ignore?: readonly string[];
  /**
   * Edits both states (copies) before they are compared, to set aside a difference the real
   * server has too (each use says why).
   */
  readonly setAside?: (state: State) => void;
  /** Whether the action must produce at least one event for the first client (default true). */
  readonly expectEvents?: boolean;
}

/** The capabilities of a modern client; `registerParams.client_capabilities` replaces them. */
export const MODERN_CAPABILITIES = { notification_settings_null: true, user_settings_object: true, empty_topic_name: true };

export function registerParamsOf(check: Pick<ConvergenceCheck, 'fetchEventTypes' | 'eventTypes' | 'registerParams'>): Params {
  return {
    client_capabilities: MODERN_CAPABILITIES,
    ...check.registerParams,
    fetch_event_types: check.fetchEventTypes,
    event_types: check.eventTypes === undefined ? check.fetchEventTypes : check.eventTypes,
  };
}

/** The queue's events so far, without blocking. */
export async function pollEvents(client: Client, queueId: string): Promise<ApiEvent[]> {
  const polled = await client.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
  if (polled.status !== 200) throw new Error(`GET /events failed: ${polled.text}`);
  return polled.body.events as ApiEvent[];
}

/**
 * Registers each client, runs the action, applies each client's queued events to its first
 * state, registers again and asserts both states are equal (for every client). Returns each
 * client's events, in the order of `clients`, for further assertions.
 */
export async function checkEventsConvergeFor(t: Test, clients: readonly Client[], check: ConvergenceCheck): Promise<ApiEvent[][]> {
  const params = registerParamsOf(check);
  const before: State[] = [];
  const contexts: ReducerContext[] = [];
  for (const client of clients) {
    const me = await client.get('/users/me');
    if (me.status !== 200) throw new Error(`GET /users/me failed: ${me.text}`);
    contexts.push({ userId: me.body.user_id as number, capabilities: (params.client_capabilities ?? {}) as Record<string, boolean> });
    const reply = await client.post('/register', params);
    if (reply.status !== 200) throw new Error(`register failed: ${reply.text}`);
    before.push(reply.body as State);
  }
  await check.action();
  const all: ApiEvent[][] = [];
  for (const [index, client] of clients.entries()) {
    const first = before[index] as State;
    const events = await pollEvents(client, first.queue_id as string);
    if (index === 0 && (check.expectEvents ?? true)) t.ok(events.some((e) => e.type !== 'heartbeat'), 'the action produced events');
    const applied = applyEvents(first, events, contexts[index] as ReducerContext);
    const after = await client.post('/register', params);
    t.equal(after.status, 200, 'the second register succeeds');
    const who = clients.length > 1 ? ` (client ${index + 1})` : '';
    const fresh = structuredClone(after.body as State);
    check.setAside?.(applied);
    check.setAside?.(fresh);
    t.same(comparable(applied, check.ignore), comparable(fresh, check.ignore), `events applied to the old state give the new state${who}`);
    all.push(events);
  }
  return all;
}

/** `checkEventsConvergeFor` with one client; returns its events. */
export async function checkEventsConverge(t: Test, client: Client, check: ConvergenceCheck): Promise<ApiEvent[]> {
  const [events] = await checkEventsConvergeFor(t, [client], check);
  return events as ApiEvent[];
}
