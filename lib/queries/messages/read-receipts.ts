/**
 * `GET /messages/{message_id}/read_receipts` (level 137): who has read a message, as the real
 * server's read-receipts view answers it.
 */
import { realmProperty } from '../../settings/realm-properties.js';
import { boolSetting, type User } from '../../entities/user.js';
import { badRequest } from '../../errors.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';
import { canReadMessage, INVALID_MESSAGE } from './messages.js';

/**
 * The users with a read row for the message: active, sending read receipts, not the sender, and
 * neither muted by the requester nor muting the requester (as the real server's view leaves them
 * out). The message must be readable (from level 360 also in an archived channel) and the realm
 * must have read receipts on.
 */
export function readReceipts(world: World, user: User, messageId: number): number[] {
  const message = world.messages.get(messageId);
  if (!message || !canReadMessage(world, user, message)) throw badRequest(INVALID_MESSAGE);
  const stream = message.recipient.kind === 'stream' ? world.streams.get(message.recipient.streamId) : undefined;
  if (stream?.isArchived && !world.has(FEATURES.ARCHIVED_READ_RECEIPTS)) throw badRequest(INVALID_MESSAGE);
  if (realmProperty(world, 'enable_read_receipts') === false) throw badRequest('Read receipts are disabled in this organization.');
  const mutes = (muter: number, muted: number): boolean => world.mutedUsers.get(muter)?.some((entry) => entry.id === muted) === true;
  const ids: number[] = [];
  for (const [userId, flags] of message.flags) {
    const reader = world.users.get(userId);
    if (!reader?.isActive || userId === message.senderId || !flags.has('read')) continue;
    if (!boolSetting(reader, 'send_read_receipts')) continue;
    if (mutes(user.id, userId) || mutes(userId, user.id)) continue;
    ids.push(userId);
  }
  return ids.sort((a, b) => a - b);
}
