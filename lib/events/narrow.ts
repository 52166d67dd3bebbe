/**
 * The `narrow` of an event queue: a filter on `message` events, as the real server's
 * `narrow_predicate.py` applies it. Terms are ANDed; negation is not supported for events.
 */
import { MAX_NARROW_TERMS } from '../input/limits.js';
import { badRequest } from '../errors.js';
import { list, schema, str } from '../input/schema.js';
import { RESOLVED_TOPIC_PREFIX } from '../input/topic-names.js';

export interface NarrowTerm {
  readonly operator: string;
  readonly operand: string;
}

const CHANNEL_OPERATORS = new Set(['channel', 'stream']);
const SUPPORTED_OPERATORS = new Set([...CHANNEL_OPERATORS, 'topic', 'exact-topic', 'sender', 'is']);

/** `narrow` as a JSON list of `[operator, operand]` string pairs. */
export const narrowSchema = schema<NarrowTerm[]>((value, path) => {
  const pairs = list(list(str), MAX_NARROW_TERMS).parse(value, path);
  return pairs.map((pair, index) => {
    // The legacy validator's wording; newer servers fail on a malformed pair with a 500.
    if (pair.length !== 2) throw badRequest(`${path}[${index}] should have exactly 2 items`);
    return { operator: pair[0] as string, operand: pair[1] as string };
  });
});

/** Refuses narrows the event system cannot evaluate (`check_narrow_for_events`). */
export function checkNarrowForEvents(narrow: readonly NarrowTerm[]): void {
  for (const term of narrow) {
    if (!SUPPORTED_OPERATORS.has(term.operator)) throw badRequest(`Operator ${term.operator} not supported.`);
    if (term.operator === 'is' && term.operand === 'followed') throw badRequest(`Operand ${term.operand} not supported.`);
  }
}

/** The parts of a message payload the predicate reads. */
interface MessageView {
  readonly type?: unknown;
  readonly display_recipient?: unknown;
  readonly subject?: unknown;
  readonly sender_email?: unknown;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function satisfies(term: NarrowTerm, message: MessageView, flags: readonly string[]): boolean {
  const isStream = message.type === 'stream';
  const topic = text(message.subject);
  const { operator, operand } = term;
  if (CHANNEL_OPERATORS.has(operator)) return isStream && operand.toLowerCase() === text(message.display_recipient).toLowerCase();
  if (operator === 'topic') {
    if (!isStream) return false;
    const lower = topic.toLowerCase();
    const wanted = operand.toLowerCase();
    return wanted === lower || lower.split(/\s+/).filter(Boolean).includes(wanted);
  }
  if (operator === 'exact-topic') return isStream && operand === topic;
  if (operator === 'sender') return operand.toLowerCase() === text(message.sender_email).toLowerCase();
  if (operator !== 'is') return true;
  switch (operand) {
    case 'dm':
    case 'private':
      return message.type === 'private';
    case 'starred':
      return flags.includes('starred');
    case 'unread':
      return !flags.includes('read');
    case 'alerted':
    case 'mentioned':
      return flags.includes('mentioned');
    case 'resolved':
      return isStream && topic.startsWith(RESOLVED_TOPIC_PREFIX);
    default:
      return true;
  }
}

/** Whether a message event passes every term of the narrow (an empty narrow passes all). */
export function matchesNarrow(narrow: readonly NarrowTerm[], message: MessageView, flags: readonly string[]): boolean {
  return narrow.every((term) => satisfies(term, message, flags));
}
