/**
 * The messages of the narrow model's property: a channel of the rule's own (whose every message,
 * Notification Bot's included, the model knows) and direct messages among three identities of
 * the run. Each send is recorded as a `ModelMessage`; the sends' answers say which topics their
 * senders now follow (`automatic_new_visibility_policy`). Direct conversations also hold older
 * messages of earlier runs: the model knows only those sent from `knownFrom` on.
 */
import fc from 'fast-check';
import type { ApiClient } from '../../client/api-client.js';
import { expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import type { ModelMessage } from '../../model/message-narrows.js';
import { fetchState, userDirectory } from '../support/channel-fixtures.js';
import { EVENT_DEADLINE_MS } from '../support/event-waits.js';
import { createChannel, type RunChannel } from '../support/message-fixtures.js';
import type { RuleContext } from '../types.js';

/** The identities that send and read. */
export const PEOPLE = ['admin', 'member', 'second-member'] as const;
export type Person = (typeof PEOPLE)[number];

/**
 * Search words that English stemming keeps as they are, that are no stop words and share no
 * stem: a full-text search and a whole-word search agree on them.
 */
export const VOCABULARY = ['zebra', 'okapi', 'lemur', 'tapir', 'quokka', 'marmot'] as const;

/** Topics of the channel (resolved ones start with the check mark). */
export const TOPICS = ['zebra', 'Zebra', 'okapi lemur', '✔ tapir'] as const;

const LINK = 'https://example.org';

/** Levels: `read_by_sender` (236), the empty topic (334). */
export const LEVELS = { READ_BY_SENDER: 236, EMPTY_TOPIC: 334 } as const;

export interface SendSpec {
  readonly sender: Person;
  /** A channel message in this topic (index into the topics), or a direct message to these others. */
  readonly to: { readonly topic: number } | { readonly others: readonly Person[] };
  readonly words: readonly string[];
  readonly link: boolean;
  readonly readBySender: boolean;
}

const person = fc.constantFrom<Person>(...PEOPLE);
const word = fc.tuple(fc.constantFrom(...VOCABULARY), fc.boolean()).map(([w, upper]) => (upper ? w.toUpperCase() : w));

export const sendSpec: fc.Arbitrary<SendSpec> = fc.record({
  sender: person,
  to: fc.oneof(fc.record({ topic: fc.noBias(fc.nat(5)) }), fc.record({ others: fc.subarray([...PEOPLE]) })),
  words: fc.array(word, { minLength: 1, maxLength: 3 }),
  link: fc.boolean(),
  readBySender: fc.boolean(),
});

export interface Setup {
  readonly level: number;
  readonly channel: RunChannel;
  readonly ids: Readonly<Record<Person, number>>;
  /** API emails by user ID. */
  readonly emails: ReadonlyMap<number, string>;
  readonly emptyTopicName: string | undefined;
  /** Whether a channel message may go to the empty topic (level 334, and the realm allows it). */
  readonly emptyTopicAllowed: boolean;
  /** Whether every reader's alert words are none (then `is:alerted` matches nothing). */
  readonly noAlertWords: boolean;
}

/** The run's state: every message the model knows and the topics each reader follows. */
export class Corpus {
  readonly messages: ModelMessage[] = [];
  private readonly followed = new Set<string>();
  /** The first ID the rule sent: direct conversations hold unknown messages below it. */
  knownFrom = Number.MAX_SAFE_INTEGER;

  constructor(readonly setup: Setup) {}

  follows(reader: number, channelId: number, topic: string): boolean {
    return this.followed.has(`${reader}:${channelId}:${topic.toLowerCase()}`);
  }

  topics(): string[] {
    return this.setup.emptyTopicAllowed ? [...TOPICS, ''] : [...TOPICS];
  }

  /** Sends one message as `spec` says and records it. */
  async send(ctx: RuleContext, level: number, spec: SendSpec): Promise<ModelMessage> {
    const { channel, ids } = this.setup;
    const content = [...spec.words, ...(spec.link ? [LINK] : [])].join(' ');
    const topics = this.topics();
    const senderId = ids[spec.sender];
    // A message to nobody else goes to oneself.
    const others = 'topic' in spec.to ? [] : [...new Set(spec.to.others.map((who) => ids[who]))].filter((id) => id !== senderId);
    const params: Record<string, unknown> =
      'topic' in spec.to
        ? { type: 'stream', to: channel.id, topic: topics[spec.to.topic % topics.length]!, content }
        : { type: 'private', to: others.length === 0 ? [senderId] : others, content };
    if (level >= LEVELS.READ_BY_SENDER) params.read_by_sender = spec.readBySender;
    const reply = await ctx.as(spec.sender).post('/messages', params);
    const body = expectShape(expectSuccess(reply), v.object({ id: v.int({ min: 1 }), automatic_new_visibility_policy: v.optional(v.int()) }), 'body', reply);
    const holders = new Set('topic' in spec.to ? PEOPLE.map((who) => ids[who]) : [senderId, ...others]);
    // Without read_by_sender (before 236) an API client's own message stays unread: only the
    // real server's own clients (web, mobile, desktop, terminal) have it read.
    const unreadBy = new Set([...holders].filter((id) => id !== senderId || level < LEVELS.READ_BY_SENDER || !spec.readBySender));
    const topic = typeof params.topic === 'string' ? params.topic : undefined;
    const message: ModelMessage = {
      id: body.id,
      senderId,
      ...(topic === undefined ? { participants: [...holders].sort((a, b) => a - b) } : { channelId: channel.id, topic }),
      words: new Set([...spec.words, ...(topic ?? '').split(' ')].map((w) => w.toLowerCase()).filter((w) => w !== '')),
      hasLink: spec.link,
      holders,
      unreadBy,
    };
    if (topic !== undefined && body.automatic_new_visibility_policy === 3) this.followed.add(`${senderId}:${channel.id}:${topic.toLowerCase()}`);
    this.record(message);
    return message;
  }

  /**
   * Sends a channel message holding `word` alone and waits until a search finds it: real
   * servers index messages for search asynchronously, in the order they were sent.
   */
  async awaitSearchIndex(ctx: RuleContext, level: number, word: string): Promise<void> {
    const sentinel = await this.send(ctx, level, { sender: 'admin', to: { topic: 0 }, words: [word], link: false, readBySender: true });
    const narrow = [{ operator: 'stream', operand: this.setup.channel.id }, { operator: 'search', operand: word }];
    const deadline = Date.now() + EVENT_DEADLINE_MS;
    for (let wait = 20; ; wait = Math.min(wait * 2, 500)) {
      const reply = await ctx.as('admin').get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow });
      const found = expectShape(expectSuccess(reply), v.object({ messages: v.array(v.object({ id: v.int() })) }), 'body', reply).messages;
      if (found.some((m) => m.id === sentinel.id)) return;
      if (Date.now() > deadline) fail(`a search for '${word}' did not find message ${sentinel.id} within ${EVENT_DEADLINE_MS / 1000} s`, reply);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  record(message: ModelMessage): void {
    this.messages.push(message);
    this.knownFrom = Math.min(this.knownFrom, message.id);
  }
}

interface FetchedMessage {
  id: number;
  sender_id: number;
  subject: string;
  content: string;
  flags: string[];
}

/** The channel's messages before the rule sent any (Notification Bot's), as `reader` has them (`extra` narrows further). */
async function existingMessages(client: ApiClient, channelId: number, extra: readonly unknown[] = []): Promise<FetchedMessage[]> {
  const params = { anchor: 'oldest', num_before: 0, num_after: 50, narrow: [{ operator: 'stream', operand: channelId }, ...extra], apply_markdown: false };
  const reply = await client.get('/messages', params);
  const shape = v.object({ messages: v.array(v.object({ id: v.int(), sender_id: v.int(), subject: v.string(), content: v.string(), flags: v.array(v.string()) })) });
  return expectShape(expectSuccess(reply), shape, 'body', reply).messages;
}

/**
 * A public channel of the rule's own with the three people subscribed, its existing messages in
 * the model, and what the realm says about topics and alert words. Skips when an existing
 * message holds a vocabulary word (search results would then depend on its wording).
 */
export async function prepareCorpus(ctx: RuleContext): Promise<Corpus> {
  const channel = await createChannel(ctx, 'admin', 'narrow-model', { members: ['member', 'second-member'] });
  const ids = Object.fromEntries(PEOPLE.map((who) => [who, ctx.identity(who).userId])) as Record<Person, number>;
  const directory = await userDirectory(ctx.as('admin'));
  const emails = new Map(PEOPLE.map((who) => [ids[who], directory.get(ids[who])?.email ?? ctx.identity(who).email]));
  const realm = await fetchState(ctx.as('admin'), ['realm']);
  const emptyTopicName = typeof realm.realm_empty_topic_display_name === 'string' ? realm.realm_empty_topic_display_name : undefined;
  const mandatory = realm.realm_mandatory_topics === true || realm.realm_topics_policy === 'disable_empty_topic';
  let noAlertWords = true;
  const unread = new Map<number, Set<number>>();
  let existing: FetchedMessage[] = [];
  for (const who of PEOPLE) {
    const words = (await fetchState(ctx.as(who), ['alert_words'])).alert_words;
    if (Array.isArray(words) && words.length > 0) noAlertWords = false;
    existing = await existingMessages(ctx.as(who), channel.id);
    for (const message of existing) if (!message.flags.includes('read')) (unread.get(message.id) ?? unread.set(message.id, new Set()).get(message.id)!).add(ids[who]);
  }
  // Whether Notification Bot's wording counts as a link is the server's business: asked once.
  const linked = new Set((await existingMessages(ctx.as('admin'), channel.id, [{ operator: 'has', operand: 'link' }])).map((m) => m.id));
  const setup: Setup = { level: ctx.featureLevel, channel, ids, emails, emptyTopicName, emptyTopicAllowed: ctx.featureLevel >= LEVELS.EMPTY_TOPIC && !mandatory, noAlertWords };
  const corpus = new Corpus(setup);
  for (const message of existing) {
    const text = `${message.subject} ${message.content}`.toLowerCase();
    const found = VOCABULARY.find((w) => text.includes(w));
    if (found) ctx.skip(`message ${message.id} of the new channel holds the search word '${found}'`);
    corpus.messages.push({ id: message.id, senderId: message.sender_id, channelId: channel.id, topic: message.subject, words: new Set(), hasLink: linked.has(message.id), holders: new Set(Object.values(ids)), unreadBy: unread.get(message.id) ?? new Set() });
  }
  return corpus;
}
