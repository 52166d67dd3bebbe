/**
 * Delivering scheduled messages when the clock passes their time (`try_deliver_one_scheduled_message`):
 * the message is checked again as if sent now, then sent; a failure marks it `failed`, tells the
 * sender's clients (`scheduled_messages`/`update`) and sends them a Notification Bot notice.
 */
import { isDue, nextDue } from '../../entities/delivery-time.js';
import { ApiError, badRequest } from '../../errors.js';
import type { ScheduledMessage } from '../../entities/scheduled-message.js';
import type { User } from '../../entities/user.js';
import { toApiScheduledMessage } from '../../queries/messages/scheduled-messages.js';
import type { World } from '../../state/world.js';
import { type Addressee, checkMessage } from './message-send.js';
import { deliverMessage } from './messages.js';
import { sendNotificationBotMessage } from './notification-bot.js';

/** `SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES`: later than this past its time, a message is not sent. */
export const LATE_CUTOFF_SECONDS = 10 * 60;

/** When the next scheduled message falls due (ms), or undefined. */
export function nextScheduledMessageDue(world: World): number | undefined {
  return nextDue(world.scheduledMessages.values());
}

/**
 * The delivery time as the real notice writes it: Python's `str()` of the stored UTC datetime
 * (`2026-11-26 19:02:06+00:00`, whole seconds) in global time syntax, followed by a space that the
 * sentence's own space doubles.
 */
const globalTime = (seconds: number): string => `<time:${new Date(seconds * 1000).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, '+00:00')}> `;

function failureNotice(message: ScheduledMessage): string {
  return [
    `The message you scheduled for ${globalTime(message.scheduledDeliveryTimestamp)} was not sent because of the following error:`,
    `> ${message.failureMessage ?? ''}`,
    '[View scheduled messages](#scheduled)',
  ].join('\n\n');
}

/** `send_scheduled_message`: lateness, then the send checks as of now. Throws the ApiError that stops it. */
function send(world: World, sender: User, message: ScheduledMessage): number {
  if (world.now() > (message.scheduledDeliveryTimestamp + LATE_CUTOFF_SECONDS) * 1000) {
    throw badRequest('Message could not be sent at the scheduled time.');
  }
  const addressee: Addressee =
    message.recipient.kind === 'stream'
      ? { kind: 'stream', indicator: message.recipient.streamId, topic: message.recipient.topic }
      : { kind: 'direct', to: message.recipient.userIds };
  const checked = checkMessage(world, sender, addressee, message.content);
  const sent = deliverMessage(world, {
    sender,
    recipient: checked.recipient,
    content: checked.content,
    rendered: checked.rendered,
    client: message.client,
    readBy: new Set(message.readBySender ? [sender.id] : []),
  });
  return sent.id;
}

/** Delivers every due scheduled message, earliest first. */
export function deliverDueScheduledMessages(world: World): void {
  const due = [...world.scheduledMessages.values()].filter((m) => isDue(world.now(), m));
  due.sort((a, b) => a.scheduledDeliveryTimestamp - b.scheduledDeliveryTimestamp || a.id - b.id);
  for (const message of due) {
    const sender = world.users.get(message.senderId);
    if (!sender?.isActive) {
      // A deactivated sender gets no notice (`UserDeactivatedError`).
      message.failed = true;
      message.failureMessage = 'Account is deactivated.';
      continue;
    }
    try {
      message.deliveredMessageId = send(world, sender, message);
      message.delivered = true;
      world.events.send({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: message.id }, [sender.id]);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      message.failed = true;
      message.failureMessage = error.message;
      world.events.send({ type: 'scheduled_messages', op: 'update', scheduled_message: toApiScheduledMessage(world, message) }, [sender.id]);
      sendNotificationBotMessage(world, { kind: 'direct', userId: sender.id }, failureNotice(message));
    }
  }
}
