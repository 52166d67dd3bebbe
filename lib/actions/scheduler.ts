/**
 * The world's due-task runner: everything that happens because time passed (reminder delivery,
 * spec 3.5; scheduled messages). `runDue` is idempotent and cheap when nothing is due; the server
 * calls it before each request, when a manual clock advances, and from a timer armed for `nextDueAt`.
 */
import { deliverDueScheduledMessages, nextScheduledMessageDue } from './messages/scheduled-delivery.js';
import { deliverDueReminders, nextReminderDue } from './personal/reminders.js';
import type { World } from '../state/world.js';

interface DueSource {
  /** Milliseconds since the epoch of the next task, or undefined. */
  nextDue(world: World): number | undefined;
  /** Runs every task due at `world.now()`. */
  runDue(world: World): void;
}

/** Kinds of timed work, in the order they run. */
const SOURCES: readonly DueSource[] = [
  { nextDue: nextScheduledMessageDue, runDue: deliverDueScheduledMessages },
  { nextDue: nextReminderDue, runDue: deliverDueReminders },
];

/** Runs whatever is due now. */
export function runDue(world: World): void {
  const now = world.now();
  for (const source of SOURCES) {
    const next = source.nextDue(world);
    if (next !== undefined && next <= now) source.runDue(world);
  }
}

/** When the next task falls due (ms since the epoch), or undefined when nothing is scheduled. */
export function nextDueAt(world: World): number | undefined {
  let next: number | undefined;
  for (const source of SOURCES) {
    const at = source.nextDue(world);
    if (at !== undefined && (next === undefined || at < next)) next = at;
  }
  return next;
}

/**
 * Moves an advancing clock forward by `ms`, stopping at each due time on the way so every task
 * runs at its own time, as the real server's always-running workers would (a scheduled message
 * jumped over by more than its late cutoff would otherwise fail).
 */
export function advanceThroughDueTasks(world: World, clock: { now(): number; advance(ms: number): void }, ms: number): void {
  const target = clock.now() + ms;
  let ranAt: number | undefined;
  for (;;) {
    const next = nextDueAt(world);
    // A task still due after a run at its time never gets done by waiting: stop stepping.
    if (next === undefined || next > target || (ranAt !== undefined && next <= ranAt)) break;
    if (next > clock.now()) clock.advance(next - clock.now());
    runDue(world);
    ranAt = clock.now();
  }
  if (target > clock.now()) clock.advance(target - clock.now());
  runDue(world);
}
