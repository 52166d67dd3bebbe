/**
 * Random queries of the narrow model's property: a reader, a narrow that always keeps to the
 * rule's own messages (a first term naming the rule's channel or a direct conversation of the
 * reader, ANDed with up to two more terms, negated or not, in either wire form), and what is
 * asked: an anchor window, a list of `message_ids` (level 300), or `matches_narrow`. Specs are
 * abstract (indexes, choices) and resolved against the corpus when the query runs, so shrinking
 * keeps them valid.
 */
import fc from 'fast-check';
import type { NarrowTerm } from '../../model/message-narrows.js';
import type { AnchorValue } from '../../model/message-window.js';
import { type Corpus, PEOPLE, type Person, VOCABULARY } from './narrow-model-corpus.js';

/** Levels at which operators, operands and parameters appear. */
export const Q_LEVELS = {
  INCLUDE_ANCHOR: 155,
  DM_OPERATORS: 177,
  INTEGER_ID: 194,
  HAS_REACTION: 249,
  CHANNEL_OPERATORS: 250,
  IS_FOLLOWED: 265,
  MESSAGE_IDS: 300,
  EMPTY_TOPIC: 334,
  IS_MUTED: 366,
} as const;

type ScopeSpec =
  | { readonly kind: 'channel'; readonly byName: boolean; readonly newSpelling: boolean }
  | { readonly kind: 'dm'; readonly others: readonly Person[]; readonly byEmail: boolean; readonly withSelf: boolean; readonly newSpelling: boolean }
  | { readonly kind: 'dm-including'; readonly who: Person; readonly byEmail: boolean };

type AnchorSpec = 'newest' | 'oldest' | 'first_unread' | 'zero' | 'negative' | 'huge' | { readonly index: number; readonly delta: -1 | 0 | 1 };

export interface QuerySpec {
  readonly reader: Person;
  readonly scope: ScopeSpec;
  readonly extras: ReadonlyArray<{ readonly family: number; readonly choice: number; readonly negated: boolean }>;
  readonly kind: 'window' | 'ids' | 'matches';
  readonly anchor: AnchorSpec;
  readonly numBefore: number;
  readonly numAfter: number;
  readonly includeAnchor: boolean;
  readonly legacyForm: readonly boolean[];
  readonly applyMarkdown: boolean;
  readonly allowEmptyTopicName: boolean;
  /** Which known messages `message_ids` / `msg_ids` name (bits over the corpus). */
  readonly picks: readonly boolean[];
}

const person = fc.constantFrom<Person>(...PEOPLE);
/** An index into a list of choices: unbiased, or the last entries of a list would hardly ever be picked. */
const choice = fc.noBias(fc.nat(839));

const scopeSpec: fc.Arbitrary<ScopeSpec> = fc.oneof(
  fc.record({ kind: fc.constant('channel' as const), byName: fc.boolean(), newSpelling: fc.boolean() }),
  fc.record({ kind: fc.constant('dm' as const), others: fc.subarray([...PEOPLE]), byEmail: fc.boolean(), withSelf: fc.boolean(), newSpelling: fc.boolean() }),
  fc.record({ kind: fc.constant('dm-including' as const), who: person, byEmail: fc.boolean() }),
);

const anchorSpec: fc.Arbitrary<AnchorSpec> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ index: choice, delta: fc.constantFrom<-1 | 0 | 1>(-1, 0, 1) }) },
  { weight: 3, arbitrary: fc.constantFrom<AnchorSpec>('newest', 'oldest', 'first_unread', 'zero', 'negative', 'huge') },
);

export const querySpec: fc.Arbitrary<QuerySpec> = fc.record({
  reader: person,
  scope: scopeSpec,
  extras: fc.array(fc.record({ family: choice, choice, negated: fc.oneof({ weight: 2, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }) }), { maxLength: 2 }),
  kind: fc.constantFrom<QuerySpec['kind']>('window', 'window', 'window', 'ids', 'matches'),
  anchor: anchorSpec,
  numBefore: fc.oneof(fc.nat(3), fc.integer({ min: 4, max: 12 })),
  numAfter: fc.oneof(fc.nat(3), fc.integer({ min: 4, max: 12 })),
  includeAnchor: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 2, arbitrary: fc.constant(false) }),
  legacyForm: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  applyMarkdown: fc.boolean(),
  allowEmptyTopicName: fc.boolean(),
  picks: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
});

