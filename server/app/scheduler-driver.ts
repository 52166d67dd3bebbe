/**
 * Drives `lib/actions/scheduler.ts` for a running app: before each request, on every advance of a
 * clock that can be advanced, and (unless the clock is manual) from a timer armed for the next due
 * task. `stop` clears the timer and the clock subscription.
 */
import { AdvancingClock, ManualClock } from '../../lib/state/clock.js';
import { nextDueAt, runDue } from '../../lib/actions/scheduler.js';
import type { World } from '../../lib/state/world.js';

/** setTimeout's longest delay; later tasks re-arm when it fires. */
const MAX_DELAY_MS = 2 ** 31 - 1;

export class SchedulerDriver {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The due time the timer is armed for, so unchanged schedules cost nothing per request. */
  private armedFor: number | undefined;
  private readonly unsubscribe: (() => void) | undefined;
  private stopped = false;

  constructor(private readonly world: World) {
    this.unsubscribe = world.clock instanceof AdvancingClock ? world.clock.onAdvance(() => this.advanced()) : undefined;
  }

  /** Time jumped: the armed timer counts real time to a due time that is now nearer, so re-arm. */
  private advanced(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = undefined;
    this.tick();
  }

  /** Runs what is due, then re-arms the timer. */
  tick(): void {
    if (this.stopped) return;
    runDue(this.world);
    this.arm();
  }

  private arm(): void {
    // A manual clock only moves when told to; its advances drive the scheduler instead.
    if (this.world.clock instanceof ManualClock) return;
    const next = nextDueAt(this.world);
    if (next === this.armedFor && (next === undefined || this.timer !== undefined)) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = next;
    if (next === undefined) return;
    const delay = Math.min(Math.max(0, next - this.world.now()), MAX_DELAY_MS);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.armedFor = undefined;
      this.tick();
    }, delay);
    this.timer.unref?.();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.unsubscribe?.();
  }
}
