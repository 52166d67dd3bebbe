/**
 * Saves the world to the `--state` file while the server runs, so that a `kill -9`, a crash or a
 * power cut loses seconds rather than the session: a change (a write request answered, or any
 * event, which covers what timers do, such as delivered reminders) is on disk about `delayMs`
 * after it was made, and a burst of changes is saved once. Taking the snapshot blocks the server
 * (writing it does not); when that takes long (a large world), the next save waits at least
 * `SPACING` times as long, so saving never takes more than a small share of the server's time.
 */
import type { World } from '../../lib/state/world.js';
import { saveStateFile, saveStateFileInBackground } from './state-file.js';

/** The default longest wait between a change and its save, in milliseconds. */
export const DEFAULT_SAVE_DELAY_MS = 2000;
/** A save that took d ms delays the next one by at least SPACING * d. */
const SPACING = 5;
/** The wait before retrying a save that failed (a full disk, a removed folder). */
const RETRY_MS = 10_000;

export interface StateSaverOptions {
  readonly path: string;
  /** The world to save (the current one: a reset swaps it). */
  readonly world: () => World;
  /** Longest wait from a change to its save; 0 saves only on stop. */
  readonly delayMs: number;
  /** A background save failed (it is retried; the stop's save reports its own failure). */
  readonly onError: (error: unknown) => void;
}

export class StateSaver {
  private dirty = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private saving: Promise<void> | undefined;
  /** How long the last save blocked the server (taking the snapshot), in ms. */
  private lastSaveMs = 0;
  private stopped = false;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly options: StateSaverOptions) {
    this.watch();
  }

  /** Follows the events of the current world (call again after the world was swapped). */
  watch(): void {
    this.unsubscribe?.();
    this.unsubscribe = this.options.world().events.subscribe(() => this.changed());
  }

  /** Something changed: it will be saved within the delay. */
  changed(): void {
    this.dirty = true;
    if (this.stopped || this.options.delayMs === 0 || this.timer !== undefined || this.saving) return;
    this.arm(Math.max(this.options.delayMs, SPACING * this.lastSaveMs));
  }

  private arm(delay: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.saveNow();
    }, delay);
    // A pending save never keeps the process alive on its own; stop() saves what is left.
    this.timer.unref?.();
  }

  private async saveNow(): Promise<void> {
    if (this.stopped || !this.dirty) return;
    this.dirty = false;
    const started = performance.now();
    this.saving = saveStateFileInBackground(this.options.path, this.options.world());
    // What blocked the server: the snapshot, taken before the first await (the writing does not block).
    this.lastSaveMs = performance.now() - started;
    try {
      await this.saving;
    } catch (error) {
      this.dirty = true;
      this.options.onError(error);
      if (!this.stopped) this.arm(Math.max(this.options.delayMs, RETRY_MS, SPACING * this.lastSaveMs));
      return;
    } finally {
      this.saving = undefined;
    }
    if (this.dirty && !this.stopped) this.arm(Math.max(this.options.delayMs, SPACING * this.lastSaveMs));
  }

  /** Stops saving in the background; with `save`, writes the world one last time (errors are thrown). */
  async stop(save: boolean): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.unsubscribe?.();
    await this.saving?.catch(() => undefined);
    if (save) saveStateFile(this.options.path, this.options.world());
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `handler`, telling `saver` about every other request once it is answered. */
export function savingAfterWrites<R, A>(handler: (request: R & { readonly method: string }) => A | Promise<A>, saver: StateSaver): (request: R & { readonly method: string }) => A | Promise<A> {
  return (request) => {
    const answer = handler(request);
    if (READS.has(request.method)) return answer;
    if (answer instanceof Promise) void answer.then(() => saver.changed(), () => saver.changed());
    else saver.changed();
    return answer;
  };
}
