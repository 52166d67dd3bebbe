/** `reminders` events: the user's undelivered reminders, keyed by `reminder_id`. */
import { defineReducer, listOf, type State, unknownOp } from './registry.js';

defineReducer('reminders', (state, event) => {
  const reminders = listOf(state, 'reminders');
  if (!reminders) return;
  if (event.op === 'add') {
    for (const reminder of event.reminders as State[]) {
      const at = reminders.findIndex((r) => r.reminder_id === reminder.reminder_id);
      if (at >= 0) reminders[at] = reminder;
      else reminders.push(reminder);
    }
  } else if (event.op === 'remove') {
    const at = reminders.findIndex((r) => r.reminder_id === event.reminder_id);
    if (at >= 0) reminders.splice(at, 1);
  } else unknownOp(event);
});
