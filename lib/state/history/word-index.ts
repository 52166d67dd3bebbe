/**
 * The inverted index behind `search`: each word (lexeme) to the messages whose content holds it,
 * and to the topics whose name holds it (a topic's messages are then found through the topic
 * index, so renaming a topic touches one entry, not each of its messages' postings). Stop words
 * are left out (see `isIndexedLexeme`).
 *
 * A loaded history's messages are listed later rather than while it loads (reading a million
 * messages' words takes seconds): they wait in `pending`, oldest first, and are listed a slice
 * at a time (`indexPending`, which a running app calls when idle) or all at once by the first
 * search, so every search still sees every word. Each stored message is either pending or listed.
 */
import type { Message } from '../../entities/message.js';
import { BulkPostings } from './bulk-postings.js';
import { emptyIds, IdList, type IdSource } from './id-list.js';
import { unionOf } from './id-sources.js';
import { hasUnrenderedWords } from './lazy-rendering.js';
import { addLexemes, forEachLexeme, htmlText, isIndexedLexeme } from './search-words.js';

/** The text search finds a message by: its HTML's text (the source of unrendered plain text, which has the same words). */
export function searchableText(message: Message): string {
  return hasUnrenderedWords(message) ? message.content : htmlText(message.renderedContent);
}

export class WordIndex {
  private readonly postings = new Map<string, IdList>();
  /** Lexeme to the keys of the topics whose name holds it. */
  private readonly topicsByWord = new Map<string, Set<string>>();
  /** Topic key to the lexemes of every spelling of its name seen (it only grows until the topic empties). */
  private readonly wordsByTopic = new Map<string, Set<string>>();

  /** Messages whose words are not listed yet; undefined when none is. */
  private pending: IdList | undefined;
  /** The spellings met by `indexPending` so far, kept from slice to slice until nothing is pending. */
  private bulk: BulkPostings | undefined;

  /** `textOf(id)`: the searchable text of stored message `id`, read when a pending message is listed. */
  constructor(private readonly textOf: (id: number) => string | undefined) {}

  /** Messages added from now on wait to be listed (as does any added while some wait). */
  defer(): void {
    this.pending ??= new IdList();
  }

  /** How many messages wait to be listed. */
  get pendingCount(): number {
    return this.pending?.size ?? 0;
  }

  /** Lists the words of up to `limit` pending messages, oldest first; true when none is left. */
  indexPending(limit = Infinity): boolean {
    const pending = this.pending;
    if (!pending) return true;
    const bulk = (this.bulk ??= new BulkPostings());
    let id = pending.first;
    for (let done = 0; id !== undefined && done < limit; done++, id = pending.atLeast(id + 1)) {
      const text = this.textOf(id);
      if (text !== undefined) bulk.addText(id, text);
    }
    // Pending IDs are nearly all above the listed ones, so lists mostly grow at their end.
    bulk.flushInto((word) => this.listOf(word));
    if (id !== undefined) {
      pending.deleteBelow(id);
      return false;
    }
    this.pending = undefined;
    this.bulk = undefined;
    return true;
  }

  private listOf(word: string): IdList {
    let list = this.postings.get(word);
    if (!list) this.postings.set(word, (list = new IdList()));
    return list;
  }

  /** Lists the message under each word of its searchable text (or leaves it pending). */
  addContent(message: Message): void {
    const id = message.id;
    // Its text is read only when it is listed: an unrendered message is not rendered to be stored.
    if (this.pending) this.pending.add(id);
    else forEachLexeme(searchableText(message), (word) => isIndexedLexeme(word) && this.listOf(word).add(id));
  }

  removeContent(id: number, text: string): void {
    if (this.pending?.delete(id)) return;
    forEachLexeme(text, (word) => {
      const list = this.postings.get(word);
      if (list?.delete(id) && list.size === 0) this.postings.delete(word);
    });
  }

  /** Records a spelling of topic `key`'s name (a message with a spelling new to the topic arrived). */
  addTopicName(key: string, topic: string): void {
    let words = this.wordsByTopic.get(key);
    if (!words) this.wordsByTopic.set(key, (words = new Set()));
    for (const word of addLexemes(topic, new Set())) {
      if (words.has(word) || !isIndexedLexeme(word)) continue;
      words.add(word);
      let keys = this.topicsByWord.get(word);
      if (!keys) this.topicsByWord.set(word, (keys = new Set()));
      keys.add(key);
    }
  }

  /** Forgets topic `key` (its last message left). */
  removeTopic(key: string): void {
    for (const word of this.wordsByTopic.get(key) ?? []) {
      const keys = this.topicsByWord.get(word);
      keys?.delete(key);
      if (keys?.size === 0) this.topicsByWord.delete(word);
    }
    this.wordsByTopic.delete(key);
  }

  /**
   * The messages holding `word` in their content or topic name, as a superset (a topic's other
   * spellings may lack it); undefined for a word the index leaves out.
   */
  find(word: string, topicIds: (key: string) => IdSource): IdSource | undefined {
    if (!isIndexedLexeme(word)) return undefined;
    this.indexPending();
    const parts = [this.postings.get(word) ?? emptyIds(), ...[...(this.topicsByWord.get(word) ?? [])].map(topicIds)];
    return unionOf(parts);
  }

  clear(): void {
    this.pending = undefined;
    this.bulk = undefined;
    this.postings.clear();
    this.topicsByWord.clear();
    this.wordsByTopic.clear();
  }
}
