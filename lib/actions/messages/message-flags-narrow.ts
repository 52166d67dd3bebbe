/**
 * Changing a user's personal flags on a set of messages, as `POST /messages/flags/narrow` does
 * (the real server's `do_update_message_flags`): the flag and operation are validated first,
 * messages the user never received get a historical row, and one `update_message_flags` event
 * (the shape `addFlag` sends) goes to the user, listing the messages whose flag changed.
 */
import { badRequest } from '../../errors.js';
import type { FlagRow, Message } from '../../entities/message.js';
import type { User } from '../../entities/user.js';
import { isSubscribed } from '../../queries/users/access.js';
import { accessMessage } from '../../queries/messages/messages.js';
import type { World } from '../../state/world.js';

/** Flags a user may change through the API. */
export const EDITABLE_FLAGS: readonly string[] = ['read', 'starred', 'collapsed'];
/** Flags the API knows but the server alone sets. */
const SERVER_FLAGS = ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'group_mentioned', 'has_alert_word', 'historical'];
const MENTION_FLAGS = ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'group_mentioned'];

export type FlagOperation = 'add' | 'remove';

/** Refuses unknown and server-managed flags, then unknown operations, with the real texts. */
export function checkFlagChange(flag: string, operation: string): FlagOperation {
  if (!EDITABLE_FLAGS.includes(flag) && !SERVER_FLAGS.includes(flag)) throw badRequest(`Invalid flag: '${flag}'`);
  if (!EDITABLE_FLAGS.includes(flag)) throw badRequest(`Flag not editable: '${flag}'`);
  if (operation !== 'add' && operation !== 'remove') throw badRequest(`Invalid message flag operation: '${operation}'`);
  return operation;
}

/** What a client needs to put a message back among its unread ones (`message_details`). */
function unreadDetails(world: World, user: User, message: Message): Record<string, unknown> {
  const flags = message.flags.get(user.id) ?? new Set<string>();
  const details: Record<string, unknown> =
    message.recipient.kind === 'stream'
      ? {
          type: 'stream',
          stream_id: message.recipient.streamId,
          topic: message.recipient.topic,
          unmuted_stream_msg: world.subscriptions.get(message.recipient.streamId)?.get(user.id)?.isMuted !== true,
        }
      : { type: 'private', user_ids: message.recipient.userIds.filter((id) => id !== user.id) };
  if (MENTION_FLAGS.some((flag) => flags.has(flag))) details.mentioned = true;
  return details;
}

/**
 * Adds or removes `flag` on the user's rows of `messages` (in ascending ID order). Marking
 * unread skips channel messages outside the user's current subscriptions. Returns the number
 * of existing rows changed (`updated_count`); rows created for historical messages are not counted.
 */
export function updateFlagForMessages(world: World, user: User, messages: readonly Message[], operation: FlagOperation, flag: string): number {
  const adding = operation === 'add';
  const targets = messages.filter(
    (m) => adding || flag !== 'read' || m.recipient.kind !== 'stream' || isSubscribed(world, user.id, m.recipient.streamId),
  );
  const historical = targets.filter((m) => !m.flags.has(user.id));
  for (const message of historical) accessMessage(world, user, message.id, { modifying: false });

  const changed: Message[] = [];
  let updated = 0;
  for (const message of targets) {
    let row = message.flags.get(user.id);
    const existed = row !== undefined;
    // A historical message was shown as read and historical: its new row starts from that.
    if (!row) row = message.flags.set(user.id, ['read', 'historical']).get(user.id) as FlagRow;
    if (row.has(flag) === adding) continue;
    if (adding) row.add(flag);
    else row.delete(flag);
    if (existed) updated++;
    changed.push(message);
  }
  if (changed.length > 0) {
    const details =
      flag === 'read' && !adding
        ? { message_details: Object.fromEntries(changed.map((m) => [String(m.id), unreadDetails(world, user, m)])) }
        : {};
    const messages = changed.map((m) => m.id);
    world.events.send({ type: 'update_message_flags', op: operation, operation, flag, messages, all: false, ...details }, [user.id]);
  }
  return updated;
}
