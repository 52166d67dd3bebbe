/** Setting a topic's visibility policy for a user (sections 3.1, 4.4; behaviour reference §7). */
import { badRequest } from '../../errors.js';
import { VISIBILITY_POLICY } from '../../entities/personal.js';
import type { User } from '../../entities/user.js';
import { hasContentAccess } from '../../queries/users/access.js';
import { findUserTopic, mutedTopicsState, userTopicKey } from '../../queries/personal/user-topics.js';
import type { World } from '../../state/world.js';

/**
 * Removing a policy only needs the channel to exist (archived or unreadable channels are fine,
 * so users can clean up); setting one needs content access to an active channel.
 */
function checkChannel(world: World, user: User, streamId: number, policy: number): void {
  const stream = world.streams.get(streamId);
  if (!stream) throw badRequest('Invalid channel ID');
  if (policy === VISIBILITY_POLICY.NONE) return;
  if (stream.isArchived || !hasContentAccess(world, user, stream)) throw badRequest('Invalid channel ID');
}

/**
 * Sets (or with 0 removes) the user's policy for a topic, matched case-insensitively; an
 * existing row keeps its original spelling. A change sends the legacy `muted_topics` list and
 * then `user_topic` to the user; a no-op change succeeds silently.
 */
export function setUserTopicVisibility(world: World, user: User, streamId: number, topic: string, policy: number): void {
  checkChannel(world, user, streamId, policy);
  storeUserTopicVisibility(world, user, streamId, topic, policy);
}

/**
 * The change itself, for the server's own changes too (moves, automatic follows): the real
 * server's `bulk_do_set_user_topic_visibility_policy`, which may skip the `muted_topics` event
 * when another change follows at once. Returns whether anything changed.
 */
export function storeUserTopicVisibility(world: World, user: User, streamId: number, topic: string, policy: number, options: { skipMutedTopicsEvent?: boolean } = {}): boolean {
  const existing = findUserTopic(world, user.id, streamId, topic);
  const nowSeconds = Math.floor(world.now() / 1000);
  if (policy === VISIBILITY_POLICY.NONE) {
    if (!existing) return false;
    world.userTopics.get(user.id)?.delete(userTopicKey(streamId, topic));
  } else if (existing) {
    if (existing.visibilityPolicy === policy) return false;
    existing.visibilityPolicy = policy;
    existing.lastUpdated = nowSeconds;
  } else {
    let rows = world.userTopics.get(user.id);
    if (!rows) {
      rows = new Map();
      world.userTopics.set(user.id, rows);
    }
    rows.set(userTopicKey(streamId, topic), { userId: user.id, streamId, topicName: topic, visibilityPolicy: policy, lastUpdated: nowSeconds });
  }
  if (options.skipMutedTopicsEvent !== true) world.events.send({ type: 'muted_topics', muted_topics: mutedTopicsState(world, user) }, [user.id]);
  world.events.send(
    { type: 'user_topic', stream_id: streamId, topic_name: topic, last_updated: nowSeconds, visibility_policy: policy },
    [user.id],
  );
  return true;
}
