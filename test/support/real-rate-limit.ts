/**
 * The real server's rate limit (200 requests a minute per user) in a test, without the minutes:
 * the server runs on a clock that follows real time but can jump forward, and the conformance
 * client's sleep jumps it instead of waiting, so a 59 s `Retry-After` costs (almost) no wall time.
 * The limiter runs on the world's clock, so the jump frees the window exactly as the wait would.
 */
import type { Sleep } from '../../conformance/client/rate-limit-waits.js';
import type { InProcessHandler } from '../../conformance/index.js';
import { REAL_API_RATE_LIMIT } from '../../server/app/app.js';
import type { CreateAppOptions } from '../../server/index.js';
import { ManualClock } from '../../lib/state/clock.js';
import { brokenApp, type BrokenApp, type Mutation } from './conformance.js';

/** Real time plus every jump so far; a manual clock to the server (jumps drive its scheduler). */
export class JumpingClock extends ManualClock {
  private readonly origin: number;

  constructor() {
    const start = Date.now();
    super(start);
    this.origin = start;
  }

  override now(): number {
    return super.now() + (Date.now() - this.origin);
  }
}

export interface RealLimitServer extends BrokenApp {
  readonly clock: JumpingClock;
  /** The conformance client's sleep: jumps the clock by the wait, then really waits `wait / scale`. */
  readonly sleep: Sleep;
  /** Every wait the client asked for, in ms. */
  readonly waits: readonly number[];
  /**
   * Uses up `userId`'s budget (the next request of theirs gets 429): the requests counted
   * `spacingMs` apart on the server's clock (default all at once), so that the window then frees
   * one slot at a time.
   */
  exhaust(userId: number, spacingMs?: number): void;
}

export interface RealLimitOptions {
  readonly mutate?: Mutation;
  readonly featureLevel?: number;
  /** Further server options (`deliveryDelayMs`, ...). */
  readonly app?: CreateAppOptions;
  /** Real time a wait takes: its length divided by this (default: none, a wait only jumps the clock). */
  readonly scale?: number;
}

/** A fresh reference server enforcing 200 requests per 60 s on a jumping clock. */
export function realLimitServer(options: RealLimitOptions = {}): RealLimitServer {
  const clock = new JumpingClock();
  const broken = brokenApp(options.mutate, options.featureLevel, { ...options.app, clock, apiRateLimit: REAL_API_RATE_LIMIT });
  const waits: number[] = [];
  // During a real wait of a second or more, work the server delays (presence writes, events) gets
  // done: let it, before the jump (a shorter jump hardly ages it).
  const settleMs = options.app?.deliveryDelayMs === undefined ? 0 : options.app.deliveryDelayMs + 10;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  // Waits that overlap share the time that passes: each moves the clock to its own end, if not past it already.
  const sleep: Sleep = async (ms, signal) => {
    if (signal?.aborted) throw signal.reason;
    waits.push(ms);
    const end = clock.now() + ms;
    if (ms >= 1000) await pause(settleMs);
    if (end > clock.now()) clock.advance(end - clock.now());
    await pause(options.scale === undefined ? 0 : ms / options.scale);
    if (signal?.aborted) throw signal.reason;
  };
  const exhaust = (userId: number, spacingMs = 0) => {
    const limiter = broken.app.apiLimiter;
    if (!limiter) throw new Error('the server has no API rate limit');
    while (limiter.attempt(`user:${userId}`) === undefined) clock.advance(spacingMs);
  };
  return { ...broken, clock, sleep, waits, exhaust };
}

/** Wraps a handler so that it counts the answers with status 429. */
export function counting429(handler: InProcessHandler): { readonly handler: InProcessHandler; limited(): number } {
  let limited = 0;
  return {
    handler: async (request) => {
      const reply = await handler(request);
      if (reply.status === 429) limited++;
      return reply;
    },
    limited: () => limited,
  };
}
