/**
 * The `/with/` operand of a topic link (`#**channel>topic**`): a message of the topic, so the link
 * follows the topic when it moves. From level 347 the real server names the topic's oldest
 * message, from level 400 its latest (zerver/lib/mention.py `get_topic_info_map`, zerver/lib/
 * topic.py; api_docs/changelog.md 347 and 400). Only messages the acting user (the sender) can
 * read count; who that is and what they read is the caller's (`ReadableTopic`), since access is a
 * query of a layer above this one. One lookup in the topic's sorted ID list, never a walk.
 */
import type { Stream } from '../entities/stream.js';
import { FEATURES } from '../features/feature-levels.js';
import type { IdSource } from '../state/history/id-list.js';
import type { World } from '../state/world.js';

/** The messages of a channel's topic the acting user may read, or undefined for none. */
export type ReadableTopic = (stream: Stream, topic: IdSource) => IdSource | undefined;

/** With no acting user, as the real server renders then: the topic when its channel's history is public. */
export const publicHistoryOnly: ReadableTopic = (stream, topic) => (stream.historyPublicToSubscribers ? topic : undefined);

export function topicLinkMessageId(world: World, readable: ReadableTopic, streamId: number, topic: string): number | undefined {
  if (!world.has(FEATURES.TOPIC_LINK_WITH)) return undefined;
  const stream = world.streams.get(streamId);
  const messages = stream && readable(stream, world.messages.index.topic(streamId, topic));
  if (!messages) return undefined;
  return world.has(FEATURES.TOPIC_LINK_WITH_LATEST) ? messages.atMost(Number.MAX_SAFE_INTEGER) : messages.atLeast(0);
}
