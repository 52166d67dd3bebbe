/**
 * Topics followed or unmuted automatically, as the real server does when a user takes part in a
 * topic (zerver/lib/message.py `visibility_policy_for_send_message`,
 * `visibility_policy_for_participation`, `should_change_visibility_policy`; zerver/actions/
 * message_send.py `do_send_messages`; zerver/actions/reactions.py `do_add_reaction`): by the
 * user's `automatically_follow_topics_policy` and `automatically_unmute_topics_in_muted_streams_policy`
 * when they send or react, and `automatically_follow_topics_where_mentioned` when someone mentions
 * them. A policy only ever becomes more visible, and a muted topic stays muted for mentions.
 */
import type { Message } from '../../../entities/message.js';
import { VISIBILITY_POLICY } from '../../../entities/personal.js';
import type { User } from '../../../entities/user.js';
import { FEATURES } from '../../../features/feature-levels.js';
import { topicMessages } from '../../../queries/messages/topics.js';
import { topicVisibilityPolicy } from '../../../queries/personal/user-topics.js';
import type { World } from '../../../state/world.js';
import { currentSetting } from '../../personal/user-setting-effects.js';
import { storeUserTopicVisibility } from '../../personal/user-topics.js';

/** `AUTOMATICALLY_CHANGE_VISIBILITY_POLICY_*`. */
export const AUTOMATICALLY = { ON_PARTICIPATION: 1, ON_SEND: 2, ON_INITIATION: 3, NEVER: 4 } as const;

const followPolicy = (user: User): unknown => currentSetting(user, 'automatically_follow_topics_policy');
const unmutePolicy = (user: User): unknown => currentSetting(user, 'automatically_unmute_topics_in_muted_streams_policy');

/** What a policy value grants for an action that counts as `when` (following exists from level 219). */
function grantedBy(world: World, user: User, streamMuted: boolean, when: number): number | null {
  if (followPolicy(user) === when && world.has(FEATURES.FOLLOWED_TOPICS)) return VISIBILITY_POLICY.FOLLOWED;
  if (streamMuted && unmutePolicy(user) === when) return VISIBILITY_POLICY.UNMUTED;
  return null;
}

function streamMutedFor(world: World, user: User, streamId: number): boolean {
  const sub = world.subscribersOf(streamId).get(user.id);
  return sub !== undefined && sub.active && sub.isMuted;
}

/** Whether the sender could see another message of the message's topic (`old_accessible_messages_in_topic`). */
function topicHadMessages(world: World, sender: User, message: Message): boolean {
  if (message.recipient.kind !== 'stream') return false;
  const { streamId, topic } = message.recipient;
  const stream = world.streams.get(streamId);
  const sharedHistory = stream !== undefined && !stream.inviteOnly ? true : stream?.historyPublicToSubscribers === true;
  const wanted = topic.toLowerCase();
  for (const other of topicMessages(world, streamId, topic)) {
    if (other.id === message.id || other.recipient.kind !== 'stream' || other.recipient.streamId !== streamId) continue;
    if (other.recipient.topic.toLowerCase() !== wanted) continue;
    if (sharedHistory || other.flags.has(sender.id)) return true;
  }
  return false;
}

/** `visibility_policy_for_send_message`: null when sending changes nothing. */
function policyForSend(world: World, sender: User, message: Message, streamMuted: boolean, current: number): number | null {
  if (current === VISIBILITY_POLICY.FOLLOWED) return null;
  const granted = [grantedBy(world, sender, streamMuted, AUTOMATICALLY.ON_PARTICIPATION), grantedBy(world, sender, streamMuted, AUTOMATICALLY.ON_SEND)];
  if (granted.includes(VISIBILITY_POLICY.FOLLOWED)) return VISIBILITY_POLICY.FOLLOWED;
  let policy: number | null = granted.includes(VISIBILITY_POLICY.UNMUTED) ? VISIBILITY_POLICY.UNMUTED : null;
  if (current !== VISIBILITY_POLICY.NONE) return policy === current ? null : policy;
  const initiation = grantedBy(world, sender, streamMuted, AUTOMATICALLY.ON_INITIATION);
  if (initiation !== null && !topicHadMessages(world, sender, message)) {
    if (initiation === VISIBILITY_POLICY.FOLLOWED) return initiation;
    policy = initiation;
  }
  return policy;
}

/**
 * After a channel message is stored and before its events: the sender's automatic policy (the
 * send response's `automatic_new_visibility_policy`, or undefined), then the mentioned users'.
 */
export function followTopicOnSend(world: World, message: Message, mentionedIds: ReadonlySet<number>): number | undefined {
  if (message.recipient.kind !== 'stream') return undefined;
  const { streamId, topic } = message.recipient;
  const sender = world.users.get(message.senderId);
  let automatic: number | undefined;
  if (sender && !sender.isBot && world.has(FEATURES.AUTO_FOLLOW_TOPICS) && !(followPolicy(sender) === AUTOMATICALLY.NEVER && unmutePolicy(sender) === AUTOMATICALLY.NEVER)) {
    const current = topicVisibilityPolicy(world, sender.id, streamId, topic);
    const policy = policyForSend(world, sender, message, streamMutedFor(world, sender, streamId), current);
    if (policy !== null) {
      storeUserTopicVisibility(world, sender, streamId, topic, policy);
      automatic = policy;
    }
  }
  if (!world.has(FEATURES.AUTO_FOLLOW_MENTIONED) || !world.has(FEATURES.FOLLOWED_TOPICS)) return automatic;
  for (const id of [...mentionedIds].sort((a, b) => a - b)) {
    const user = world.users.get(id);
    if (!user || user.isBot || !user.isActive || !message.flags.has(id) || currentSetting(user, 'automatically_follow_topics_where_mentioned') !== true) continue;
    const current = topicVisibilityPolicy(world, id, streamId, topic);
    if (current === VISIBILITY_POLICY.MUTED || current === VISIBILITY_POLICY.FOLLOWED) continue;
    storeUserTopicVisibility(world, user, streamId, topic, VISIBILITY_POLICY.FOLLOWED);
  }
  return automatic;
}

/** `do_add_reaction`: reacting is participation; only a subscriber's policy changes, and only upwards. */
export function followTopicOnReaction(world: World, user: User, message: Message): void {
  if (message.recipient.kind !== 'stream' || user.isBot || !world.has(FEATURES.AUTO_FOLLOW_TOPICS)) return;
  if (followPolicy(user) !== AUTOMATICALLY.ON_PARTICIPATION && unmutePolicy(user) !== AUTOMATICALLY.ON_PARTICIPATION) return;
  const { streamId, topic } = message.recipient;
  const sub = world.subscribersOf(streamId).get(user.id);
  if (!sub || !sub.active) return;
  const policy = grantedBy(world, user, sub.isMuted, AUTOMATICALLY.ON_PARTICIPATION);
  const current = topicVisibilityPolicy(world, user.id, streamId, topic);
  if (policy === null || policy === current || current === VISIBILITY_POLICY.FOLLOWED) return;
  storeUserTopicVisibility(world, user, streamId, topic, policy);
}
