/**
 * Message reminders (spec 3.5 and 4.17; reference §4): create (FL 381, `note` FL 415), delete
 * (FL 399) and delivery as a Notification Bot DM once the clock passes the scheduled time.
 */
import { isDue, nextDue } from '../../entities/delivery-time.js';
import { badRequest, resourceNotFound } from '../../errors.js';
import type { Message } from '../../entities/message.js';
import type { Reminder } from '../../entities/realm-records.js';
import type { User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { directMessageUrl, messageLinkSyntax, silentMention, streamMessageUrl, unusedFence } from '../../rendering/message-links.js';
import { accessMessage, canReadMessage } from '../../queries/messages/messages.js';
import { toApiReminder } from '../../queries/personal/reminders.js';
import { render } from '../../rendering/render.js';
import { codePointLength, pythonRstrip, truncateText } from '../../input/topic-names.js';
import type { World } from '../../state/world.js';
import { MAX_MESSAGE_LENGTH, TRUNCATION_SUFFIX } from '../messages/messages.js';
import { sendNotificationBotMessage } from '../messages/notification-bot.js';

/**
 * `MAX_REMINDER_NOTE_LENGTH` (`max_reminder_note_length` in register). The real default was not
 * found in the sources read; 1000 is this server's choice.
 */
export const MAX_REMINDER_NOTE_LENGTH = 1000;

const DEFAULT_REALM_URL = 'http://localhost:9991';

/** Trailing whitespace and leading newlines removed, then the length limit. */
function normalizeNote(note: string): string {
  const body = pythonRstrip(note).replace(/^\n+/, '');
  if (codePointLength(body) > MAX_REMINDER_NOTE_LENGTH) {
    throw badRequest(`Maximum reminder note length: ${MAX_REMINDER_NOTE_LENGTH} characters`);
  }
  return body;
}

/** `A`, `A and B`, `A, B, and C` (the real server's display-list format is unconfirmed). */
function displayList(items: readonly string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

const mentionOf = (world: World, id: number): string => {
  const user = world.users.get(id);
  return user ? silentMention(user) : `@_**Unknown user|${id}**`;
};

/** The reminder's Markdown (reference §4.1), regenerated at delivery while the message is readable. */
export function reminderContent(world: World, message: Message, note: string, realmUrl: string): string {
  const isStream = message.recipient.kind === 'stream';
  let content = `You requested a reminder for the following ${isStream ? 'message' : 'direct message'}.`;
  if (note !== '') content += ` Note:\n > ${note}`;
  content += '\n\n';
  const who = mentionOf(world, message.senderId);
  let url: string;
  let where: string;
  if (message.recipient.kind === 'stream') {
    const name = world.streams.get(message.recipient.streamId)?.name ?? '';
    url = streamMessageUrl(realmUrl, message.recipient.streamId, name, message.recipient.topic, message.id);
    where = `in ${messageLinkSyntax(message.recipient.streamId, name, message.recipient.topic, message.id)}`;
  } else {
    const others = message.recipient.userIds.filter((id) => id !== message.senderId);
    url = directMessageUrl(realmUrl, message.recipient.userIds, message.id);
    where = `to ${displayList((others.length > 0 ? others : [message.senderId]).map((id) => mentionOf(world, id)))}`;
  }
  const widget = /^\/(poll|todo)/.exec(message.content);
  if (widget) return `${content}${who} [sent](${url}) ${widget[1] === 'poll' ? 'a poll' : 'a todo list'} ${where}.`;
  content += `${who} [said](${url}) ${where}:\n`;
  const fence = unusedFence(message.content);
  const room = MAX_MESSAGE_LENGTH - codePointLength(`${content}${fence}quote\n\n${fence}`);
  return `${content}${fence}quote\n${truncateText(message.content, room, TRUNCATION_SUFFIX)}\n${fence}`;
}

export interface ReminderRequest {
  readonly messageId: number;
  /** UNIX seconds. */
  readonly scheduledDeliveryTimestamp: number;
  readonly note: string;
}

/**
 * Schedules a reminder: the time must be strictly in the future, the message readable, the note
 * within its limit. Sends `reminders` `add` (FL 399). Returns the reminder ID.
 */
export function createReminder(world: World, user: User, request: ReminderRequest, realmUrl: string): number {
  if (request.scheduledDeliveryTimestamp * 1000 <= world.now()) throw badRequest('Scheduled delivery time must be in the future.');
  const message = accessMessage(world, user, request.messageId, { modifying: false });
  const note = request.note === '' ? '' : normalizeNote(request.note);
  const content = reminderContent(world, message, note, realmUrl);
  const reminder: Reminder = {
    id: world.ids.next('reminder'),
    userId: user.id,
    targetMessageId: message.id,
    scheduledDeliveryTimestamp: request.scheduledDeliveryTimestamp,
    note,
    content,
    renderedContent: render(world, content),
    delivered: false,
    failed: false,
    deliveredMessageId: null,
    realmUrl,
  };
  world.reminders.set(reminder.id, reminder);
  if (world.has(FEATURES.LIST_DELETE_REMINDERS)) {
    world.events.send({ type: 'reminders', op: 'add', reminders: [toApiReminder(reminder)] }, [user.id]);
  }
  return reminder.id;
}

/** Deletes one of the user's reminders (delivered ones too); 404 `Reminder does not exist`. */
export function deleteReminder(world: World, user: User, reminderId: number): void {
  const reminder = world.reminders.get(reminderId);
  if (!reminder || reminder.userId !== user.id) throw resourceNotFound('Reminder does not exist');
  world.reminders.delete(reminderId);
  world.events.send({ type: 'reminders', op: 'remove', reminder_id: reminderId }, [user.id]);
}

/** When the next reminder falls due (ms), or undefined. */
export function nextReminderDue(world: World): number | undefined {
  return nextDue(world.reminders.values());
}

/**
 * Delivers every due reminder as a Notification Bot DM, then tells the owner it is no longer
 * pending (`reminders`/`remove`, the real server's `notify_remove_reminder` in `send_reminder`).
 * A failed send marks it `failed`, with no event (reminders have no failure notice).
 */
export function deliverDueReminders(world: World): void {
  const due = [...world.reminders.values()].filter((r) => isDue(world.now(), r));
  due.sort((a, b) => a.scheduledDeliveryTimestamp - b.scheduledDeliveryTimestamp || a.id - b.id);
  for (const reminder of due) {
    const user = world.users.get(reminder.userId);
    const target = world.messages.get(reminder.targetMessageId);
    if (user && target && canReadMessage(world, user, target)) {
      reminder.content = reminderContent(world, target, reminder.note, reminder.realmUrl ?? world.realm.url ?? DEFAULT_REALM_URL);
      reminder.renderedContent = render(world, reminder.content);
    }
    const sent = user?.isActive ? sendNotificationBotMessage(world, { kind: 'direct', userId: user.id }, reminder.content) : null;
    if (sent) {
      reminder.delivered = true;
      reminder.deliveredMessageId = sent.id;
      if (world.has(FEATURES.LIST_DELETE_REMINDERS)) {
        world.events.send({ type: 'reminders', op: 'remove', reminder_id: reminder.id }, [reminder.userId]);
      }
    } else {
      reminder.failed = true;
    }
  }
}
