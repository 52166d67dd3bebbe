/**
 * Timing of event queues and long polls (real-server notes on http-register-events 4.1). The defaults are the
 * real server's; tests shorten them through `createApp({ events: {...} })`.
 */
import { DEFAULT_MAX_QUEUES_PER_USER } from '../../lib/events/queue-options.js';

export interface EventQueueOptions {
  /** A waiting poll gets a heartbeat after this long: 45 000 ms by default. Real timers. */
  readonly heartbeatMs?: number;
  /** Random extra delay added to each heartbeat, 0 to this: 10 000 ms by default. */
  readonly heartbeatJitterMs?: number;
  /** Idle lifetime of a queue registered with `queue_lifespan_secs` 0: 600 s by default. */
  readonly queueTimeoutSecs?: number;
  /** Period of the idle-queue sweep on the world clock: 60 000 ms by default. */
  readonly sweepIntervalMs?: number;
  /** `event_queue_longpoll_timeout_seconds` announced by register: 90 by default. */
  readonly longpollTimeoutSecs?: number;
  /** Queues one user may hold; registering past it removes their least recently polled idle queue. 100 by default. */
  readonly maxQueuesPerUser?: number;
}

export type ResolvedEventQueueOptions = Required<EventQueueOptions>;

export const DEFAULT_EVENT_QUEUE_OPTIONS: ResolvedEventQueueOptions = {
  heartbeatMs: 45_000,
  heartbeatJitterMs: 10_000,
  queueTimeoutSecs: 600,
  sweepIntervalMs: 60_000,
  longpollTimeoutSecs: 90,
  maxQueuesPerUser: DEFAULT_MAX_QUEUES_PER_USER,
};

export function resolveEventQueueOptions(options: EventQueueOptions = {}): ResolvedEventQueueOptions {
  const pick = (key: keyof EventQueueOptions): number => {
    const value = options[key];
    return value !== undefined && Number.isFinite(value) && value >= 0 ? value : DEFAULT_EVENT_QUEUE_OPTIONS[key];
  };
  return {
    heartbeatMs: pick('heartbeatMs'),
    heartbeatJitterMs: pick('heartbeatJitterMs'),
    queueTimeoutSecs: pick('queueTimeoutSecs'),
    sweepIntervalMs: Math.max(1, pick('sweepIntervalMs')),
    longpollTimeoutSecs: pick('longpollTimeoutSecs'),
    maxQueuesPerUser: Math.max(1, Math.floor(pick('maxQueuesPerUser'))),
  };
}