/** A resolved query: the model's terms, the same terms as sent, and what is asked. */
export interface Query {
  readonly reader: Person;
  readonly readerId: number;
  readonly terms: readonly NarrowTerm[];
  readonly wire: readonly unknown[];
  /** Direct conversations hold messages older than the model knows. */
  readonly openBelow: boolean;
  readonly kind: QuerySpec['kind'];
  readonly anchor: AnchorValue;
  /** The anchor as sent (huge anchors are sent as text). */
  readonly anchorText: string;
  readonly numBefore: number;
  readonly numAfter: number;
  /** Undefined below level 155 (not sent; the server includes the anchor). */
  readonly includeAnchor: boolean | undefined;
  readonly applyMarkdown: boolean;
  readonly allowEmptyTopicName: boolean | undefined;
  readonly picked: readonly number[];
}

type Candidate = (choice: number) => { operator: string; operand: NarrowTerm['operand']; negatable: boolean };

const pick = <T>(items: readonly T[], choice: number): T => items[choice % items.length]!;

/** The further terms that may follow the scope term, by level, reader and scope. */
function candidates(corpus: Corpus, level: number, readerId: number, channelScope: boolean): Candidate[] {
  const { ids, emails, emptyTopicName, noAlertWords, channel } = corpus.setup;
  const userOperand = (who: Person, choice: number): string | number => (choice % 2 === 0 ? ids[who] : emails.get(ids[who])!);
  const knownIds = corpus.messages.map((m) => m.id);
  const isValues = ['resolved', 'starred', 'mentioned', 'unread'];
  if (noAlertWords) isValues.push('alerted');
  if (channelScope && level >= Q_LEVELS.IS_FOLLOWED) isValues.push('followed');
  if (channelScope && level >= Q_LEVELS.IS_MUTED) isValues.push('muted');
  const hasValues = ['link', 'image', 'attachment', ...(level >= Q_LEVELS.HAS_REACTION ? ['reaction'] : [])];
  const sender: Candidate = (c) => ({ operator: 'sender', operand: userOperand(pick(PEOPLE, c), c >> 1), negatable: true });
  const is: Candidate = (c) => ({ operator: 'is', operand: pick(isValues, c), negatable: true });
  const has: Candidate = (c) => ({ operator: 'has', operand: pick(hasValues, c), negatable: true });
  const search: Candidate = (c) => ({ operator: 'search', operand: c % 3 === 0 ? `${pick(VOCABULARY, c)} ${pick(VOCABULARY, c >> 2)}` : pick(VOCABULARY, c).toUpperCase(), negatable: false });
  // Repeated entries weigh the operators that select among the rule's messages.
  const common: Candidate[] = [
    sender,
    sender,
    is,
    is,
    is,
    has,
    has,
    search,
    search,
    (c) => ({ operator: 'id', operand: level >= Q_LEVELS.INTEGER_ID && c % 2 === 0 ? pick(knownIds, c >> 1) : String(pick(knownIds, c >> 1)), negatable: true }),
    (c) => ({ operator: 'near', operand: String(pick(knownIds, c)), negatable: true }),
  ];
  if (channelScope) {
    const topics = [...corpus.topics(), ...(emptyTopicName !== undefined && level >= Q_LEVELS.EMPTY_TOPIC ? [emptyTopicName] : [])];
    const channelsOperator = level >= Q_LEVELS.CHANNEL_OPERATORS ? ['streams', 'channels'] : ['streams'];
    const topic: Candidate = (c) => ({ operator: 'topic', operand: pick(topics, c), negatable: true });
    return [
      ...common,
      topic,
      topic,
      topic,
      (c) => ({ operator: pick(channelsOperator, c), operand: 'public', negatable: true }),
      (c) => ({ operator: 'in', operand: pick(['home', 'all'], c), negatable: false }),
      (c) => ({ operator: 'stream', operand: c % 2 === 0 ? channel.id : channel.name, negatable: true }),
    ];
  }
  const dmNames = level >= Q_LEVELS.DM_OPERATORS ? ['is:dm', 'is:private'] : ['is:private'];
  const others = PEOPLE.filter((who) => ids[who] !== readerId);
  return [
    ...common,
    (c) => ({ operator: 'is', operand: pick(dmNames, c).slice(3), negatable: false }),
    (c) => ({ operator: 'pm-with', operand: pick([[ids[pick(others, c)]], others.map((who) => ids[who]), [readerId]], c >> 1), negatable: true }),
    (c) => ({ operator: 'pm-with', operand: [ids[pick(others, c)]], negatable: true }),
    ...(level >= Q_LEVELS.DM_OPERATORS ? [(c: number) => ({ operator: 'dm-including', operand: userOperand(pick(others, c), c >> 1), negatable: true })] : []),
  ];
}

