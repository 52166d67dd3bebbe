/**
 * One client's event queue (real-server notes on http-register-events 4.2): events get per-queue IDs from 0,
 * stay until the client acknowledges them with `last_event_id`, and are sent again until then.
 * At most one long poll waits on a queue; the HTTP layer attaches it as a waiter that is called
 * when an event arrives.
 */
import { ApiError, badRequest } from '../errors.js';
import type { ChatEvent } from '../state/event-hub.js';
import type { QueueOptions } from './queue-options.js';

export interface QueuedEvent extends ChatEvent {
  readonly id: number;
}

/** `BAD_EVENT_QUEUE_ID`: unknown, expired, deleted, or another user's queue. */
export const badEventQueueId = (queueId: string): ApiError =>
  new ApiError('BAD_EVENT_QUEUE_ID', 400, `Bad event queue ID: ${queueId}`, { queue_id: queueId });

export class EventQueue {
  /**
   * Events not yet acknowledged, oldest first, with consecutive IDs from `firstId`. The events
   * are shared with every other queue that received the same form of the same event: a queue
   * holds one array slot per event, and the `id` is added only when the queue is read.
   */
  private events: ChatEvent[] = [];
  private firstId = 0;
  /** The newest discarded ID; a fresh queue counts as having discarded -1. */
  private newestPrunedId = -1;
  private waiter: (() => void) | null = null;
  /** World-clock time of creation or of the last poll that started waiting. */
  lastConnection: number;

  constructor(
    readonly id: string,
    readonly userId: number,
    readonly options: QueueOptions,
    /** Idle lifetime in milliseconds (see `queueTimeoutSecs`). */
    readonly timeoutMs: number,
    now: number,
  ) {
    this.lastConnection = now;
  }

  /** Appends an event (shared, never modified here; it gets the next ID) and wakes the waiter; returns that ID. */
  push(event: ChatEvent): number {
    const id = this.firstId + this.events.length;
    this.events.push(event);
    this.waiter?.();
    return id;
  }

  /**
   * Discards every event with `id <= lastEventId`, with the real server's two errors: an ID
   * older than what was already discarded, and (after discarding) an ID that was never issued.
   */
  acknowledge(lastEventId: number): void {
    if (lastEventId < this.newestPrunedId) {
      throw badRequest(`An event newer than ${lastEventId} has already been pruned!`);
    }
    const drop = Math.max(0, Math.min(this.events.length, lastEventId - this.firstId + 1));
    if (drop > 0) {
      this.events = this.events.slice(drop);
      this.firstId += drop;
      this.newestPrunedId = this.firstId - 1;
    }
    if (lastEventId !== this.newestPrunedId) throw badRequest(`Event ${lastEventId} was not in this queue`);
  }

  /** The unacknowledged events, in queue order, each with its `id` (last key, as on the wire). */
  contents(): QueuedEvent[] {
    return this.events.map((event, index) => ({ ...event, id: this.firstId + index }));
  }

  /** The held events as stored (shared with other queues, without IDs): for memory accounting. */
  heldEvents(): readonly ChatEvent[] {
    return this.events;
  }

  get isEmpty(): boolean {
    return this.events.length === 0;
  }

  get isWaiting(): boolean {
    return this.waiter !== null;
  }

  /** Lets a long poll hear about the next event; replaces any earlier waiter. */
  attachWaiter(wake: () => void, now: number): void {
    this.waiter = wake;
    this.lastConnection = now;
  }

  detachWaiter(): void {
    this.waiter = null;
  }

  /** A queue with a waiting poll never expires; an idle one after its lifetime. */
  expired(now: number): boolean {
    return this.waiter === null && now - this.lastConnection >= this.timeoutMs;
  }
}
