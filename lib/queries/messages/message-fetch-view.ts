/**
 * The message objects of `GET /messages`: the `MessagesBase` shape with the reader's `flags`,
 * the message's `reactions`, and for searches the highlighted `match_content` / `match_subject`.
 */
import type { Message, Reaction } from '../../entities/message.js';
import type { User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { searchFields, type SearchQuery } from '../../narrow/search.js';
import type { World } from '../../state/world.js';
import { flagsFor, toApiMessage, type MessageView } from './messages.js';
import { apiEmail } from '../users/users.js';

/** A reaction as the API lists it: `user_id` from level 2, and the deprecated `user` object old clients still read. */
export function apiReaction(world: World, reaction: Reaction): Record<string, unknown> {
  const user = world.users.get(reaction.userId);
  return {
    emoji_name: reaction.emojiName,
    emoji_code: reaction.emojiCode,
    reaction_type: reaction.reactionType,
    ...(world.has(FEATURES.REACTION_USER_ID) ? { user_id: reaction.userId } : {}),
    user: {
      email: user ? apiEmail(world, user) : '',
      full_name: user?.fullName ?? '',
      id: reaction.userId,
      is_mirror_dummy: false,
    },
  };
}

export interface FetchView extends Omit<MessageView, 'includeEditHistory'> {
  /** The joined search query when the narrow searched; adds the highlighting fields. */
  readonly search: SearchQuery | undefined;
}

/**
 * API objects for fetched messages. Spectators see every message as `read`; readers see their
 * own flags, or `read` and `historical` for messages they never received.
 */
export function fetchedMessages(world: World, viewer: User | null, messages: readonly Message[], view: FetchView): Record<string, unknown>[] {
  return messages.map((message) => {
    const body = toApiMessage(world, message, { ...view, includeEditHistory: false });
    body.reactions = message.reactions.map((reaction) => apiReaction(world, reaction));
    body.flags = viewer === null ? ['read'] : flagsFor(message, viewer.id);
    if (view.search) {
      const topic = message.recipient.kind === 'stream' ? message.recipient.topic : '';
      Object.assign(body, searchFields(view.search, topic, message.renderedContent));
    }
    return body;
  });
}
