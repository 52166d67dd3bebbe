/**
 * `GET /__dev/clock` reads the world's time; `POST /__dev/clock/advance` moves it forward. The
 * development server runs on a ShiftedClock (real time until advanced), so everything that reads
 * the world's clock follows: reminders and scheduled messages fall due (each delivered at its own
 * time on the way), edit, move and
 * delete time limits pass, presence goes idle, upload tokens and idle event queues expire.
 * Time never goes back: a clock only moves forward.
 */
import { advanceThroughDueTasks } from '../../lib/actions/scheduler.js';
import { AdvancingClock, type Clock, ManualClock, ShiftedClock } from '../../lib/state/clock.js';
import type { DevRoute } from './control.js';
import { DevRequestError, devSuccess, JsonFields } from './dev-json.js';

/** Ten years: far enough for any time limit, near enough to stay a safe integer of milliseconds. */
const MAX_ADVANCE_SECONDS = 10 * 366 * 86_400;

function kindOf(clock: Clock): string {
  if (clock instanceof ShiftedClock) return 'real time';
  if (clock instanceof ManualClock) return 'manual';
  return 'fixed by the library user';
}

function clockJson(clock: Clock): Record<string, unknown> {
  const now = clock.now();
  return {
    now_ms: now,
    now: new Date(now).toISOString(),
    kind: kindOf(clock),
    advanced_ms: clock instanceof ShiftedClock ? clock.advancedMs : null,
    can_advance: clock instanceof AdvancingClock,
  };
}

export const clockRoutes: readonly DevRoute[] = [
  { path: '/__dev/clock', methods: { GET: (_request, control) => devSuccess(clockJson(control.app().world.clock)) } },
  {
    path: '/__dev/clock/advance',
    methods: {
      POST: (request, control) => {
        const fields = JsonFields.of(request);
        const seconds = fields.number('seconds', 0, MAX_ADVANCE_SECONDS, false);
        fields.finish();
        if (seconds === undefined) throw new DevRequestError(400, 'seconds is required');
        const { clock } = control.app().world;
        if (!(clock instanceof AdvancingClock)) throw new DevRequestError(400, "this server's clock was given to startServer and cannot be advanced (give a ManualClock)");
        advanceThroughDueTasks(control.app().world, clock, Math.round(seconds * 1000));
        return devSuccess(clockJson(clock));
      },
    },
  },
];
