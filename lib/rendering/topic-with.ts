/**
 * The `/with/` operand of a topic link (`#**channel>topic**`): a message of the topic, so the link
 * follows the topic when it moves. From level 347 the real server names the topic's oldest
 * message, from level 400 its latest (zerver/lib/mention.py `get_topic_info_map`, zerver/lib/
 * topic.py; api_docs/changelog.md 347 and 400). The messages considered are those the acting
 * user (the sender) can read: the whole topic when the channel's history is public to its
 * subscribers, else the user's own received messages; with no acting user, only a channel with
 * public history gets an operand. One lookup in the topic's sorted ID list, never a walk.
 */
import type { User } from '../entities/user.js';
import { FEATURES } from '../features.js';
import { hasContentAccess } from '../queries/users/access.js';
import type { IdSource } from '../state/history/id-list.js';
import { intersectionOf } from '../state/history/id-sources.js';
import type { World } from '../state/world.js';

export function topicLinkMessageId(world: World, actingUser: User | undefined, streamId: number, topic: string): number | undefined {
  if (!world.has(FEATURES.TOPIC_LINK_WITH)) return undefined;
  const stream = world.streams.get(streamId);
  if (!stream) return undefined;
  if (actingUser !== undefined && !hasContentAccess(world, actingUser, stream)) return undefined;
  const index = world.messages.index;
  let messages: IdSource = index.topic(streamId, topic);
  if (!stream.historyPublicToSubscribers) {
    if (actingUser === undefined) return undefined;
    messages = intersectionOf([messages, index.user(actingUser.id, 'received')]);
  }
  return world.has(FEATURES.TOPIC_LINK_WITH_LATEST) ? messages.atMost(Number.MAX_SAFE_INTEGER) : messages.atLeast(0);
}
