/**
 * Emoji reactions (`POST`/`DELETE /messages/{message_id}/reactions`), with the real server's
 * checks in its order: message access, emoji lookup, already reacted / not reacted, emoji
 * validity; then the change and a `reaction` event to everyone who may read the message.
 */
import { checkEmoji, emojiDataByName } from '../../input/emoji.js';
import type { Message, Reaction } from '../../entities/message.js';
import type { User } from '../../entities/user.js';
import { ApiError, badRequest } from '../../errors.js';
import { FEATURES } from '../../features/feature-levels.js';
import { actionAudience, ensureHistoricalRow } from '../../queries/messages/message-audience.js';
import { accessMessage } from '../../queries/messages/messages.js';
import { reactionEvent } from '../../queries/messages/reactions.js';
import { followTopicOnReaction } from './policies/topic-participation.js';
import type { World } from '../../state/world.js';

export interface AddReactionRequest {
  readonly emojiName: string;
  readonly emojiCode: string | undefined;
  readonly reactionType: string | undefined;
}

export interface RemoveReactionRequest {
  readonly emojiName: string | undefined;
  readonly emojiCode: string | undefined;
  readonly reactionType: string;
}

/** The dedicated codes exist from level 193; before, both errors were BAD_REQUEST. */
const reactionError = (world: World, code: string, msg: string): ApiError =>
  world.has(FEATURES.REACTION_ERROR_CODES) ? new ApiError(code, 400, msg) : badRequest(msg);

const findReaction = (message: Message, userId: number | null, code: string, type: string): Reaction | undefined =>
  message.reactions.find((r) => (userId === null || r.userId === userId) && r.emojiCode === code && r.reactionType === type);

/**
 * Adds the user's reaction. A missing code or type is looked up from the name (custom emoji
 * first). Reacting with an emoji someone already used is a vote for it: that reaction's name is
 * kept and the emoji is not validated again (it may since have been deactivated).
 */
export function addReaction(world: World, user: User, messageId: number, request: AddReactionRequest): void {
  const message = accessMessage(world, user, messageId, { modifying: true });
  let code = request.emojiCode;
  // The type is taken as sent: the description's `service_extra_emoji` status alias is not a
  // reaction type on the real server (`check_emoji_request`: `Invalid emoji type.`).
  let type = request.reactionType;
  if (code === undefined || type === undefined) {
    const data = emojiDataByName(world, request.emojiName);
    code ??= data.emojiCode;
    type ??= data.reactionType;
  }
  if (findReaction(message, user.id, code, type)) throw reactionError(world, 'REACTION_ALREADY_EXISTS', 'Reaction already exists.');
  const existing = findReaction(message, null, code, type);
  if (!existing) checkEmoji(world, request.emojiName, code, type);
  const reaction: Reaction = { userId: user.id, emojiName: existing?.emojiName ?? request.emojiName, emojiCode: code, reactionType: type };
  ensureHistoricalRow(message, user.id);
  message.reactions.push(reaction);
  followTopicOnReaction(world, user, message);
  world.events.send(reactionEvent(world, 'add', message, reaction), actionAudience(world, [message]));
}

/**
 * Removes the user's reaction, named by code (or by name, looked up in today's emoji) and type
 * (default `unicode_emoji`). The emoji is not validated: it may have been deactivated since.
 */
export function removeReaction(world: World, user: User, messageId: number, request: RemoveReactionRequest): void {
  const message = accessMessage(world, user, messageId, { modifying: true });
  let code = request.emojiCode;
  if (code === undefined) {
    if (request.emojiName === undefined) throw badRequest('At least one of the following arguments must be present: emoji_name, emoji_code');
    code = emojiDataByName(world, request.emojiName).emojiCode;
  }
  const reaction = findReaction(message, user.id, code, request.reactionType);
  if (!reaction) throw reactionError(world, 'REACTION_DOES_NOT_EXIST', "Reaction doesn't exist.");
  message.reactions.splice(message.reactions.indexOf(reaction), 1);
  world.events.send(reactionEvent(world, 'remove', message, reaction), actionAudience(world, [message]));
}
