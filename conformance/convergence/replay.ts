/**
 * Applies the events a queue delivered to the state its `POST /register` answered, in order, the
 * way the real server's `apply_events` (zerver/lib/events.py) and the clients built on it do.
 * What an event contradicts (or an event no reducer knows) is collected with the event's index,
 * so the report can name it.
 */
import { CHANNEL_REDUCERS } from './reducers/channels.js';
import { GROUP_USER_REDUCERS } from './reducers/groups-users.js';
import { MESSAGE_REDUCERS } from './reducers/messages.js';
import { PERSONAL_REDUCERS } from './reducers/personal.js';
import { UnmodelledEvent } from './reducers/unmodelled.js';
import { Replay } from './replay-state.js';
import type { ClientView, Inconsistency, QueueEvent, State } from './types.js';

type Reducer = (replay: Replay, event: QueueEvent) => void;

const REDUCERS: ReadonlyMap<string, Reducer> = new Map<string, Reducer>([...MESSAGE_REDUCERS, ...CHANNEL_REDUCERS, ...GROUP_USER_REDUCERS, ...PERSONAL_REDUCERS]);

/** Events with no effect on any state (a queue may get them whatever it asked for). */
const IGNORED = new Set(['heartbeat', 'restart', 'web_reload_client']);

/** A problem one event showed: a contradiction with the state, or an event the replay cannot apply. */
export interface EventProblem extends Inconsistency {
  readonly eventIndex: number;
}

export interface ReplayResult {
  /** The replayed state, in register's form. */
  readonly state: State;
  readonly problems: readonly EventProblem[];
  /** Keys of `recent_private_conversations` entries no client could know after a deletion. */
  readonly unknowable: ReadonlySet<string>;
  /** Message IDs the events deleted. */
  readonly deleted: ReadonlySet<number>;
}

/** Applies one event; a failure to apply it becomes a problem of that event. */
function apply(replay: Replay, event: QueueEvent, index: number, problems: EventProblem[]): void {
  if (IGNORED.has(event.type)) return;
  const reducer = REDUCERS.get(event.type);
  try {
    if (!reducer) throw new UnmodelledEvent(`no reducer for event type ${event.type}`);
    reducer(replay, event);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    problems.push({ eventIndex: index, path: '(event)', expected: 'an event the replay can apply', received: event, why });
  }
  for (const problem of replay.problems.splice(0)) problems.push({ ...problem, eventIndex: index });
}

/** The state after all `events`. */
export function replayEvents(initial: State, events: readonly QueueEvent[], view: ClientView): ReplayResult {
  const replay = new Replay(initial, view);
  const problems: EventProblem[] = [];
  events.forEach((event, index) => apply(replay, event, index, problems));
  return { state: replay.finish(), problems, unknowable: replay.unknowable, deleted: replay.deleted };
}

/** `probe` of the state before any event, then after each event (to find which events changed a field). */
export function probeAfterEach<T>(initial: State, events: readonly QueueEvent[], view: ClientView, probe: (state: State) => T): T[] {
  const replay = new Replay(initial, view);
  const values = [probe(replay.finish())];
  const ignored: EventProblem[] = [];
  events.forEach((event, index) => {
    apply(replay, event, index, ignored);
    values.push(probe(replay.finish()));
  });
  return values;
}
