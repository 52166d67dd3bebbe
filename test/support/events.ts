/** Recording the events a test's world sends (`world.events`), with their recipients. */
import type { ChatEvent } from '../../lib/state/event-hub.js';
import type { TestServer } from './harness.js';

export interface Recorded {
  readonly event: ChatEvent;
  readonly userIds: readonly number[];
}

export interface RecordOptions {
  /** Recipients sorted ascending (for tests that do not care about their order). */
  readonly sortRecipients?: boolean;
}

/** Every event sent from now on, appended as it is sent, with a copy of its recipient list. */
export function recordEvents(s: TestServer, options: RecordOptions = {}): Recorded[] {
  const seen: Recorded[] = [];
  s.world.events.subscribe((event, userIds) => seen.push({ event, userIds: options.sortRecipients ? [...userIds].sort((a, b) => a - b) : [...userIds] }));
  return seen;
}

/** The recorded events of a type (and operation). */
export const ofType = (events: readonly Recorded[], type: string, op?: string): Recorded[] =>
  events.filter((e) => e.event.type === type && (op === undefined || e.event.op === op));
