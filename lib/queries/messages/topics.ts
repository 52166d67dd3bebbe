/** A channel's topics as `GET /users/me/{stream_id}/topics` lists them, and who sees which messages there. */
import type { Message } from '../../entities/message.js';
import type { Stream } from '../../entities/stream.js';
import type { User } from '../../entities/user.js';
import { badRequest } from '../../errors.js';
import { displayTopic } from '../../input/topic-names.js';
import type { IdSource } from '../../state/history/id-list.js';
import { ascending, intersectionOf } from '../../state/history/id-sources.js';
import type { ReadableTopic } from '../../rendering/topic-with.js';
import type { World } from '../../state/world.js';
import { hasContentAccess } from '../users/access.js';

/** `access_stream_by_id`: the channel must exist, be active and give the user content access. */
export function accessChannel(world: World, user: User, streamId: number): Stream {
  const stream = world.streams.get(streamId);
  if (!stream || stream.isArchived || !hasContentAccess(world, user, stream)) throw badRequest('Invalid channel ID');
  return stream;
}

/** The messages of a channel's topic (case-insensitively), ascending, from the topic index. */
export function topicMessages(world: World, streamId: number, topic: string): Message[] {
  return messagesIn(world, world.messages.index.topic(streamId, topic));
}

function messagesIn(world: World, source: IdSource): Message[] {
  const out: Message[] = [];
  for (const id of ascending(source)) {
    const message = world.messages.get(id);
    if (message) out.push(message);
  }
  return out;
}

/**
 * The channel's messages (or one topic's) the user may see, channel access already checked: all
 * of them with shared history, otherwise those the user received. Ascending.
 */
export function visibleChannelMessages(world: World, user: User, stream: Stream, topic?: string): Message[] {
  const index = world.messages.index;
  const place = topic === undefined ? index.channel(stream.id) : index.topic(stream.id, topic);
  const source = stream.historyPublicToSubscribers ? place : intersectionOf([place, index.user(user.id, 'received')]);
  return messagesIn(world, source).filter((m) => m.recipient.kind === 'stream' && m.recipient.streamId === stream.id);
}

/**
 * The topics, most recent first: topics differing only in case are one, named as in its most
 * recent message, with `max_id` its latest visible message; the empty topic is shown by its
 * display name unless `allowEmptyTopicName`. Each topic costs a lookup in its list, not a walk.
 */
export function channelTopics(world: World, user: User, stream: Stream, allowEmptyTopicName: boolean): Array<{ name: string; max_id: number }> {
  const received = world.messages.index.user(user.id, 'received');
  const latest: Array<{ name: string; max_id: number }> = [];
  for (const ids of world.messages.index.topicsOf(stream.id).values()) {
    const visible = stream.historyPublicToSubscribers ? ids : intersectionOf([ids, received]);
    const newest = visible.atMost(Number.MAX_SAFE_INTEGER);
    const message = newest === undefined ? undefined : world.messages.get(newest);
    if (message?.recipient.kind === 'stream') latest.push({ name: message.recipient.topic, max_id: message.id });
  }
  return latest
    .sort((a, b) => b.max_id - a.max_id)
    .map((t) => ({ name: displayTopic(t.name, allowEmptyTopicName), max_id: t.max_id }));
}

/** What `user` reads of a topic when a topic link is rendered for them (`get_first_message_for_user_in_topic`). */
export function readableTopicFor(world: World, user: User): ReadableTopic {
  return (stream, topic) => {
    if (!hasContentAccess(world, user, stream)) return undefined;
    return stream.historyPublicToSubscribers ? topic : intersectionOf([topic, world.messages.index.user(user.id, 'received')]);
  };
}
