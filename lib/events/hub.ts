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

  /** Sends `event` to each of `userIds` (duplicates are ignored), or to everyone an audience includes. */
  send(event: ChatEvent, userIds: Iterable<number> | Audience): void {
    if (userIds instanceof Audience) {
      for (const listener of this.listeners) listener(event, userIds);
      return;
    }
    const recipients = [...new Set(userIds)];
    if (recipients.length === 0) return;
    for (const listener of this.listeners) listener(event, recipients);
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
