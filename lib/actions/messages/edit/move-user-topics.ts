/**
 * Per-user topic states follow a topic that is moved whole, as the real server's
 * `do_update_message` migrates `UserTopic` rows when the acting user moved every message of the
 * topic they can see: users losing access to the messages lose their row; the others' policy
 * moves to the new topic, merged with a policy they already had there when that topic already had
 * messages (`get_visibility_policy_after_merge`: followed, then unmuted, then none, then muted).
 */
import { VISIBILITY_POLICY } from '../../../entities/personal.js';
import type { User } from '../../../entities/user.js';
import { topicVisibilityPolicy } from '../../../queries/personal/user-topics.js';
import type { World } from '../../../state/world.js';
import { storeUserTopicVisibility } from '../../personal/user-topics.js';
import type { StreamEditPlan } from './edit-plan.js';

const MERGE_ORDER = [VISIBILITY_POLICY.FOLLOWED, VISIBILITY_POLICY.UNMUTED, VISIBILITY_POLICY.NONE];

function policyAfterMerge(orig: number, target: number): number {
  for (const policy of MERGE_ORDER) if (orig === policy || target === policy) return policy;
  return VISIBILITY_POLICY.MUTED;
}

/** Users with a row for the topic (rows match case-insensitively, as `world.userTopics` keys do). */
function usersWithPolicy(world: World, streamId: number, topic: string): Map<User, number> {
  const found = new Map<User, number>();
  for (const userId of world.userTopics.keys()) {
    const policy = topicVisibilityPolicy(world, userId, streamId, topic);
    const user = world.users.get(userId);
    if (policy !== VISIBILITY_POLICY.NONE && user) found.set(user, policy);
  }
  return found;
}

/**
 * Moves the states of `plan`'s original topic to its target. `losingAccess`: users who can no
 * longer read the moved messages; `targetHadMessages`: whether the target topic had messages
 * before the move.
 */
export function migrateUserTopics(world: World, plan: StreamEditPlan, losingAccess: ReadonlySet<number>, targetHadMessages: boolean): void {
  const source = { streamId: plan.origStream.id, topic: plan.origTopic };
  const target = { streamId: plan.targetStream.id, topic: plan.targetTopic };
  // Rows match topics case-insensitively: a change of case alone keeps them where they are.
  if (source.streamId === target.streamId && source.topic.toLowerCase() === target.topic.toLowerCase()) return;
  const orig = usersWithPolicy(world, source.streamId, source.topic);
  const there = usersWithPolicy(world, target.streamId, target.topic);
  for (const [user] of orig) {
    if (plan.streamEdited && losingAccess.has(user.id)) {
      orig.delete(user);
      storeUserTopicVisibility(world, user, source.streamId, source.topic, VISIBILITY_POLICY.NONE);
    }
  }
  for (const user of new Set([...orig.keys(), ...there.keys()])) {
    const from = orig.get(user) ?? VISIBILITY_POLICY.NONE;
    const to = there.get(user) ?? VISIBILITY_POLICY.NONE;
    if (from !== VISIBILITY_POLICY.NONE) storeUserTopicVisibility(world, user, source.streamId, source.topic, VISIBILITY_POLICY.NONE, { skipMutedTopicsEvent: true });
    const policy = targetHadMessages ? policyAfterMerge(from, to) : from;
    if (policy !== to) storeUserTopicVisibility(world, user, target.streamId, target.topic, policy);
  }
}
