/**
 * Where actions announce what changed. Each event names the users it is for; event queues
 * (lib/events/queues.ts) subscribe here and filter per queue.
 */
export interface ChatEvent {
  readonly type: string;
  readonly [key: string]: unknown;
}

export type EventListener = (event: ChatEvent, userIds: readonly number[]) => void;

export class EventHub {
  private readonly listeners = new Set<EventListener>();

  /** Sends `event` to each of `userIds` (duplicates are ignored). */
  send(event: ChatEvent, userIds: Iterable<number>): void {
    const recipients = [...new Set(userIds)];
    if (recipients.length === 0) return;
    for (const listener of this.listeners) listener(event, recipients);
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
