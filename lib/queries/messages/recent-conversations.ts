/**
 * `recent_private_conversations` of `POST /register`, as the real server's
 * `get_recent_private_conversations` (zerver/lib/message.py) and `post_process_state` build it:
 * the direct-message conversations among the user's 1000 most recent direct messages, each with
 * its newest message ID and the other participants (none for messages to oneself), newest first.
 */
import type { User } from '../../entities/user.js';
import type { World } from '../../state/world.js';

/** The real server's `RECENT_CONVERSATIONS_LIMIT`. */
export const RECENT_CONVERSATIONS_LIMIT = 1000;

export interface RecentConversation {
  readonly max_message_id: number;
  readonly user_ids: number[];
}

export function recentPrivateConversations(world: World, user: User): RecentConversation[] {
  const received: { id: number; participants: readonly number[] }[] = [];
  for (const message of world.messages.values()) {
    if (message.recipient.kind !== 'direct' || !message.flags.has(user.id)) continue;
    received.push({ id: message.id, participants: message.recipient.userIds });
  }
  received.sort((a, b) => b.id - a.id);
  const byConversation = new Map<string, RecentConversation>();
  for (const { id, participants } of received.slice(0, RECENT_CONVERSATIONS_LIMIT)) {
    const others = participants.filter((userId) => userId !== user.id).sort((a, b) => a - b);
    const key = others.join(',');
    if (!byConversation.has(key)) byConversation.set(key, { max_message_id: id, user_ids: others });
  }
  return [...byConversation.values()];
}
