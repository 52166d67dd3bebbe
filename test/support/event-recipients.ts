/**
 * Who receives an event. The recorder listens on the world's event hub, which is where an
 * action names its recipients (the real server's `send_event(realm, event, user_ids)`), so a
 * test can assert that an event reaches exactly the users the real server sends it to
 * (real-server notes on http-register-events 4.4-4.5), including accounts that cannot open a queue over HTTP
 * (incoming-webhook bots). What each queue then keeps (capabilities, event_types, narrows) is
 * asserted with real queues.
 */
import type { Test } from 'tap';
import type { ChatEvent } from '../../lib/state/event-hub.js';
import type { TestServer } from './harness.js';

export interface Recorder {
  /** Each recipient's events so far, by user ID. */
  received(): Map<number, ChatEvent[]>;
  /** Stops recording. */
  stop(): void;
}

/** Starts recording every event the actions send, with its recipients. */
export function listenAll(s: TestServer): Recorder {
  const byUser = new Map<number, ChatEvent[]>();
  const stop = s.world.events.subscribe((event, userIds) => {
    for (const id of userIds) byUser.set(id, [...(byUser.get(id) ?? []), event]);
  });
  return { received: () => new Map(byUser), stop: () => void stop() };
}

/** The users (sorted) who received at least one event that `match` accepts. */
export function recipientsOf(received: ReadonlyMap<number, readonly ChatEvent[]>, match: (event: ChatEvent) => boolean): number[] {
  const ids: number[] = [];
  for (const [userId, events] of received) if (events.some(match)) ids.push(userId);
  return ids.sort((a, b) => a - b);
}

/** Events of one type (and op, when given). */
export const isEvent =
  (type: string, op?: string) =>
  (event: ChatEvent): boolean =>
    event.type === type && (op === undefined || event.op === op);

/** IDs of active realm accounts (humans and bots, no cross-realm bots) that `keep` accepts, sorted. */
export function activeIds(s: TestServer, keep: (user: { id: number; role: number; isBot: boolean }) => boolean = () => true): number[] {
  return [...s.world.users.values()]
    .filter((u) => u.isActive && !u.isSystemBot && keep(u))
    .map((u) => u.id)
    .sort((a, b) => a - b);
}

/** Asserts that exactly `expected` received an event that `match` accepts. */
export function checkRecipients(
  t: Test,
  received: ReadonlyMap<number, readonly ChatEvent[]>,
  match: (event: ChatEvent) => boolean,
  expected: readonly number[],
  what: string,
): void {
  t.same(recipientsOf(received, match), [...expected].sort((a, b) => a - b), `${what} reaches exactly the expected users`);
}
