/**
 * Waiting for events the way a production server needs: it answers before its events are
 * delivered (Django -> RabbitMQ -> Tornado), so a positive check polls until the event is seen or
 * a deadline passes, and a negative check sends a sentinel event afterwards and looks only at
 * what arrived before it (events reach a queue in the order they were sent).
 */
import type { JsonObject } from '../client/api-client.js';
import { fail } from '../expect/assert.js';
import type { EventQueue } from './channel-fixtures.js';

/** How long a check waits for an event before it concludes the event is not coming. */
export const EVENT_DEADLINE_MS = 10_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `queue` until `done` accepts everything received so far, or the deadline passes; returns it all. */
export async function pollUntil(queue: EventQueue, done: (events: readonly JsonObject[]) => boolean, deadlineMs = EVENT_DEADLINE_MS): Promise<JsonObject[]> {
  const received: JsonObject[] = [];
  const end = Date.now() + deadlineMs;
  let wait = 5;
  for (;;) {
    received.push(...(await queue.poll()));
    if (done(received) || Date.now() >= end) return received;
    await pause(wait);
    wait = Math.min(wait * 2, 250);
  }
}

/**
 * The events that reached `queue` before the sentinel (the first event `isSentinel` accepts),
 * after `sendSentinel` made it. Fails when the sentinel never arrives.
 */
export async function eventsBeforeSentinel(
  queue: EventQueue,
  sendSentinel: () => Promise<void>,
  isSentinel: (event: JsonObject) => boolean,
  what: string,
): Promise<JsonObject[]> {
  await sendSentinel();
  const received = await pollUntil(queue, (events) => events.some(isSentinel));
  const at = received.findIndex(isSentinel);
  if (at === -1) fail(`the sentinel event (${what}) did not arrive within ${EVENT_DEADLINE_MS / 1000} s`);
  return received.slice(0, at);
}
