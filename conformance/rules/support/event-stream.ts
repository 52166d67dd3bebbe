/**
 * An event queue read as a stream: each wait consumes the events up to the one it awaits and
 * keeps whatever arrived after it for the next wait, so a rule can await several events of one
 * queue in order. Waiting polls until the event arrives or the deadline passes (a production
 * server delivers events after answering); what came before the awaited event is returned for
 * negative checks (a queue receives events in the order they were sent).
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { fail } from '../../expect/assert.js';
import type { RuleContext } from '../types.js';
import { type EventQueue, openQueue } from './channel-fixtures.js';
import { EVENT_DEADLINE_MS, pollUntil } from './event-waits.js';

export class EventStream {
  private buffer: JsonObject[] = [];

  constructor(readonly queue: EventQueue) {}

  /** The initial state `POST /register` answered. */
  get state(): JsonObject {
    return this.queue.state;
  }

  /** The first unread event `matches` accepts, and the unread events before it; fails naming `what` after the deadline. */
  async next(matches: (event: JsonObject) => boolean, what: string): Promise<{ event: JsonObject; before: JsonObject[] }> {
    if (!this.buffer.some(matches)) this.buffer.push(...(await pollUntil(this.queue, (events) => events.some(matches))));
    const at = this.buffer.findIndex(matches);
    if (at === -1) {
      const seen = this.buffer.map((event) => `${String(event.type)}/${String(event.op ?? '')}`);
      fail(`${what} did not arrive within ${EVENT_DEADLINE_MS / 1000} s (unread events: ${JSON.stringify(seen)})`);
    }
    const event = this.buffer[at]!;
    const before = this.buffer.slice(0, at);
    this.buffer = this.buffer.slice(at + 1);
    return { event, before };
  }
}

/** Opens a queue for `types` as `client` (initial state for the same types), deleted when the rule ends. */
export async function openStream(ctx: RuleContext, client: ApiClient, types: readonly string[], capabilities: Readonly<Record<string, boolean>> = {}, label = 'a rule queue'): Promise<EventStream> {
  const queue = await openQueue(client, types, capabilities);
  ctx.cleanup(`delete ${label}`, async () => queue.close());
  return new EventStream(queue);
}

/** The same for one of the run's identities. */
export const openStreamAs = (ctx: RuleContext, who: IdentityName, types: readonly string[], capabilities: Readonly<Record<string, boolean>> = {}): Promise<EventStream> =>
  openStream(ctx, ctx.as(who), types, capabilities, `the event queue of ${who}`);
