/**
 * `POST /streams/{stream_id}/delete_topic`: administrators delete every message of a topic they
 * can see, newest first in batches as the real server does, then the topic's personal settings.
 */
import { VISIBILITY_POLICY } from '../../entities/personal.js';
import { isAdministrator, type User } from '../../entities/user.js';
import { mustBeAdministrator } from '../../errors.js';
import { accessChannel, topicMessages, visibleChannelMessages } from '../../queries/messages/topics.js';
import { renameGeneralChat } from '../../input/topic-names.js';
import type { World } from '../../state/world.js';
import { deleteMessages } from './message-delete.js';
import { setUserTopicVisibility } from '../personal/user-topics.js';

/** The real server's deletion batch for channel messages. */
const BATCH_SIZE = 100;

/**
 * Deletes the topic's messages the administrator can see (topics match case-insensitively; the
 * empty-topic display name means `""`), then clears the users' visibility policies for it, except,
 * with protected history, for users who still have messages there.
 */
export function deleteTopic(world: World, user: User, streamId: number, topicName: string): void {
  if (!isAdministrator(user)) throw mustBeAdministrator();
  const stream = accessChannel(world, user, streamId);
  const topic = renameGeneralChat(world, topicName).toLowerCase();
  const doomed = visibleChannelMessages(world, user, stream, topic)
    .filter((m) => m.recipient.kind === 'stream' && m.recipient.topic.toLowerCase() === topic)
    .reverse();
  for (let start = 0; start < doomed.length; start += BATCH_SIZE) deleteMessages(world, doomed.slice(start, start + BATCH_SIZE), user);
  for (const [userId, rows] of world.userTopics) {
    const row = [...rows.values()].find((r) => r.streamId === stream.id && r.topicName.toLowerCase() === topic);
    const owner = world.users.get(userId);
    if (!row || !owner) continue;
    const stillReads = topicMessages(world, stream.id, topic).some(
      (m) => m.recipient.kind === 'stream' && m.recipient.streamId === stream.id && m.recipient.topic.toLowerCase() === topic && m.flags.has(userId),
    );
    if (!stream.historyPublicToSubscribers && stillReads) continue;
    setUserTopicVisibility(world, owner, stream.id, row.topicName, VISIBILITY_POLICY.NONE);
  }
}
