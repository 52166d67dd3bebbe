/**
 * Generated history for `history-scale`: the development realm's people and channels with N
 * messages (in place of its own few) of one shape at every size. Two years of messages, ascending in time; 90% in 2,000 topics spread over the
 * realm's channels (topic popularity and senders Zipf-distributed), 10% direct messages (one-on-one
 * and three-person groups). Sentences mix English stop words with a 20,000-word vocabulary drawn
 * Zipf-like, so some words are common and most are rare; 5% of messages carry Markdown (bold,
 * code, a mention, an emoji, a link). What a reader sees beyond the history's length is held
 * fixed, so a larger history answers the same windows: every user has 100 starred and 300
 * unread messages (the newest 250 they received and 50 spread over the newer half), and the rare
 * word occurs in exactly 12 messages Hamlet received.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { DEV_REALM_PATH } from '../fixtures/index.js';

/** What the operations need to know about a generated history. */
export interface HistoryPlan {
  readonly messages: number;
  readonly rareWord: string;
  readonly commonWord: string;
  /** A busy topic of a channel Hamlet is subscribed to. */
  readonly channel: string;
  readonly topic: string;
  /** The index, in the generated messages, of one Hamlet received half-way through. */
  readonly middleIndex: number;
}

const TWO_YEARS_MS = 2 * 365 * 86_400_000;
const END = Date.parse('2025-06-01T00:00:00Z');
const TOPICS = 2000;
const VOCABULARY = 20_000;
const STARRED_PER_USER = 100;
const UNREAD_NEWEST = 250;
const UNREAD_SCATTERED = 50;
const RARE_COUNT = 12;
const READER = 'hamlet@zulip.com';
const RARE_WORD = 'quetzalcoatl';
const STOP_WORDS = ['the', 'and', 'to', 'of', 'a', 'is', 'for', 'on', 'with', 'it', 'that', 'we', 'this', 'in', 'be'];

