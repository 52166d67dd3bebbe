/**
 * Zulip's "apply the events to the state register returned, and compare with a fresh register"
 * check, as a reusable helper: every operation that emits events can prove that a client which
 * follows the events ends up where a client that registers afresh starts.
 *
 * Reducers are defined per event type (`defineReducer`); an event without a reducer fails the
 * check, so a new event type cannot slip through unmodelled.
 */
import type { Test } from 'tap';
import type { Client, Params } from './harness.js';

export type State = Record<string, unknown>;
export type ApiEvent = Record<string, unknown> & { readonly type: string; readonly id: number };
export type Reducer = (state: State, event: ApiEvent) => void;

const REDUCERS = new Map<string, Reducer>();

/** Registers how a client applies events of `type` to its register state. */
export function defineReducer(type: string, reducer: Reducer): void {
  REDUCERS.set(type, reducer);
}

export class UnmodelledEvent extends Error {}

/** Applies the events in order to a deep copy of `state`; heartbeats change nothing. */
export function applyEvents(state: State, events: readonly ApiEvent[]): State {
  const next = structuredClone(state);
  for (const event of events) {
    if (event.type === 'heartbeat') continue;
    const reducer = REDUCERS.get(event.type);
    if (!reducer) throw new UnmodelledEvent(`no reducer for event type ${event.type}: ${JSON.stringify(event)}`);
    reducer(next, event);
  }
  return next;
}

/** Register-response keys that legitimately differ between two registrations. */
export const VOLATILE_KEYS = ['result', 'msg', 'queue_id', 'last_event_id', 'server_timestamp', 'ignored_parameters_unsupported'];

function withoutVolatile(state: State, extra: readonly string[]): State {
  const out = { ...state };
  for (const key of [...VOLATILE_KEYS, ...extra]) delete out[key];
  return out;
}

export interface ConvergenceCheck {
  /** State types to fetch; the queue listens to the same types unless `eventTypes` says otherwise. */
  readonly fetchEventTypes: readonly string[];
  readonly eventTypes?: readonly string[] | null;
  /** Extra register parameters (client_capabilities, apply_markdown, ...). */
  readonly registerParams?: Params;
  /** The operation under test; it runs between the two registrations. */
  readonly action: () => Promise<unknown>;
  /** Fields to leave out of the comparison (beyond VOLATILE_KEYS). */
  readonly ignore?: readonly string[];
  /** Whether the action must produce at least one event (default true). */
  readonly expectEvents?: boolean;
}

/**
 * Registers, runs the action, applies the queued events to the first state, registers again
 * and asserts both states are equal. Returns the events, for further assertions.
 */
export async function checkEventsConverge(t: Test, client: Client, check: ConvergenceCheck): Promise<ApiEvent[]> {
  const params: Params = {
    client_capabilities: { notification_settings_null: true, user_settings_object: true, empty_topic_name: true },
    ...check.registerParams,
    fetch_event_types: check.fetchEventTypes,
    event_types: check.eventTypes === undefined ? check.fetchEventTypes : check.eventTypes,
  };
  const before = await client.post('/register', params);
  t.equal(before.status, 200, 'first register succeeds');
  await check.action();
  const polled = await client.get('/events', { queue_id: before.body.queue_id, last_event_id: -1, dont_block: true });
  t.equal(polled.status, 200, 'the events can be fetched');
  const events = polled.body.events as ApiEvent[];
  if (check.expectEvents ?? true) t.ok(events.some((e) => e.type !== 'heartbeat'), 'the action produced events');
  const applied = applyEvents(before.body as State, events);
  const after = await client.post('/register', params);
  t.equal(after.status, 200, 'second register succeeds');
  const ignore = check.ignore ?? [];
  t.same(withoutVolatile(applied, ignore), withoutVolatile(after.body as State, ignore), 'events applied to the old state give the new state');
  return events;
}

// ---- reducers -------------------------------------------------------------------------

defineReducer('realm_user_settings_defaults', (state, event) => {
  if (event.op !== 'update') throw new UnmodelledEvent(`realm_user_settings_defaults op ${String(event.op)}`);
  const defaults = state.realm_user_settings_defaults as State | undefined;
  if (defaults) defaults[event.property as string] = event.value;
});

defineReducer('user_settings', (state, event) => {
  if (event.op !== 'update') throw new UnmodelledEvent(`user_settings op ${String(event.op)}`);
  const settings = state.user_settings as State | undefined;
  if (settings) settings[event.property as string] = event.value;
});

type Draft = { id: number; timestamp: number } & State;
const newestFirst = (drafts: Draft[]): Draft[] => drafts.sort((a, b) => b.timestamp - a.timestamp || b.id - a.id);

defineReducer('drafts', (state, event) => {
  const drafts = state.drafts as Draft[] | undefined;
  if (!drafts) return;
  if (event.op === 'add') drafts.push(...(event.drafts as Draft[]));
  else if (event.op === 'update') {
    const draft = event.draft as Draft;
    const index = drafts.findIndex((d) => d.id === draft.id);
    if (index >= 0) drafts[index] = draft;
    else drafts.push(draft);
  } else if (event.op === 'remove') {
    const index = drafts.findIndex((d) => d.id === event.draft_id);
    if (index >= 0) drafts.splice(index, 1);
  } else throw new UnmodelledEvent(`drafts op ${String(event.op)}`);
  newestFirst(drafts);
});

defineReducer('user_topic', (state, event) => {
  const topics = state.user_topics as State[] | undefined;
  if (!topics) return;
  const same = (t: State) => t.stream_id === event.stream_id && String(t.topic_name).toLowerCase() === String(event.topic_name).toLowerCase();
  const index = topics.findIndex(same);
  if (index >= 0) topics.splice(index, 1);
  if (event.visibility_policy !== 0) {
    const { type: _type, id: _id, ...row } = event;
    topics.push(row);
  }
});

defineReducer('muted_topics', (state, event) => {
  if ('muted_topics' in state) state.muted_topics = event.muted_topics;
});
