/** Reading scheduled messages: the API object (OpenAPI `ScheduledMessage`) and a user's pending list. */
import type { ScheduledMessage } from '../../entities/scheduled-message.js';
import type { User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { resourceNotFound } from '../../errors.js';
import type { World } from '../../state/world.js';

/** The recipients the API names: the channel ID, or the other participants (the sender alone for a DM to self). */
export function scheduledRecipientIds(message: ScheduledMessage): number[] {
  if (message.recipient.kind === 'stream') return [message.recipient.streamId];
  const others = message.recipient.userIds.filter((id) => id !== message.senderId);
  return others.length > 0 ? others : [message.senderId];
}

/** `{scheduled_message_id, type, to, topic?, content, rendered_content, scheduled_delivery_timestamp, failed}`. */
export function toApiScheduledMessage(world: World, message: ScheduledMessage): Record<string, unknown> {
  const isStream = message.recipient.kind === 'stream';
  return {
    scheduled_message_id: message.id,
    type: isStream ? 'stream' : 'private',
    to: isStream ? scheduledRecipientIds(message)[0] : scheduledRecipientIds(message),
    ...(message.recipient.kind === 'stream' ? { topic: message.recipient.topic } : {}),
    content: message.content,
    rendered_content: message.renderedContent,
    scheduled_delivery_timestamp: message.scheduledDeliveryTimestamp,
    ...(world.has(FEATURES.SCHEDULED_MESSAGE_FAILED) ? { failed: message.failed } : {}),
  };
}

/** The user's undelivered scheduled messages (failed ones included), by delivery time, then ID. */
export function pendingScheduledMessages(world: World, user: User): ScheduledMessage[] {
  return [...world.scheduledMessages.values()]
    .filter((m) => m.senderId === user.id && !m.delivered)
    .sort((a, b) => a.scheduledDeliveryTimestamp - b.scheduledDeliveryTimestamp || a.id - b.id);
}

/** The `scheduled_messages` value of `POST /register` and of `GET /scheduled_messages`. */
export function scheduledMessagesState(world: World, user: User): Array<Record<string, unknown>> {
  return pendingScheduledMessages(world, user).map((m) => toApiScheduledMessage(world, m));
}

/** `access_scheduled_message`: the user's own, delivered or not; 404 otherwise. */
export function ownScheduledMessage(world: World, user: User, id: number): ScheduledMessage {
  const message = world.scheduledMessages.get(id);
  if (!message || message.senderId !== user.id) throw resourceNotFound('Scheduled message does not exist');
  return message;
}
