/**
 * The `with` operator (level 271): a permanent link to a conversation. When the reader can access
 * the message, the narrow's channel, topic and DM terms are replaced by that message's current
 * conversation; otherwise the term is dropped if the rest still names a conversation, and
 * refused if not, as the real server resolves it before building the query.
 */
import type { Message } from '../entities/message.js';
import type { User } from '../entities/user.js';
import { FEATURES } from '../features/feature-levels.js';
import { canReadMessage } from '../queries/messages/messages.js';
import type { World } from '../state/world.js';
import { badNarrow, badNarrowCombination, type NarrowTerm } from './terms.js';

const CONVERSATION_OPERATORS = new Set(['stream', 'channel', 'topic', 'dm', 'pm-with']);

function definesConversation(terms: readonly NarrowTerm[]): boolean {
  const operators = new Set(terms.map((term) => term.operator));
  if (operators.has('dm') || operators.has('pm-with')) return true;
  return (operators.has('stream') || operators.has('channel')) && operators.has('topic');
}

function readable(world: World, viewer: User | null, message: Message | undefined): message is Message {
  if (!message) return false;
  if (viewer) return canReadMessage(world, viewer, message);
  const stream = message.recipient.kind === 'stream' ? world.streams.get(message.recipient.streamId) : undefined;
  return stream !== undefined && stream.isWebPublic && !stream.isArchived && world.realm.enableSpectatorAccess;
}

/** The terms naming a message's conversation (a 1:1 DM is named by its recipient, as stored). */
function conversationTerms(message: Message): NarrowTerm[] {
  if (message.recipient.kind === 'stream') {
    return [
      { operator: 'channel', operand: message.recipient.streamId, negated: false },
      { operator: 'topic', operand: message.recipient.topic, negated: false },
    ];
  }
  const ids = message.recipient.userIds;
  const others = ids.filter((id) => id !== message.senderId);
  const operand = ids.length > 2 ? ids : others.length > 0 ? others : [message.senderId];
  return [{ operator: 'dm', operand, negated: false }];
}

/** Resolves the `with` term of a narrow (unchanged below level 271, where `with` is unknown). */
export function resolveWith(world: World, viewer: User | null, terms: readonly NarrowTerm[]): NarrowTerm[] {
  if (!world.has(FEATURES.NARROW_WITH)) return [...terms];
  const withTerms = terms.filter((term) => term.operator === 'with');
  if (withTerms.length > 1) throw badNarrowCombination("Duplicate 'with' operators.");
  const withTerm = withTerms[0];
  if (!withTerm) return [...terms];
  const rest = terms.filter((term) => term !== withTerm);
  const text = String(withTerm.operand);
  if (!/^\s*[+-]?[0-9]+\s*$/.test(text)) throw badNarrow("Invalid 'with' operator");
  const message = world.messages.get(Number(text));
  if (!readable(world, viewer, message)) {
    if (definesConversation(rest)) return rest;
    throw badNarrow("Invalid 'with' operator");
  }
  return [...conversationTerms(message), ...rest.filter((term) => !CONVERSATION_OPERATORS.has(term.operator))];
}
