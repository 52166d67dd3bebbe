/** A channel's topics as `GET /users/me/{stream_id}/topics` lists them, and who sees which messages there. */
import type { Message } from '../../entities/message.js';
import type { Stream } from '../../entities/stream.js';
import type { User } from '../../entities/user.js';
import { badRequest } from '../../errors.js';
import { displayTopic } from '../../input/topic-names.js';
import type { World } from '../../state/world.js';
import { hasContentAccess } from '../users/access.js';

/** `access_stream_by_id`: the channel must exist, be active and give the user content access. */
export function accessChannel(world: World, user: User, streamId: number): Stream {
  const stream = world.streams.get(streamId);
  if (!stream || stream.isArchived || !hasContentAccess(world, user, stream)) throw badRequest('Invalid channel ID');
  return stream;
}

/**
 * The channel's messages the user may see (channel access already checked): all of them with
 * shared history, otherwise those the user received.
 */
export function visibleChannelMessages(world: World, user: User, stream: Stream): Message[] {
  const out: Message[] = [];
  for (const m of world.messages.values()) {
    if (m.recipient.kind !== 'stream' || m.recipient.streamId !== stream.id) continue;
    if (stream.historyPublicToSubscribers || m.flags.has(user.id)) out.push(m);
  }
  return out;
}

/**
 * The topics, most recent first: topics differing only in case are one, named as in its most
 * recent message, with `max_id` its latest visible message; the empty topic is shown by its
 * display name unless `allowEmptyTopicName`.
 */
export function channelTopics(world: World, user: User, stream: Stream, allowEmptyTopicName: boolean): Array<{ name: string; max_id: number }> {
  const latest = new Map<string, { name: string; max_id: number }>();
  for (const m of visibleChannelMessages(world, user, stream)) {
    if (m.recipient.kind !== 'stream') continue;
    const key = m.recipient.topic.toLowerCase();
    const seen = latest.get(key);
    if (!seen || m.id > seen.max_id) latest.set(key, { name: m.recipient.topic, max_id: m.id });
  }
  return [...latest.values()]
    .sort((a, b) => b.max_id - a.max_id)
    .map((t) => ({ name: displayTopic(t.name, allowEmptyTopicName), max_id: t.max_id }));
}
