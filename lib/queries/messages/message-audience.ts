/**
 * Who hears about an action on existing messages (reactions, deletions): the real server's
 * `event_recipient_ids_for_action_on_messages`, aligned with who may read the messages.
 */
import type { FlagRow, Message } from '../../entities/message.js';
import { isGuest } from '../../entities/user.js';
import type { World } from '../../state/world.js';
import { activeSubscriberIds } from '../users/access.js';

const rowHolders = (messages: readonly Message[]): Set<number> => new Set(messages.flatMap((m) => [...m.flags.keys()]));

/**
 * The users to notify of an action on `messages`, all in one conversation. Direct messages: the
 * users with a row. Channels with protected history: subscribers who received them. Private
 * channels with shared history: the subscribers. Public channels: the subscribers and every
 * non-guest with a row (former subscribers, users who starred or reacted).
 */
export function actionAudience(world: World, messages: readonly Message[]): Set<number> {
  const sample = messages[0];
  if (!sample) return new Set();
  if (sample.recipient.kind === 'direct') return rowHolders(messages);
  const stream = world.streams.get(sample.recipient.streamId);
  const subscribers = new Set(activeSubscriberIds(world, sample.recipient.streamId));
  if (!stream) return subscribers;
  if (!stream.historyPublicToSubscribers) return new Set([...rowHolders(messages)].filter((id) => subscribers.has(id)));
  if (stream.inviteOnly) return subscribers;
  for (const id of rowHolders(messages)) {
    const user = world.users.get(id);
    if (user && !isGuest(user)) subscribers.add(id);
  }
  return subscribers;
}

/** Gives the user a "historical" row (read, historical) when they have none, as the real server does before starring or reacting. */
export function ensureHistoricalRow(message: Message, userId: number): FlagRow {
  return message.flags.get(userId) ?? (message.flags.set(userId, ['read', 'historical']).get(userId) as FlagRow);
}
