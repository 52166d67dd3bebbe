/**
 * Waiting out a target's rate limit, and the clock every deadline of a run reads.
 *
 * A production server limits each user (Zulip: 200 requests a minute) and answers a request past
 * the limit with 429 and a `Retry-After` of up to a whole window (59 s). A deadline that counted
 * those waits would expire on a healthy server, so every deadline of a run (a rule's time limit,
 * a cleanup's, an event wait's) measures *active time*: wall time less the time during which at
 * least one of the run's requests was waiting out a `Retry-After`. Request timeouts need none of
 * this: each attempt of a request has its own, and the wait comes between attempts.
 */

/** Waits `ms`, or rejects with the signal's reason once it aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The real wait: a timer. */
export const timerSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export class RateLimitWaits {
  /** Waits in progress; while any is, active time stands still. */
  private waiting = 0;
  private pausedSince = 0;
  private pausedMs = 0;
  private waitsDone = 0;
  private requestedMs = 0;

  /** `sleep` does the waiting: a timer by default; tests pass one that moves a server's clock instead. */
  constructor(private readonly sleep: Sleep = timerSleep) {}

  /** Waits `ms` for the rate limit; every deadline of the run stands still meanwhile. */
  async wait(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.waiting++ === 0) this.pausedSince = performance.now();
    try {
      await this.sleep(ms, signal);
    } finally {
      if (--this.waiting === 0) this.pausedMs += performance.now() - this.pausedSince;
      this.waitsDone++;
      this.requestedMs += ms;
    }
  }

  /** Milliseconds of active time since an arbitrary origin; never decreases. */
  activeNow(): number {
    const now = performance.now();
    return now - this.pausedMs - (this.waiting > 0 ? now - this.pausedSince : 0);
  }

  /** The waits so far: how many, and the time they asked for (`Retry-After` plus a margin). */
  totals(): { readonly waits: number; readonly waitedMs: number } {
    return { waits: this.waitsDone, waitedMs: this.requestedMs };
  }

  /** A deadline `ms` of active time from now. */
  deadline(ms: number): Deadline {
    return new Deadline(this, ms);
  }
}

/** A point `ms` of active time ahead (see `RateLimitWaits`). */
export class Deadline {
  private readonly end: number;

  constructor(
    private readonly clock: RateLimitWaits,
    readonly ms: number,
  ) {
    this.end = clock.activeNow() + ms;
  }

  remainingMs(): number {
    return Math.max(0, this.end - this.clock.activeNow());
  }

  get passed(): boolean {
    return this.remainingMs() === 0;
  }

  /**
   * Calls `onPassed` once the deadline has passed, checking again whenever the timer fires early
   * because a rate-limit wait held the deadline back. Returns the function that cancels it.
   */
  whenPassed(onPassed: () => void): () => void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      const remaining = this.remainingMs();
      if (remaining === 0) {
        timer = undefined;
        onPassed();
        return;
      }
      timer = setTimeout(arm, Math.max(1, remaining));
    };
    arm();
    return () => clearTimeout(timer);
  }

  /** `promise`, or a rejection with `error()` once the deadline passes first. */
  race<T>(promise: Promise<T>, error: () => Error): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const cancel = this.whenPassed(() => reject(error()));
      promise.then(
        (value) => {
          cancel();
          resolve(value);
        },
        (reason: unknown) => {
          cancel();
          reject(reason);
        },
      );
    });
  }
}
