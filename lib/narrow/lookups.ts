/**
 * What narrow terms look up: channels and users by name, email or ID (without access checks,
 * as the real server's narrow operand lookups), and a user's muting of a message's conversation.
 */
import { VISIBILITY_POLICY } from '../entities/personal.js';
import type { Message } from '../entities/message.js';
import type { Stream } from '../entities/stream.js';
import type { User } from '../entities/user.js';
import { apiEmail } from '../queries/users/users.js';
import { topicVisibilityPolicy } from '../queries/personal/user-topics.js';
import type { World } from '../state/world.js';
import type { Operand } from './terms.js';

/** A channel by case-insensitive name or by ID, archived ones included. */
export function channelByOperand(world: World, operand: Operand): Stream | undefined {
  if (typeof operand === 'number') return world.streams.get(operand);
  if (typeof operand === 'string') return world.streamByName(operand);
  return undefined;
}

/**
 * A user (deactivated ones and system bots included) by the email the API knows them by,
 * case-insensitively and trimmed, or by ID: the real server's `get_user_including_cross_realm`.
 */
export function userByOperand(world: World, operand: string | number): User | undefined {
  if (typeof operand === 'number') return world.users.get(operand);
  const wanted = operand.trim().toLowerCase();
  for (const user of world.users.values()) if (apiEmail(world, user).toLowerCase() === wanted) return user;
  return undefined;
}

/** The participants of a direct message: sender and recipients, sorted. */
export const participants = (message: Message): readonly number[] =>
  message.recipient.kind === 'direct' ? message.recipient.userIds : [];

/**
 * Whether the message's conversation is muted for the user: a muted topic, or a channel the user
 * muted (when `channelLevel`) unless the topic is unmuted or followed.
 */
export function isMutedFor(world: World, userId: number, message: Message, options: { channelLevel: boolean }): boolean {
  if (message.recipient.kind !== 'stream') return false;
  const { streamId, topic } = message.recipient;
  const policy = topicVisibilityPolicy(world, userId, streamId, topic);
  if (policy === VISIBILITY_POLICY.MUTED) return true;
  if (!options.channelLevel || policy === VISIBILITY_POLICY.UNMUTED || policy === VISIBILITY_POLICY.FOLLOWED) return false;
  const subscription = world.subscriptions.get(streamId)?.get(userId);
  return subscription?.active === true && subscription.isMuted;
}

/** Whether the user follows the message's topic. */
export function isFollowedBy(world: World, userId: number, message: Message): boolean {
  if (message.recipient.kind !== 'stream') return false;
  return topicVisibilityPolicy(world, userId, message.recipient.streamId, message.recipient.topic) === VISIBILITY_POLICY.FOLLOWED;
}
