/**
 * Personal message flags: `POST /mark_topic_as_read` (spec 4.11, deprecated; reference
 * real-server notes on subscriptions-typing-topics §8) and the `update_message_flags` event.
 */
import { badRequest } from '../errors.js';
import type { Message } from '../entities/message.js';
import type { User } from '../entities/user.js';
import { hasContentAccess } from '../queries/access.js';
import { renameGeneralChat } from '../topic-names.js';
import type { World } from '../world.js';

const inTopic = (message: Message, streamId: number, topic: string): boolean =>
  message.recipient.kind === 'stream' &&
  message.recipient.streamId === streamId &&
  message.recipient.topic.toLowerCase() === topic.toLowerCase();

/**
 * Adds `flag` to the user's rows of `messages` that lack it, and sends one
 * `update_message_flags` event when anything changed. Returns the IDs changed.
 */
export function addFlag(world: World, user: User, messages: Iterable<Message>, flag: string): number[] {
  const changed: number[] = [];
  for (const message of messages) {
    const flags = message.flags.get(user.id);
    if (!flags || flags.has(flag)) continue;
    flags.add(flag);
    changed.push(message.id);
  }
  changed.sort((a, b) => a - b);
  if (changed.length > 0) {
    world.events.send({ type: 'update_message_flags', op: 'add', operation: 'add', flag, messages: changed, all: false }, [user.id]);
  }
  return changed;
}

/**
 * Marks the user's unread messages in a channel topic as read. The channel needs content access
 * and must be active (`Invalid channel ID`); a non-empty topic name must name a topic where the
 * user has a message (`No such topic '<topic>'`), the empty-topic display name meaning `""`.
 * The empty topic is a topic like any other here (the real server, as read, marks the whole
 * channel for an empty name; the description says the topic).
 */
export function markTopicAsRead(world: World, user: User, streamId: number, topicName: string): number[] {
  const stream = world.streams.get(streamId);
  if (!stream || stream.isArchived || !hasContentAccess(world, user, stream)) throw badRequest('Invalid channel ID');
  let topic = topicName;
  if (topic !== '') {
    topic = renameGeneralChat(world, topic);
    const exists = [...world.messages.values()].some((m) => m.flags.has(user.id) && inTopic(m, stream.id, topic));
    if (!exists) throw badRequest(`No such topic '${topic}'`);
  }
  const messages = [...world.messages.values()].filter((m) => inTopic(m, stream.id, topic));
  return addFlag(world, user, messages, 'read');
}
