/**
 * Messages from Notification Bot (`notification-bot@zulip.com`, a cross-realm system bot):
 * report notices, reminders, move breadcrumbs, and whatever other features announce.
 * Like the real server's internal sends, a message that cannot be posted (archived channel,
 * topics policy, empty content) is dropped instead of failing the action that triggered it.
 */
import { ApiError } from '../../errors.js';
import type { Message } from '../../entities/message.js';
import type { User } from '../../entities/user.js';
import { checkTopicsPolicy, truncateTopic } from '../../input/topic-names.js';
import type { World } from '../../state/world.js';
import { deliverMessage, normalizeContent } from './messages.js';

export const NOTIFICATION_BOT_EMAIL = 'notification-bot@zulip.com';

export type BotRecipient =
  | { readonly kind: 'stream'; readonly streamId: number; readonly topic: string }
  | { readonly kind: 'direct'; readonly userId: number };

export interface BotMessageOptions {
  /** Users for whom the new message starts as read (the acting user of a move, ...). */
  readonly readBy?: readonly number[];
  /** Post even to an archived channel (the notice that a channel was archived). */
  readonly allowArchived?: boolean;
}

/** The Notification Bot user; the dev realm fixture has it (ID 4). */
export function notificationBot(world: World): User {
  const bot = world.usersByEmail.get(NOTIFICATION_BOT_EMAIL);
  if (!bot || !bot.isSystemBot) throw new Error('the world has no Notification Bot');
  return bot;
}

/**
 * Posts `content` (Markdown) as Notification Bot to a channel topic or as a DM to one user.
 * Returns the message, or null when the real server would have dropped it.
 */
export function sendNotificationBotMessage(
  world: World,
  recipient: BotRecipient,
  content: string,
  options: BotMessageOptions = {},
): Message | null {
  const bot = notificationBot(world);
  let body: string;
  try {
    body = normalizeContent(content);
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
  const readBy = new Set(options.readBy ?? []);
  if (recipient.kind === 'direct') {
    const user = world.users.get(recipient.userId);
    if (!user || !user.isActive) return null;
    const userIds = [bot.id, user.id].sort((a, b) => a - b);
    return deliverMessage(world, { sender: bot, recipient: { kind: 'direct', userIds }, content: body, client: 'Internal', readBy });
  }
  const stream = world.streams.get(recipient.streamId);
  if (!stream || (stream.isArchived && !options.allowArchived)) return null;
  const topic = truncateTopic(recipient.topic);
  try {
    checkTopicsPolicy(world, stream, topic);
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
  return deliverMessage(world, {
    sender: bot,
    recipient: { kind: 'stream', streamId: stream.id, topic },
    content: body,
    client: 'Internal',
    readBy,
  });
}