/** mulberry32: a small deterministic generator, so both sizes (and every run) are the same realm. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws indexes 0..n-1 with probability proportional to 1 / (rank + 1)^s. */
function zipf(n: number, s: number, next: () => number): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) cumulative[i] = total += 1 / (i + 1) ** s;
  return () => {
    const target = next() * total;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((cumulative[middle] as number) < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

/** Pronounceable words of two or three syllables, all distinct, none a stop word or ending in s. */
function vocabulary(next: () => number): string[] {
  const consonants = ['b', 'd', 'f', 'g', 'k', 'l', 'm', 'n', 'p', 'r', 't', 'v', 'z', 'ch', 'sh', 'th'];
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou'];
  const syllable = () => (consonants[Math.floor(next() * consonants.length)] as string) + (vowels[Math.floor(next() * vowels.length)] as string);
  const words = new Set<string>();
  while (words.size < VOCABULARY) words.add(syllable() + syllable() + (next() < 0.4 ? syllable() : ''));
  return [...words];
}

interface Base {
  readonly users: ReadonlyArray<{ readonly email: string; readonly isActive?: boolean }>;
  readonly channels: ReadonlyArray<{ readonly name: string; readonly subscribers: readonly string[] }>;
}

interface Draft {
  sender: string;
  type: 'stream' | 'direct';
  to: string[];
  topic?: string;
  content: string;
  sentAt: string;
  starredBy?: string[];
  unreadBy?: string[];
}

class HistoryGenerator {
  private readonly next = random(19);
  private readonly words = vocabulary(this.next);
  private readonly word = zipf(VOCABULARY, 1.05, this.next);
  private readonly topicRank = zipf(TOPICS, 0.9, this.next);
  private readonly people: string[];
  private readonly person: () => number;
  private readonly channels: Base['channels'];

  constructor(base: Base) {
    // The reader and Iago first: they are the most active senders of direct messages, to each other most.
    const active = base.users.filter((u) => u.isActive !== false).map((u) => u.email);
    this.people = [READER, 'iago@zulip.com', ...active.filter((email) => email !== READER && email !== 'iago@zulip.com')];
    this.person = zipf(this.people.length, 0.7, this.next);
    // Channels with three subscribers or more (Rome has one).
    this.channels = base.channels.filter((c) => c.subscribers.length >= 3);
  }

  get commonWord(): string {
    return this.words[12] as string;
  }

  /** Topic `rank` lives in one channel for the whole history. */
  topicOf(rank: number): { channel: Base['channels'][number]; topic: string } {
    const channel = this.channels[(rank * 7) % this.channels.length] as Base['channels'][number];
    return { channel, topic: `${this.words[(rank * 13) % 500]} ${this.words[(rank * 31) % 700]} ${rank}` };
  }

  private sentence(): string {
    const length = 4 + Math.floor(this.next() * 18);
    const parts: string[] = [];
    for (let i = 0; i < length; i++) parts.push(this.next() < 0.3 ? (STOP_WORDS[Math.floor(this.next() * STOP_WORDS.length)] as string) : (this.words[this.word()] as string));
    if (length > 8 && this.next() < 0.5) parts[Math.floor(length / 2)] += ',';
    const text = parts.join(' ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}${this.next() < 0.15 ? '?' : '.'}`;
  }

  private markup(text: string): string {
    const pick = this.words[this.word()] as string;
    switch (Math.floor(this.next() * 5)) {
      case 0:
        return `${text} **${pick}**`;
      case 1:
        return `${text} \`${pick}()\``;
      case 2:
        return `@**Iago** ${text}`;
      case 3:
        return `${text} :thumbs_up:`;
      default:
        return `${text} https://example.com/${pick}`;
    }
  }

  /** One message: who sends it to whom, and who receives it (its row holders). */
  message(index: number, count: number): { draft: Draft; holders: string[] } {
    const sentAt = new Date(END - TWO_YEARS_MS + Math.floor(((index + this.next()) * TWO_YEARS_MS) / count)).toISOString();
    let content = this.sentence();
    if (this.next() < 0.3) content += ` ${this.sentence()}`;
    if (this.next() < 0.05) content = this.markup(content);
    if (this.next() < 0.1) {
      const sender = this.people[this.person()] as string;
      const others = this.people.filter((p) => p !== sender);
      const to = new Set([others[Math.floor(this.next() * this.next() * others.length)] as string]);
      if (this.next() < 0.2) to.add(others[Math.floor(this.next() * others.length)] as string);
      return { draft: { sender, type: 'direct', to: [...to], content, sentAt }, holders: [...new Set([sender, ...to])] };
    }
    const { channel, topic } = this.topicOf(this.topicRank());
    const sender = channel.subscribers[Math.min(this.person(), channel.subscribers.length - 1)] as string;
    return { draft: { sender, type: 'stream', to: [channel.name], topic, content, sentAt }, holders: [...new Set([...channel.subscribers, sender])] };
  }
}

/** Marks every user's fixed starred and unread messages, and the rare word's messages. */
function markPerUser(drafts: Draft[], holders: string[][]): number {
  const received = new Map<string, number[]>();
  holders.forEach((list, index) => {
    for (const email of list) {
      let mine = received.get(email);
      if (!mine) received.set(email, (mine = []));
      mine.push(index);
    }
  });
  const spread = (list: readonly number[], count: number, offset: number): number[] =>
    Array.from({ length: Math.min(count, list.length) }, (_, k) => list[Math.floor(((k + offset) * list.length) / count)] as number);
  for (const [email, list] of received) {
    for (const index of spread(list, STARRED_PER_USER, 0.5)) ((drafts[index] as Draft).starredBy ??= []).push(email);
    // Older unread messages in the newer half only: the first unread one lies half-way through.
    const unread = new Set([...list.slice(-UNREAD_NEWEST), ...spread(list.slice(list.length >> 1), UNREAD_SCATTERED, 0.25)]);
    for (const index of unread) ((drafts[index] as Draft).unreadBy ??= []).push(email);
  }
  const reader = received.get(READER) ?? [];
  for (const index of spread(reader, RARE_COUNT, 0.75)) (drafts[index] as Draft).content += ` ${RARE_WORD}.`;
  return reader[Math.floor(reader.length / 2)] ?? 0;
}

/** Writes the fixture for `count` generated messages to `path`; returns what the operations need. */
export function writeHistoryFixture(path: string, count: number): HistoryPlan {
  const base = JSON.parse(readFileSync(DEV_REALM_PATH, 'utf8')) as Base;
  const generator = new HistoryGenerator(base);
  const drafts: Draft[] = [];
  const holders: string[][] = [];
  for (let i = 0; i < count; i++) {
    const { draft, holders: received } = generator.message(i, count);
    drafts.push(draft);
    holders.push(received);
  }
  const middleIndex = markPerUser(drafts, holders);
  const file = openSync(path, 'w');
  try {
    const head = JSON.stringify({ ...base, messages: [] });
    writeSync(file, head.slice(0, -2));
    let first = true;
    for (let i = 0; i < drafts.length; i += 10_000) {
      const chunk = drafts.slice(i, i + 10_000).map((draft) => JSON.stringify(draft));
      writeSync(file, `${first ? '' : ','}${chunk.join(',')}`);
      first = false;
    }
    writeSync(file, ']}');
  } finally {
    closeSync(file);
  }
  // Topic rank 0 is the busiest; find a busy one in a channel Hamlet reads.
  let rank = 0;
  while (!generator.topicOf(rank).channel.subscribers.includes(READER)) rank++;
  const { channel, topic } = generator.topicOf(rank);
  return { messages: count, rareWord: RARE_WORD, commonWord: generator.commonWord, channel: channel.name, topic, middleIndex };
}
