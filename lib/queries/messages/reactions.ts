/** Reactions as the API shows them: in message objects and in `reaction` events. */
import type { Message, Reaction } from '../../entities/message.js';
import type { ChatEvent } from '../../state/event-hub.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';
import { apiEmail } from '../users/users.js';

/**
 * A message's `reactions` list, in the order they were added: emoji name, code and type and the
 * reacting `user_id` (level 2); before level 328 also the legacy `user` object.
 */
export function reactionsToApi(world: World, message: Message): Record<string, unknown>[] {
  return message.reactions.map((reaction) => {
    const out: Record<string, unknown> = {
      emoji_name: reaction.emojiName,
      emoji_code: reaction.emojiCode,
      reaction_type: reaction.reactionType,
      user_id: reaction.userId,
    };
    if (!world.has(FEATURES.REACTION_USER_OBJECT_REMOVED)) {
      const user = world.users.get(reaction.userId);
      out.user = { id: reaction.userId, email: user ? apiEmail(world, user) : '', full_name: user?.fullName ?? '', is_mirror_dummy: false };
    }
    return out;
  });
}

/**
 * The `reaction` event: the reacting user's ID, the message and the emoji; the legacy `user`
 * object (user_id, email, full_name) except between levels 328 and 338, where it was gone.
 */
export function reactionEvent(world: World, op: 'add' | 'remove', message: Message, reaction: Reaction): ChatEvent {
  const event: { type: string; [key: string]: unknown } = { type: 'reaction', op, user_id: reaction.userId };
  const withUser = !world.has(FEATURES.REACTION_USER_OBJECT_REMOVED) || world.has(FEATURES.REACTION_EVENT_USER_RESTORED);
  const user = world.users.get(reaction.userId);
  if (withUser) event.user = { user_id: reaction.userId, email: user ? apiEmail(world, user) : '', full_name: user?.fullName ?? '' };
  event.message_id = message.id;
  event.emoji_name = reaction.emojiName;
  event.emoji_code = reaction.emojiCode;
  event.reaction_type = reaction.reactionType;
  return event;
}
