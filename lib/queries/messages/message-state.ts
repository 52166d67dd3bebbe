/** The `message` register state: `max_message_id`. */
import type { User } from '../../entities/user.js';
import type { World } from '../../state/world.js';

/** The `message` state function: the highest ID among messages the user received (-1 if none). */
export function messageState(world: World, user: User): Record<string, unknown> {
  let max = -1;
  for (const message of world.messages.values()) if (message.flags.has(user.id) && message.id > max) max = message.id;
  return { max_message_id: max };
}
