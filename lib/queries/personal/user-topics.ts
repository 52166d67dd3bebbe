/** Per-user topic preferences (section 3.1): lookups and the register/event projections. */
import type { UserTopic } from '../../entities/personal.js';
import { VISIBILITY_POLICY } from '../../entities/personal.js';
import type { User } from '../../entities/user.js';
import type { World } from '../../state/world.js';

/** Key of `world.userTopics` rows: topics match case-insensitively, as the real server's `iexact`. */
export function userTopicKey(streamId: number, topic: string): string {
  return `${streamId}:${topic.toLowerCase()}`;
}

export function findUserTopic(world: World, userId: number, streamId: number, topic: string): UserTopic | undefined {
  return world.userTopics.get(userId)?.get(userTopicKey(streamId, topic));
}

/** The visibility policy of a topic for a user: 0 (none) when no row exists. */
export function topicVisibilityPolicy(world: World, userId: number, streamId: number, topic: string): number {
  return findUserTopic(world, userId, streamId, topic)?.visibilityPolicy ?? VISIBILITY_POLICY.NONE;
}

/** Rows of channels that are not archived, as the real server's `get_user_topics` lists them. */
function liveRows(world: World, userId: number): UserTopic[] {
  const rows: UserTopic[] = [];
  for (const row of world.userTopics.get(userId)?.values() ?? []) {
    const stream = world.streams.get(row.streamId);
    if (stream && !stream.isArchived) rows.push(row);
  }
  return rows;
}

export interface ApiUserTopic {
  readonly stream_id: number;
  readonly topic_name: string;
  readonly visibility_policy: number;
  /** Seconds since the epoch. */
  readonly last_updated: number;
}

/** Register's `user_topics`: every preference in channels that are not archived. */
export function userTopicsState(world: World, user: User): ApiUserTopic[] {
  return liveRows(world, user.id).map((row) => ({
    stream_id: row.streamId,
    topic_name: row.topicName,
    visibility_policy: row.visibilityPolicy,
    last_updated: Math.floor(row.lastUpdated),
  }));
}

/**
 * The legacy `muted_topics` (register and the `muted_topics` event): `[channel name, topic,
 * last_updated]` for each muted topic in a channel that is not archived.
 */
export function mutedTopicsState(world: World, user: User): Array<[string, string, number]> {
  const muted: Array<[string, string, number]> = [];
  for (const row of liveRows(world, user.id)) {
    if (row.visibilityPolicy !== VISIBILITY_POLICY.MUTED) continue;
    const stream = world.streams.get(row.streamId);
    if (stream) muted.push([stream.name, row.topicName, Math.floor(row.lastUpdated)]);
  }
  return muted;
}
