/**
 * The world's due-task runner: everything that happens because time passed (reminder delivery,
 * spec 3.5). `runDue` is idempotent and cheap when nothing is due; the server calls it before
 * each request, when a manual clock advances, and from a timer armed for `nextDueAt`.
 */
import { deliverDueReminders, nextReminderDue } from './personal/reminders.js';
import type { World } from '../state/world.js';

interface DueSource {
  /** Milliseconds since the epoch of the next task, or undefined. */
  nextDue(world: World): number | undefined;
  /** Runs every task due at `world.now()`. */
  runDue(world: World): void;
}

/** Kinds of timed work, in the order they run. */
const SOURCES: readonly DueSource[] = [{ nextDue: nextReminderDue, runDue: deliverDueReminders }];

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
