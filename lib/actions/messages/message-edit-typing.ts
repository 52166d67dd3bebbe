/**
 * Typing while editing a message (level 351; `POST /message_edit_typing` until 360, then
 * `POST /messages/{message_id}/typing`): the real server's checks, then `typing_edit_message`
 * events to the conversation's users who receive typing notifications.
 */
import type { Message } from '../../entities/message.js';
import { boolSetting, type User } from '../../entities/user.js';
import { badRequest } from '../../errors.js';
import { activeSubscriberIds } from '../../queries/users/access.js';
import { accessMessage } from '../../queries/messages/messages.js';
import type { World } from '../../state/world.js';
import { MAX_CHANNEL_SIZE_FOR_TYPING } from './typing.js';

/** `validate_user_can_edit_message` without the grace period edits get. */
function checkCanEdit(world: World, user: User, message: Message): void {
  if (!world.realm.allowMessageEditing) throw badRequest('Your organization has turned off message editing');
  if (message.senderId !== user.id) throw badRequest("You don't have permission to edit this message");
  const limit = world.realm.messageContentEditLimitSeconds;
  if (limit !== null && world.now() - message.sentAt > limit * 1000) throw badRequest('The time limit for editing this message has passed');
}

const receives = (world: World, userId: number): boolean => {
  const user = world.users.get(userId);
  return user !== undefined && user.isActive && boolSetting(user, 'receives_typing_notifications');
};

/**
 * Sends `typing_edit_message` for a message the user may edit. Channel messages go to the
 * channel's subscribers (none in channels over 100 subscribers), direct messages to the
 * participants; each needs the user's setting for that kind of typing notification.
 */
export function sendEditTyping(world: World, user: User, messageId: number, op: 'start' | 'stop'): void {
  const message = accessMessage(world, user, messageId, { modifying: true });
  checkCanEdit(world, user, message);
  const base = { type: 'typing_edit_message', op, sender_id: user.id, message_id: message.id };
  if (message.recipient.kind === 'stream') {
    if (!boolSetting(user, 'send_stream_typing_notifications')) throw badRequest('User has disabled typing notifications for channel messages');
    const subscribers = activeSubscriberIds(world, message.recipient.streamId);
    if (subscribers.length > MAX_CHANNEL_SIZE_FOR_TYPING) return;
    const recipient = { type: 'channel', channel_id: message.recipient.streamId, topic: message.recipient.topic };
    world.events.send({ ...base, recipient }, subscribers.filter((id) => receives(world, id)));
    return;
  }
  if (!boolSetting(user, 'send_private_typing_notifications')) throw badRequest('User has disabled typing notifications for direct messages');
  const participants = message.recipient.userIds;
  // One-on-one conversations list the editor first, as the real server's personal recipients do.
  const userIds = participants.length <= 2 ? [user.id, participants.find((id) => id !== user.id) ?? user.id] : [...participants];
  world.events.send({ ...base, recipient: { type: 'direct', user_ids: userIds } }, [...new Set(userIds)].filter((id) => receives(world, id)));
}
