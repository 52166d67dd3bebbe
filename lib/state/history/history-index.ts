/**
 * Sorted message-ID lists over the stored history, kept by the message store (MessageMap) as
 * messages are stored, moved, edited and deleted, and by each message's rows as flags change:
 * every message; per channel, topic (case-insensitively), direct conversation and sender; per
 * user (lib/state/history/user-index.ts); per search word (word-index.ts). Readers combine them
 * (id-sources.ts) and check each candidate against the message itself, so an index only has to
 * hold every message that belongs, never to be exact to the letter.
 */
import type { Message, Recipient } from '../../entities/message.js';
import { emptyIds, IdList, type IdSource } from './id-list.js';
import { unionOf } from './id-sources.js';
import { MessageRows, type RowObserver } from './message-rows.js';
import { UserIndex, type UserListName } from './user-index.js';
import { searchableText, WordIndex } from './word-index.js';

interface ChannelEntry {
  readonly ids: IdList;
  /** Lower-cased topic name to its messages. */
  readonly topics: Map<string, IdList>;
  /** The topic names (as spelt) whose words the word index has, so most messages add none. */
  readonly spellings: Set<string>;
}

const topicKey = (streamId: number, lowerTopic: string): string => `${streamId}\u0000${lowerTopic}`;
/** A direct conversation by its participants (sorted, as stored). */
const directKey = (userIds: readonly number[]): string => userIds.join(',');

function listIn<K>(lists: Map<K, IdList>, key: K): IdList {
  let list = lists.get(key);
  if (!list) lists.set(key, (list = new IdList()));
  return list;
}

export class HistoryIndex {
  /** Every stored message. */
  readonly all = new IdList();
  private readonly channels = new Map<number, ChannelEntry>();
  /** Lower-cased topic name to the channels that have it. */
  private readonly channelsByTopic = new Map<string, Set<number>>();
  private readonly directs = new Map<string, IdList>();
  private readonly senders = new Map<number, IdList>();
  private readonly words = new WordIndex();
  private readonly users = new UserIndex();
  /** What stored messages' rows report their changes to. */
  readonly rowObserver: RowObserver;

  constructor(lookup: (id: number) => Message | undefined) {
    this.rowObserver = (messageId, userId, before, after) => {
      const direct = lookup(messageId)?.recipient.kind === 'direct';
      this.users.rowChanged(messageId, direct, userId, before, after);
    };
  }

  /** Indexes a message just stored (its rows already a MessageRows). */
  add(message: Message, rows: MessageRows): void {
    const id = message.id;
    this.all.add(id);
    this.addConversation(id, message.recipient);
    listIn(this.senders, message.senderId).add(id);
    const direct = message.recipient.kind === 'direct';
    const holders = rows.holders;
    for (let i = 0; i < holders.length; i++) this.users.rowAdded(id, direct, holders[i] as number, rows.bitsAt(i));
    this.words.addContent(id, searchableText(message));
  }

  /**
   * Runs `load` (storing many messages) with the search postings gathered and sorted at the end,
   * which is several times faster for a whole history.
   */
  bulkLoad<T>(load: () => T): T {
    this.words.beginBulk();
    try {
      return load();
    } finally {
      this.words.endBulk();
    }
  }

  /** Forgets a message being deleted. */
  remove(message: Message, rows: MessageRows): void {
    const id = message.id;
    this.all.delete(id);
    this.removeConversation(id, message.recipient);
    this.senders.get(message.senderId)?.delete(id);
    const direct = message.recipient.kind === 'direct';
    rows.forEachBits((userId, bits) => this.users.rowChanged(id, direct, userId, bits, undefined));
    this.words.removeContent(id, searchableText(message));
  }

  /** A message moved from `from` to its current recipient. */
  moved(message: Message, from: Recipient): void {
    this.removeConversation(message.id, from);
    this.addConversation(message.id, message.recipient);
  }

