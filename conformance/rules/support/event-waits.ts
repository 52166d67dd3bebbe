/**
 * Waiting for events the way a production server needs: it answers before its events are
 * delivered (Django -> RabbitMQ -> Tornado), so a positive check polls until the event is seen or
 * a deadline passes, and a negative check sends a sentinel event afterwards and looks only at
 * what arrived before it (events reach a queue in the order they were sent). The deadline does
 * not count time spent waiting out the target's rate limit (a poll may wait up to a minute).
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import { type Deadline, RateLimitWaits } from '../../client/rate-limit-waits.js';
import { fail } from '../../expect/assert.js';
import type { EventQueue } from './channel-fixtures.js';

/** How long a check waits for an event before it concludes the event is not coming (rate-limit waits not counted). */
export const EVENT_DEADLINE_MS = 10_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A deadline `ms` ahead on the clock of `client`'s run, which stands still while a request waits
 * out the target's rate limit; a plain wall-clock deadline without a client. For rules that poll
 * in a loop of their own: `const deadline = eventDeadline(client); while (!deadline.passed) ...`.
 */
export function eventDeadline(client: ApiClient | undefined, ms = EVENT_DEADLINE_MS): Deadline {
  return (client?.waits ?? new RateLimitWaits()).deadline(ms);
}

/** Polls `queue` until `done` accepts everything received so far, or the deadline passes; returns it all. */
export async function pollUntil(queue: EventQueue, done: (events: readonly JsonObject[]) => boolean, deadlineMs = EVENT_DEADLINE_MS): Promise<JsonObject[]> {
  const received: JsonObject[] = [];
  const deadline = eventDeadline(queue.client, deadlineMs);
  let wait = 5;
  for (;;) {
    received.push(...(await queue.poll()));
    if (done(received) || deadline.passed) return received;
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

/** Whether `event` is the `drafts` add event of a draft with this content. */
const isDraftMarker = (content: string) => (event: JsonObject): boolean =>
  event.type === 'drafts' && event.op === 'add' && Array.isArray(event.drafts) && (event.drafts as JsonObject[]).some((draft) => draft.content === content);

/**
 * Drops whatever reached `queues` before now. A production server can deliver an event of an
 * earlier rule late, into a queue opened after it was sent, where a sentinel that is not unique
 * (a typing notification) would be mistaken for it. The marker is a draft of the queues' owner
 * with content nothing else has (drafts events reach only their owner); the queues must take
 * `drafts` events. Returns false, draining nothing, when the owner cannot save drafts.
 */
export async function drainQueues(client: ApiClient, queues: readonly EventQueue[]): Promise<boolean> {
  const content = `queue marker ${Date.now().toString(36)} ${Math.random().toString(36).slice(2)}`;
  const created = await client.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content }] });
  const ids = created.body?.ids;
  if (created.status !== 200 || !Array.isArray(ids) || typeof ids[0] !== 'number') return false;
  try {
    for (const queue of queues) {
      const received = await pollUntil(queue, (events) => events.some(isDraftMarker(content)));
      if (!received.some(isDraftMarker(content))) fail(`the marker draft's event did not arrive within ${EVENT_DEADLINE_MS / 1000} s`);
    }
  } finally {
    await client.delete(`/drafts/${ids[0]}`);
  }
  return true;
}
