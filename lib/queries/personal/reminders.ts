/** Reading reminders: the API object (OpenAPI get-reminders `Reminder`) and a user's pending list. */
import type { Reminder } from '../../entities/realm-records.js';
import type { User } from '../../entities/user.js';
import type { World } from '../../state/world.js';

/** `{reminder_id, type, to, content, rendered_content, scheduled_delivery_timestamp, failed, reminder_target_message_id}`. */
export function toApiReminder(reminder: Reminder): Record<string, unknown> {
  return {
    reminder_id: reminder.id,
    type: 'private',
    to: [reminder.userId],
    content: reminder.content,
    rendered_content: reminder.renderedContent,
    scheduled_delivery_timestamp: reminder.scheduledDeliveryTimestamp,
    failed: reminder.failed,
    reminder_target_message_id: reminder.targetMessageId,
  };
}

/** The user's undelivered reminders (failed ones included), by delivery time, then ID. */
export function pendingReminders(world: World, user: User): Reminder[] {
  return [...world.reminders.values()]
    .filter((r) => r.userId === user.id && !r.delivered)
    .sort((a, b) => a.scheduledDeliveryTimestamp - b.scheduledDeliveryTimestamp || a.id - b.id);
}

/** The `reminders` value of `POST /register` (and the list of `GET /reminders`). */
export function remindersState(world: World, user: User): Array<Record<string, unknown>> {
  return pendingReminders(world, user).map(toApiReminder);
}
