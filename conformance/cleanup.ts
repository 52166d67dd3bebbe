/**
 * Cleanup registry: LIFO, run after the rule (or, for run-scoped entries, after the whole run)
 * even when it failed or timed out. Each cleanup gets fresh clients, because the rule's own
 * clients are aborted when the rule times out; they wait out every rate-limit answer, and a
 * cleanup's time limit does not count those waits.
 */
import type { ApiClient } from './client/api-client.js';
import { RateLimitWaits } from './client/rate-limit-waits.js';
import type { Need } from './credentials/types.js';
import { describeError } from './errors.js';

export interface CleanupContext {
  /** A client for one of the rule's identities, not tied to the rule's timeout. */
  as(who: Need): ApiClient;
  readonly anonymous: ApiClient;
  /**
   * Records what a cleanup could not undo but is no failure of the run (a channel the target
   * cannot archive, left by every identity): shown with the rule, or as a run warning.
   */
  note(message: string): void;
}

export type CleanupFn = (c: CleanupContext) => Promise<void>;

export class CleanupRegistry {
  private readonly entries: Array<{ label: string; fn: CleanupFn }> = [];

  add(label: string, fn: CleanupFn): void {
    this.entries.push({ label, fn });
  }

  get size(): number {
    return this.entries.length;
  }

  /**
   * Runs and removes every entry, last registered first; returns the failures as messages. Each
   * entry has `timeoutMs` of active time: waits for the target's rate limit (on `waits`, the
   * run's) do not count.
   */
  async runAll(context: CleanupContext, timeoutMs: number, waits: RateLimitWaits = new RateLimitWaits()): Promise<string[]> {
    const errors: string[] = [];
    while (this.entries.length > 0) {
      const entry = this.entries.pop()!;
      try {
        await waits.deadline(timeoutMs).race(entry.fn(context), () => new Error(`timed out after ${timeoutMs} ms (rate-limit waits not counted)`));
      } catch (error) {
        errors.push(`cleanup "${entry.label}" failed: ${describeError(error)}`);
      }
    }
    return errors;
  }
}