  /** A message's content changed; `before` is the searchable text it had. */
  contentChanged(message: Message, before: string): void {
    this.words.removeContent(message.id, before);
    this.words.addContent(message.id, searchableText(message));
  }

  private addConversation(id: number, recipient: Recipient): void {
    if (recipient.kind === 'direct') {
      listIn(this.directs, directKey(recipient.userIds)).add(id);
      return;
    }
    const { streamId, topic } = recipient;
    let channel = this.channels.get(streamId);
    if (!channel) this.channels.set(streamId, (channel = { ids: new IdList(), topics: new Map(), spellings: new Set() }));
    channel.ids.add(id);
    const lower = topic.toLowerCase();
    let list = channel.topics.get(lower);
    if (!list) {
      channel.topics.set(lower, (list = new IdList()));
      let streams = this.channelsByTopic.get(lower);
      if (!streams) this.channelsByTopic.set(lower, (streams = new Set()));
      streams.add(streamId);
    }
    list.add(id);
    if (!channel.spellings.has(topic)) {
      channel.spellings.add(topic);
      this.words.addTopicName(topicKey(streamId, lower), topic);
    }
  }

  private removeConversation(id: number, recipient: Recipient): void {
    if (recipient.kind === 'direct') {
      const key = directKey(recipient.userIds);
      const list = this.directs.get(key);
      if (list?.delete(id) && list.size === 0) this.directs.delete(key);
      return;
    }
    const { streamId } = recipient;
    const channel = this.channels.get(streamId);
    if (!channel) return;
    channel.ids.delete(id);
    const lower = recipient.topic.toLowerCase();
    const list = channel.topics.get(lower);
    if (list?.delete(id) && list.size === 0) {
      channel.topics.delete(lower);
      for (const spelling of channel.spellings) if (spelling.toLowerCase() === lower) channel.spellings.delete(spelling);
      const streams = this.channelsByTopic.get(lower);
      streams?.delete(streamId);
      if (streams?.size === 0) this.channelsByTopic.delete(lower);
      this.words.removeTopic(topicKey(streamId, lower));
    }
    if (channel.ids.size === 0) this.channels.delete(streamId);
  }

  channel(streamId: number): IdSource {
    return this.channels.get(streamId)?.ids ?? emptyIds();
  }

  /** A topic of one channel, case-insensitively. */
  topic(streamId: number, topic: string): IdSource {
    return this.channels.get(streamId)?.topics.get(topic.toLowerCase()) ?? emptyIds();
  }

  /** A topic name in every channel that has it, case-insensitively. */
  topicAnywhere(topic: string): IdSource {
    const lower = topic.toLowerCase();
    return unionOf([...(this.channelsByTopic.get(lower) ?? [])].map((streamId) => this.topic(streamId, lower)));
  }

  /** A channel's topics: lower-cased name to its messages. */
  topicsOf(streamId: number): ReadonlyMap<string, IdSource> {
    return this.channels.get(streamId)?.topics ?? new Map();
  }

  /** A direct conversation by its participants, sorted ascending. */
  direct(userIds: readonly number[]): IdSource {
    return this.directs.get(directKey(userIds)) ?? emptyIds();
  }

  sender(userId: number): IdSource {
    return this.senders.get(userId) ?? emptyIds();
  }

  /** One of a user's lists (`received`, `unread`, `starred`, `mentioned`, `alerted`, `direct`). */
  user(userId: number, name: UserListName): IdSource {
    return this.users.list(userId, name);
  }

  /** Messages holding a search word (in content or topic), or undefined for a word left unindexed. */
  word(lexeme: string): IdSource | undefined {
    return this.words.find(lexeme, (key) => {
      const at = key.indexOf('\u0000');
      return this.topic(Number(key.slice(0, at)), key.slice(at + 1));
    });
  }

  clear(): void {
    this.all.clear();
    this.channels.clear();
    this.channelsByTopic.clear();
    this.directs.clear();
    this.senders.clear();
    this.words.clear();
    this.users.clear();
  }
}
