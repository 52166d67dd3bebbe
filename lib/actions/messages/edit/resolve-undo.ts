/**
 * Undoing a resolve (or an unresolve) quickly, as the real server's
 * `maybe_delete_previous_resolve_topic_notification` (zerver/actions/message_edit.py): when the
 * topic's last message is a resolve or unresolve notice sent within the grace period, that
 * notice is deleted and no new one is posted.
 */
import type { Message } from '../../../entities/message.js';
import type { User } from '../../../entities/user.js';
import type { World } from '../../../state/world.js';
import { deleteMessages } from '../message-delete.js';
import { notificationBot } from '../notification-bot.js';

/** `RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS` as a production server has it (development servers use 5). */
export const RESOLVE_UNDO_GRACE_PERIOD_MS = 60_000;

const RESOLVE_NOTICE = /^@_\*\*[^*]+\*\* has marked this topic as (?:un)?resolved\.$/;

function lastMessageOfTopic(world: World, streamId: number, topic: string): Message | undefined {
  const last = world.messages.index.topic(streamId, topic).atMost(Number.MAX_SAFE_INTEGER);
  return last === undefined ? undefined : world.messages.get(last);
}

/** Deletes a recent resolve notice ending the topic; returns whether it did. */
export function undoRecentResolveNotice(world: World, user: User, streamId: number, topic: string): boolean {
  const last = lastMessageOfTopic(world, streamId, topic);
  if (!last || last.senderId !== notificationBot(world).id || !RESOLVE_NOTICE.test(last.content)) return false;
  if (world.now() - last.sentAt > RESOLVE_UNDO_GRACE_PERIOD_MS) return false;
  deleteMessages(world, [last], user);
  return true;
}