/** The scope term: the rule's channel, or a direct conversation of the reader, or all of them with another person. */
function scopeTerm(spec: QuerySpec, corpus: Corpus, level: number): NarrowTerm {
  const { ids, emails, channel } = corpus.setup;
  const readerId = ids[spec.reader];
  const scope = spec.scope;
  if (scope.kind === 'channel') {
    const operator = scope.newSpelling && level >= Q_LEVELS.CHANNEL_OPERATORS ? 'channel' : 'stream';
    return { operator, operand: scope.byName ? channel.name : channel.id, negated: false };
  }
  if (scope.kind === 'dm-including' && level >= Q_LEVELS.DM_OPERATORS && scope.who !== spec.reader) {
    return { operator: 'dm-including', operand: scope.byEmail ? emails.get(ids[scope.who])! : ids[scope.who], negated: false };
  }
  const others = scope.kind === 'dm' ? scope.others.filter((who) => who !== spec.reader) : [];
  const members = [...others.map((who) => ids[who]), ...(others.length === 0 || (scope.kind === 'dm' && scope.withSelf) ? [readerId] : [])];
  const byEmail = scope.byEmail;
  const operator = scope.kind === 'dm' && scope.newSpelling && level >= Q_LEVELS.DM_OPERATORS ? 'dm' : 'pm-with';
  return { operator, operand: byEmail ? members.map((id) => emails.get(id)!).join(',') : members, negated: false };
}

/** A term as sent: the legacy `[operator, operand]` pair where it can say the same, else an object. */
function wireTerm(term: NarrowTerm, legacy: boolean): unknown {
  if (legacy && !term.negated && typeof term.operand === 'string') return [term.operator, term.operand];
  return term.negated ? { operator: term.operator, operand: term.operand, negated: true } : { operator: term.operator, operand: term.operand };
}

/** The concrete anchor: direct conversations only use anchors among the known messages or newest. */
function anchorOf(spec: AnchorSpec, known: readonly number[], open: boolean): { anchor: AnchorValue; text: string } {
  if (typeof spec === 'object') {
    const anchor = pick(known, spec.index) + spec.delta;
    return open && anchor < known[0]! ? { anchor: 'newest', text: 'newest' } : { anchor, text: String(anchor) };
  }
  if (open || spec === 'newest') return { anchor: 'newest', text: 'newest' };
  if (spec === 'zero') return { anchor: 0, text: '0' };
  if (spec === 'negative') return { anchor: -7, text: '-7' };
  if (spec === 'huge') return { anchor: 'newest', text: '10000000000000005' };
  return { anchor: spec, text: spec };
}

export function resolveQuery(spec: QuerySpec, corpus: Corpus, level: number): Query {
  const readerId = corpus.setup.ids[spec.reader];
  const scope = scopeTerm(spec, corpus, level);
  const channelScope = scope.operator === 'stream' || scope.operator === 'channel';
  const families = candidates(corpus, level, readerId, channelScope);
  const terms: NarrowTerm[] = [scope];
  for (const extra of spec.extras) {
    const { operator, operand, negatable } = pick(families, extra.family)(extra.choice);
    terms.push({ operator, operand, negated: negatable && extra.negated });
  }
  const known = corpus.messages.map((m) => m.id).sort((a, b) => a - b);
  const openBelow = !channelScope;
  const ownKnown = known.filter((id) => !openBelow || id >= corpus.knownFrom);
  const { anchor, text } = anchorOf(spec.anchor, ownKnown, openBelow);
  const kind = spec.kind === 'ids' && level < Q_LEVELS.MESSAGE_IDS ? 'window' : spec.kind;
  return {
    reader: spec.reader,
    readerId,
    terms,
    wire: terms.map((term, i) => wireTerm(term, spec.legacyForm[i % spec.legacyForm.length]!)),
    openBelow,
    kind,
    anchor,
    anchorText: text,
    numBefore: spec.numBefore,
    numAfter: spec.numAfter,
    includeAnchor: level >= Q_LEVELS.INCLUDE_ANCHOR ? spec.includeAnchor : undefined,
    applyMarkdown: spec.applyMarkdown,
    allowEmptyTopicName: level >= Q_LEVELS.EMPTY_TOPIC ? spec.allowEmptyTopicName : undefined,
    picked: known.filter((_, i) => spec.picks[i % spec.picks.length]),
  };
}

/** Whether the query asks for search (the server then indexes asynchronously, and adds match fields). */
export const isSearch = (query: Query): boolean => query.terms.some((term) => term.operator === 'search');

/** A one-line description of a query for failure reports. */
export function describeQuery(query: Query): string {
  const window = query.kind === 'window' ? ` anchor=${query.anchorText} num_before=${query.numBefore} num_after=${query.numAfter} include_anchor=${String(query.includeAnchor)}` : ` ids=[${query.picked.join(',')}]`;
  return `${query.kind} as ${query.reader}: narrow=${JSON.stringify(query.wire)}${window}`;
}
