/**
 * The inverted index behind `search`: each word (lexeme) to the messages whose content holds it,
 * and to the topics whose name holds it (a topic's messages are then found through the topic
 * index, so renaming a topic touches one entry, not each of its messages' postings). Stop words
 * are left out (see `isIndexedLexeme`).
 */
import type { Message } from '../../entities/message.js';
import { emptyIds, IdList, type IdSource } from './id-list.js';
import { unionOf } from './id-sources.js';
import { isRenderingDeferred } from './lazy-rendering.js';
import { addLexemes, htmlText, isIndexedLexeme } from './search-words.js';

/** The words search finds a message by in its content: those of its HTML's text (of its plain source before it is rendered). */
export function contentWords(message: Message): Set<string> {
  const text = isRenderingDeferred(message) ? message.content : htmlText(message.renderedContent);
  return addLexemes(text, new Set());
}

export class WordIndex {
  private readonly postings = new Map<string, IdList>();
  /** Lexeme to the keys of the topics whose name holds it. */
  private readonly topicsByWord = new Map<string, Set<string>>();
  /** Topic key to the lexemes of every spelling of its name seen (it only grows until the topic empties). */
  private readonly wordsByTopic = new Map<string, Set<string>>();
  /** Topic key to the spellings of its name already read, so most messages cost one lookup here. */
  private readonly spellings = new Map<string, Set<string>>();

  addContent(id: number, words: Iterable<string>): void {
    for (const word of words) {
      if (!isIndexedLexeme(word)) continue;
      let list = this.postings.get(word);
      if (!list) this.postings.set(word, (list = new IdList()));
      list.add(id);
    }
  }

  removeContent(id: number, words: Iterable<string>): void {
    for (const word of words) {
      const list = this.postings.get(word);
      if (list?.delete(id) && list.size === 0) this.postings.delete(word);
    }
  }

  /** Records a spelling of topic `key`'s name (a message with that topic arrived). */
  addTopicName(key: string, topic: string): void {
    let seen = this.spellings.get(key);
    if (seen?.has(topic)) return;
    if (!seen) this.spellings.set(key, (seen = new Set()));
    seen.add(topic);
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
    this.spellings.delete(key);
  }

  /**
   * The messages holding `word` in their content or topic name, as a superset (a topic's other
   * spellings may lack it); undefined for a word the index leaves out.
   */
  find(word: string, topicIds: (key: string) => IdSource): IdSource | undefined {
    if (!isIndexedLexeme(word)) return undefined;
    const parts = [this.postings.get(word) ?? emptyIds(), ...[...(this.topicsByWord.get(word) ?? [])].map(topicIds)];
    return unionOf(parts);
  }

  clear(): void {
    this.postings.clear();
    this.topicsByWord.clear();
    this.wordsByTopic.clear();
    this.spellings.clear();
  }
}
