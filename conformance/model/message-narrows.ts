/**
 * Which messages a narrow matches, for a model of messages whose every property a narrow reads is
 * known: the operators of the real server's narrow builder and their negation, as documented
 * (api/construct-narrow, api/get-messages). Pure: no I/O.
 *
 * What the model leaves out, because its messages never have it: mentions, stars, alert words,
 * reactions, uploads and images (those operators match nothing), muted channels and topics
 * (`is:muted` matches nothing, `in:home` everything). Search is reduced to what holds for plain
 * words that English stemming leaves as they are and that are not stop words: every word of the
 * query must occur, in any case, in the topic or the content. Negated `search` terms (which the
 * real server joins with the others) and `group-pm-with` are not modelled.
 */

/** A message as far as narrows are concerned. */
export interface ModelMessage {
  readonly id: number;
  readonly senderId: number;
  /** Channel messages: the channel and the topic as stored. */
  readonly channelId?: number;
  readonly topic?: string;
  /** Direct messages: every participant, the sender included. */
  readonly participants?: readonly number[];
  /** The lower-case words a search finds in it (content and topic). */
  readonly words: ReadonlySet<string>;
  readonly hasLink: boolean;
  /** Users with their own copy (a per-user row): the participants, or the channel's subscribers. */
  readonly holders: ReadonlySet<number>;
  /** The holders who have not read it. */
  readonly unreadBy: ReadonlySet<number>;
}

export type Operand = string | number | readonly number[];

export interface NarrowTerm {
  readonly operator: string;
  readonly operand: Operand;
  readonly negated: boolean;
}

/** What a narrow's operands refer to, from one reader's point of view. */
export interface NarrowContext {
  readonly reader: number;
  /** Since level 334 the first `topic` term naming the empty topic's display name means `""`. */
  readonly emptyTopicName: string | undefined;
  /** A user's ID from an ID or an API email (any case); undefined when unknown. */
  userId(operand: string | number): number | undefined;
  /** A channel's ID from its ID or name; undefined when unknown. */
  channelId(operand: string | number): number | undefined;
  /** Whether a channel is public with shared history (`channels:public`). */
  isPublicChannel(channelId: number): boolean;
  /** Whether the reader follows the topic (`is:followed`). */
  follows(channelId: number, topic: string): boolean;
}

/** The prefix of resolved topics. */
export const RESOLVED_PREFIX = '✔ ';

type Test = (message: ModelMessage) => boolean;

const isDirect = (m: ModelMessage): boolean => m.participants !== undefined;

const sameMembers = (a: readonly number[], b: ReadonlySet<number>): boolean => a.length === b.size && a.every((id) => b.has(id));

function lookup(found: number | undefined, operand: Operand): number {
  if (found === undefined) throw new Error(`the model's narrow names something unknown: ${JSON.stringify(operand)}`);
  return found;
}

function dmTest(ctx: NarrowContext, operand: Operand): Test {
  const items = typeof operand === 'string' ? operand.split(',') : typeof operand === 'number' ? [operand] : operand;
  const members = new Set<number>([ctx.reader, ...items.map((item) => lookup(ctx.userId(item), operand))]);
  return (m) => isDirect(m) && sameMembers(m.participants!, members);
}

function dmIncludingTest(ctx: NarrowContext, operand: Operand): Test {
  const user = lookup(typeof operand === 'object' ? undefined : ctx.userId(operand), operand);
  if (user === ctx.reader) return isDirect;
  return (m) => isDirect(m) && m.participants!.includes(user) && m.participants!.includes(ctx.reader);
}

function isTest(ctx: NarrowContext, operand: string): Test {
  switch (operand) {
    case 'dm':
    case 'private':
      return isDirect;
    case 'unread':
      return (m) => m.unreadBy.has(ctx.reader);
    case 'resolved':
      return (m) => m.topic?.startsWith(RESOLVED_PREFIX) === true;
    case 'followed':
      return (m) => m.channelId !== undefined && ctx.follows(m.channelId, m.topic!);
    case 'starred':
    case 'mentioned':
    case 'alerted':
    case 'muted':
      return () => false;
  }
  throw new Error(`the model has no 'is' operand ${operand}`);
}

function hasTest(operand: string): Test {
  if (operand === 'link') return (m) => m.hasLink;
  if (['image', 'attachment', 'reaction'].includes(operand)) return () => false;
  throw new Error(`the model has no 'has' operand ${operand}`);
}

/** The condition of one term, before negation. `topicOperand` is the operand after the empty-topic renaming. */
function termTest(ctx: NarrowContext, term: NarrowTerm, topicOperand: string): Test {
  const { operator, operand } = term;
  switch (operator) {
    case 'channel':
    case 'stream': {
      const channel = lookup(typeof operand === 'object' ? undefined : ctx.channelId(operand), operand);
      return (m) => m.channelId === channel;
    }
    case 'channels':
    case 'streams':
      if (operand !== 'public') throw new Error(`the model has no channels operand ${String(operand)}`);
      return (m) => m.channelId !== undefined && ctx.isPublicChannel(m.channelId);
    case 'topic':
      return (m) => m.topic !== undefined && m.topic.toLowerCase() === topicOperand.toLowerCase();
    case 'sender': {
      const sender = lookup(typeof operand === 'object' ? undefined : ctx.userId(operand), operand);
      return (m) => m.senderId === sender;
    }
    case 'dm':
    case 'pm-with':
      return dmTest(ctx, operand);
    case 'dm-including':
      return dmIncludingTest(ctx, operand);
    case 'is':
      return isTest(ctx, String(operand));
    case 'has':
      return hasTest(String(operand));
    case 'id':
      return (m) => m.id === Number(operand);
    case 'near':
    case 'in':
      return () => true;
  }
  throw new Error(`the model has no operator ${operator}`);
}

/** The words of a search query: split on white space, lower case. */
export const searchWords = (query: string): string[] => query.toLowerCase().split(/\s+/).filter((word) => word !== '');

/**
 * The predicate of a whole narrow for the reader: terms ANDed, each negated term inverted,
 * `search` terms joined into one query; messages without the reader's own copy never match.
 */
export function narrowPredicate(ctx: NarrowContext, terms: readonly NarrowTerm[]): Test {
  const tests: Test[] = [];
  const words: string[] = [];
  let topicRenamed = false;
  for (const term of terms) {
    if (term.operator === 'search') {
      if (term.negated) throw new Error('the model has no negated search');
      words.push(...searchWords(String(term.operand)));
      continue;
    }
    let topicOperand = String(term.operand);
    if (term.operator === 'topic' && !topicRenamed) {
      // Only the first topic term is read as the empty topic's display name.
      topicRenamed = true;
      if (ctx.emptyTopicName !== undefined && topicOperand === ctx.emptyTopicName) topicOperand = '';
    }
    const test = termTest(ctx, term, topicOperand);
    tests.push(term.negated ? (m) => !test(m) : test);
  }
  return (m) => m.holders.has(ctx.reader) && tests.every((test) => test(m)) && words.every((word) => m.words.has(word));
}

/** The IDs of the matching messages, ascending, and the first unread among them. */
export function matchingIds(ctx: NarrowContext, terms: readonly NarrowTerm[], messages: Iterable<ModelMessage>): { ids: number[]; firstUnread: number | undefined } {
  const test = narrowPredicate(ctx, terms);
  const matching = [...messages].filter(test).sort((a, b) => a.id - b.id);
  return { ids: matching.map((m) => m.id), firstUnread: matching.find((m) => m.unreadBy.has(ctx.reader))?.id };
}
