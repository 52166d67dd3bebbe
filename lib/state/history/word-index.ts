/**
 * The inverted index behind `search`: each word (lexeme) to the messages whose content holds it,
 * and to the topics whose name holds it (a topic's messages are then found through the topic
 * index, so renaming a topic touches one entry, not each of its messages' postings). Stop words
 * are left out (see `isIndexedLexeme`).
 */
import type { Message } from '../../entities/message.js';
import { BulkPostings } from './bulk-postings.js';
import { emptyIds, IdList, type IdSource } from './id-list.js';
import { unionOf } from './id-sources.js';
import { isRenderingDeferred } from './lazy-rendering.js';
import { addLexemes, forEachLexeme, htmlText, isIndexedLexeme } from './search-words.js';

/** The text search finds a message by: its HTML's text (its plain source before it is rendered, which has the same words). */
export function searchableText(message: Message): string {
  return isRenderingDeferred(message) ? message.content : htmlText(message.renderedContent);
}

export class WordIndex {
  private readonly postings = new Map<string, IdList>();
  /** Lexeme to the keys of the topics whose name holds it. */
  private readonly topicsByWord = new Map<string, Set<string>>();
  /** Topic key to the lexemes of every spelling of its name seen (it only grows until the topic empties). */
  private readonly wordsByTopic = new Map<string, Set<string>>();

  /** Postings gathered during a load, sorted into the lists when it ends (or anything else happens first). */
  private bulk: BulkPostings | undefined;

  /** Gathers the postings of the messages added from now on, until `endBulk`. */
  beginBulk(): void {
    this.endBulk();
    this.bulk = new BulkPostings();
  }

  endBulk(): void {
    const bulk = this.bulk;
    this.bulk = undefined;
    bulk?.flushInto((word) => this.listOf(word));
  }

  private listOf(word: string): IdList {
    let list = this.postings.get(word);
    if (!list) this.postings.set(word, (list = new IdList()));
    return list;
  }

  /** Lists message `id` under each word of `text` (its searchable text). */
  addContent(id: number, text: string): void {
    if (this.bulk) this.bulk.addText(id, text);
    else forEachLexeme(text, (word) => isIndexedLexeme(word) && this.listOf(word).add(id));
  }

  removeContent(id: number, text: string): void {
    this.endBulk();
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
    this.endBulk();
    const parts = [this.postings.get(word) ?? emptyIds(), ...[...(this.topicsByWord.get(word) ?? [])].map(topicIds)];
    return unionOf(parts);
  }

  clear(): void {
    this.bulk = undefined;
    this.postings.clear();
    this.topicsByWord.clear();
    this.wordsByTopic.clear();
  }
}
