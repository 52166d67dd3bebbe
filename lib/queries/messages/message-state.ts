/** The `message` register state: `max_message_id`. */
import type { User } from '../../entities/user.js';
import type { World } from '../../state/world.js';

/** The highest ID among messages the user received (-1 if none), from the user's received list. */
export function maxReceivedMessageId(world: World, user: User): number {
  return world.messages.index.user(user.id, 'received').atMost(Number.MAX_SAFE_INTEGER) ?? -1;
}

/** The `message` state function: the highest ID among messages the user received (-1 if none). */
export function messageState(world: World, user: User): Record<string, unknown> {
  return { max_message_id: maxReceivedMessageId(world, user) };
}
