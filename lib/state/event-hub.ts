/**
 * Where actions announce what changed. Each event names the users it is for; event queues
 * (lib/events/queues.ts) subscribe here and filter per queue.
 */
import { Audience, type Recipients } from './audience.js';

export interface ChatEvent {
  readonly type: string;
  readonly [key: string]: unknown;
}

export type EventListener = (event: ChatEvent, recipients: Recipients) => void;

export class EventHub {
  private readonly listeners = new Set<EventListener>();
  /** Set for a delivery delay (lib/state/delivery-delay.ts): listeners then hear each event later, in order. */
  defer: ((work: () => void) => void) | undefined;

  /** Sends `event` to each of `userIds` (duplicates are ignored), or to everyone an audience includes. */
  send(event: ChatEvent, userIds: Iterable<number> | Audience): void {
    const recipients = userIds instanceof Audience ? userIds : [...new Set(userIds)];
    if (Array.isArray(recipients) && recipients.length === 0) return;
    if (this.defer) this.defer(() => this.deliver(event, recipients));
    else this.deliver(event, recipients);
  }

  private deliver(event: ChatEvent, recipients: Recipients): void {
    for (const listener of this.listeners) listener(event, recipients);
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
