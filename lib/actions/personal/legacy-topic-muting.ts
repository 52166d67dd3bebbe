/**
 * `PATCH /users/me/subscriptions/muted_topics`, the topic-muting endpoint that `POST /user_topics`
 * replaced at level 170: the channel by `stream_id` or by name (`stream`), `op` add or remove.
 * Before level 170 muting a muted topic or unmuting one that is not muted was an error.
 */
import { badRequest } from '../../errors.js';
import { VISIBILITY_POLICY } from '../../entities/personal.js';
import type { Stream } from '../../entities/stream.js';
import type { User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { hasChannelContentAccess } from '../../queries/channels/channel-access.js';
import { topicVisibilityPolicy } from '../../queries/personal/user-topics.js';
import type { World } from '../../state/world.js';
import { setUserTopicVisibility } from './user-topics.js';

export interface LegacyMuteInput {
  readonly streamId: number | undefined;
  readonly streamName: string | undefined;
  readonly topic: string;
  readonly op: 'add' | 'remove';
}

/** Exactly one of `stream_id` and `stream` (`check_for_exactly_one_stream_arg`). */
function findChannel(world: World, user: User, input: LegacyMuteInput): Stream {
  if (input.streamId === undefined && input.streamName === undefined) throw badRequest("Missing 'stream_id' argument");
  if (input.streamId !== undefined && input.streamName !== undefined) {
    throw badRequest('Unsupported parameter combination: stream_id, stream', { parameters: ['stream_id', 'stream'] });
  }
  if (input.streamName !== undefined) {
    const stream = world.streamByName(input.streamName);
    // Unmuting only needs the channel to exist; muting needs content access to an active one.
    const usable = stream && (input.op === 'remove' || (!stream.isArchived && hasChannelContentAccess(world, user, stream)));
    if (!stream || !usable) throw badRequest(`Invalid channel name '${input.streamName}'`);
    return stream;
  }
  const stream = world.streams.get(input.streamId!);
  if (!stream) throw badRequest('Invalid channel ID');
  return stream;
}

/** Mutes (`add`) or unmutes (`remove`) a topic; `muted_topics` and `user_topic` events follow. */
export function legacyMuteTopic(world: World, user: User, input: LegacyMuteInput): void {
  const stream = findChannel(world, user, input);
  const muted = topicVisibilityPolicy(world, user.id, stream.id, input.topic) === VISIBILITY_POLICY.MUTED;
  if (!world.has(FEATURES.USER_TOPICS_ENDPOINT)) {
    if (input.op === 'add' && muted) throw badRequest('Topic already muted');
    if (input.op === 'remove' && !muted) throw badRequest('Topic is not muted');
  }
  if (input.op === 'remove' && !muted) return;
  setUserTopicVisibility(world, user, stream.id, input.topic, input.op === 'add' ? VISIBILITY_POLICY.MUTED : VISIBILITY_POLICY.NONE);
}
