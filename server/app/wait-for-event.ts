/**
 * For code that uses the server as a library: wait for an event without long-polling by hand.
 * Start waiting before causing the event; the returned promise settles once.
 */
import type { ChatEvent } from '../../lib/state/event-hub.js';
import { eventQueues } from '../../lib/events/queues.js';
import type { ChatApp } from './app.js';

export class EventWaitTimeout extends Error {
  override name = 'EventWaitTimeout';
}

export interface WaitForEventOptions {
  /** Real-time limit; rejects with EventWaitTimeout after it (default 5000 ms). */
  readonly timeoutMs?: number;
  /**
   * Wait for the event as this queue receives it (filtered, rewritten for its client, with its
   * `id`). Without it, a dedicated listener hears every event emitted for the user, as emitted.
   */
  readonly queueId?: string;
  readonly signal?: AbortSignal;
}

/**
 * Resolves with the first event for `userId` that satisfies `predicate`; rejects with
 * EventWaitTimeout when none arrives within `timeoutMs`, or with the signal's reason on abort.
 */
export function waitForEvent(
  app: ChatApp,
  userId: number,
  predicate: (event: ChatEvent) => boolean = () => true,
  options: WaitForEventOptions = {},
): Promise<ChatEvent> {
  const timeoutMs = options.timeoutMs ?? 5000;
  return new Promise<ChatEvent>((resolve, reject) => {
    let stop = (): void => undefined;
    const settle = (finish: () => void): void => {
      stop();
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      finish();
    };
    const offer = (event: ChatEvent): void => {
      let matches: boolean;
      try {
        matches = predicate(event);
      } catch (error) {
        settle(() => reject(error));
        return;
      }
      if (matches) settle(() => resolve(event));
    };
    const onAbort = (): void => settle(() => reject(options.signal?.reason));
    const timer = setTimeout(
      () => settle(() => reject(new EventWaitTimeout(`no matching event for user ${userId} within ${timeoutMs} ms`))),
      timeoutMs,
    );
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const { queueId } = options;
    stop =
      queueId === undefined
        ? app.world.events.subscribe((event, userIds) => {
            if (userIds.includes(userId)) offer(event);
          })
        : eventQueues(app.world).onDelivered((queue, event) => {
            if (queue.id === queueId && queue.userId === userId) offer(event);
          });
  });
}
