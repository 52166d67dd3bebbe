/**
 * Held `GET /events` requests (real-server notes on http-register-events 4.2): at most one waiting poll per queue,
 * finished by the next event, by a heartbeat after the heartbeat interval, by a newer poll on
 * the same queue (supersession), by `DELETE /events`, or by closing the app. A client that goes
 * away only forgets its wait; the queue survives.
 *
 * Idle cost: one timer per waiting poll (its heartbeat) and nothing else; events wake a poll
 * through the queue's waiter callback, never by polling. The idle-queue sweep runs on the world
 * clock: every `sweepIntervalMs` on a real clock, and on each advance of a ManualClock (as if
 * every sweep due in between had run) or of a ShiftedClock (at once).
 */
import { AdvancingClock, ManualClock } from '../../lib/state/clock.js';
import type { EventQueue, QueuedEvent } from '../../lib/events/event-queue.js';
import { type EventQueues, eventQueues } from '../../lib/events/queues.js';
import type { AppServices } from './endpoint.js';

interface Waiting {
  readonly resolve: (events: readonly QueuedEvent[]) => void;
  readonly timer: NodeJS.Timeout;
  readonly release: () => void;
}

export class LongPoller {
  private readonly waiting = new Map<EventQueue, Waiting>();
  private readonly queues: EventQueues;
  private readonly stopSweeping: () => void;
  private closed = false;
  /** World time of the sweep schedule's origin; sweeps happen at origin + k * interval. */
  private readonly sweepOrigin: number;

  constructor(private readonly app: AppServices) {
    this.queues = eventQueues(app.world);
    this.sweepOrigin = app.world.now();
    this.stopSweeping = this.startSweeping();
    app.onClose(() => this.close());
  }

  /** Number of polls currently held. */
  get size(): number {
    return this.waiting.size;
  }

  /**
   * Holds the poll until the queue has something to say; resolves with the queue's events.
   * An aborted signal releases the wait (resolving with no events: nobody reads them).
   */
  wait(queue: EventQueue, signal?: AbortSignal): Promise<readonly QueuedEvent[]> {
    if (this.closed || signal?.aborted) return Promise.resolve([...queue.contents()]);
    this.finish(queue);
    return new Promise((resolve) => {
      const { heartbeatMs, heartbeatJitterMs } = this.app.eventOptions;
      const delay = heartbeatMs + Math.floor(Math.random() * (heartbeatJitterMs + 1));
      const timer = setTimeout(() => this.queues.push(queue, { type: 'heartbeat' }), delay);
      const onAbort = (): void => {
        if (this.waiting.get(queue)?.resolve !== resolve) return;
        this.forget(queue);
        resolve([]);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const release = (): void => signal?.removeEventListener('abort', onAbort);
      this.waiting.set(queue, { resolve, timer, release });
      queue.attachWaiter(() => this.finish(queue), this.app.world.now());
    });
  }

  /** Answers the poll waiting on `queue` with its current events; false if none waits. */
  finish(queue: EventQueue): boolean {
    const waiting = this.waiting.get(queue);
    if (!waiting) return false;
    this.forget(queue);
    waiting.resolve([...queue.contents()]);
    return true;
  }

  /** Finishes every held poll and stops the sweep; later polls answer at once. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopSweeping();
    for (const queue of [...this.waiting.keys()]) this.finish(queue);
  }

  /** Removes idle queues past their lifetime, as of world time `now`. */
  sweep(now: number = this.app.world.now()): void {
    this.queues.sweep(now);
  }

  private forget(queue: EventQueue): void {
    const waiting = this.waiting.get(queue);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    waiting.release();
    this.waiting.delete(queue);
    queue.detachWaiter();
  }

  private startSweeping(): () => void {
    const { clock } = this.app.world;
    const interval = this.app.eventOptions.sweepIntervalMs;
    if (clock instanceof ManualClock) {
      // The latest sweep due at or before now decides, exactly as a periodic sweep would have.
      return clock.onAdvance(() => {
        const now = clock.now();
        const elapsed = now - this.sweepOrigin;
        if (elapsed >= interval) this.sweep(this.sweepOrigin + Math.floor(elapsed / interval) * interval);
      });
    }
    const timer = setInterval(() => this.sweep(), interval);
    timer.unref();
    const unsubscribe = clock instanceof AdvancingClock ? clock.onAdvance(() => this.sweep()) : undefined;
    return () => {
      clearInterval(timer);
      unsubscribe?.();
    };
  }
}

const pollers = new WeakMap<AppServices, LongPoller>();

/** The app's long-poll manager, created on first use (which also starts the idle sweep). */
export function longPoller(app: AppServices): LongPoller {
  let poller = pollers.get(app);
  if (!poller) {
    poller = new LongPoller(app);
    pollers.set(app, poller);
  }
  return poller;
}
