/**
 * Search postings gathered while a world is loaded (a fixture's or a saved world's messages) and
 * sorted into lists once at the end. Loading a million messages reads some sixteen million
 * words, nearly all of them a few thousand common spellings: ASCII text is scanned by character
 * code, each word hashed as it is read and found among the spellings met before in a flat
 * table, without making a string; a (word, message) pair is appended to a flat buffer, where
 * adding to one of twenty thousand lists per word would miss the cache each time.
 */
import { IdList } from './id-list.js';
import { forEachLexeme, isIndexedLexeme, lexeme } from './search-words.js';

const BLOCK = 1 << 20;
const NOT_INDEXED = -1;
const ASCII = /^[\x00-\x7f]*$/;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

const isWordCode = (code: number): boolean => (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);

export class BulkPostings {
  /** Lexeme to its number; the lexemes by number. */
  private readonly numbers = new Map<string, number>();
  private readonly words: string[] = [];
  /** Open addressing over spellings: hash and spelling number + 1 (0: free) per slot. */
  private hashes = new Int32Array(1 << 16);
  private slots = new Int32Array(1 << 16);
  private readonly spellings: string[] = [];
  /** Per spelling, its lexeme's number (NOT_INDEXED for a stop word). */
  private readonly spellingWords: number[] = [];
  /** Pairs (word number, message ID), in blocks. */
  private readonly blocks: Int32Array[] = [];
  private used = BLOCK;

  private numberOf(word: string): number {
    if (!isIndexedLexeme(word)) return NOT_INDEXED;
    let number = this.numbers.get(word);
    if (number === undefined) {
      number = this.words.length;
      this.numbers.set(word, number);
      this.words.push(word);
    }
    return number;
  }

  private push(number: number, id: number): void {
    if (number === NOT_INDEXED) return;
    if (this.used === BLOCK) {
      this.blocks.push(new Int32Array(BLOCK));
      this.used = 0;
    }
    const block = this.blocks[this.blocks.length - 1] as Int32Array;
    block[this.used] = number;
    block[this.used + 1] = id;
    this.used += 2;
  }

  /** Lists message `id` under each indexed word of `text` (the words `WORD` finds, as lexemes). */
  addText(id: number, text: string): void {
    if (!ASCII.test(text)) {
      forEachLexeme(text, (word) => this.push(this.numberOf(word), id));
      return;
    }
    let start = -1;
    let hash = 0;
    for (let i = 0; i <= text.length; i++) {
      const code = i < text.length ? text.charCodeAt(i) : 0;
      if (isWordCode(code)) {
        if (start < 0) (start = i), (hash = FNV_OFFSET);
        hash = Math.imul(hash ^ code, FNV_PRIME);
      } else if (start >= 0) {
        this.push(this.spelt(text, start, i, hash), id);
        start = -1;
      }
    }
  }

  /** The word number of the spelling text[start, end), hashed `hash`. */
  private spelt(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (let found = this.slots[slot] as number; found !== 0; found = this.slots[(slot = (slot + 1) & mask)] as number) {
      if (this.hashes[slot] !== hash) continue;
      const spelling = this.spellings[found - 1] as string;
      if (spelling.length === end - start && text.startsWith(spelling, start)) return this.spellingWords[found - 1] as number;
    }
    const spelling = text.slice(start, end);
    const number = this.numberOf(lexeme(spelling));
    this.spellings.push(spelling);
    this.spellingWords.push(number);
    this.hashes[slot] = hash;
    this.slots[slot] = this.spellings.length;
    if (this.spellings.length * 2 > this.slots.length) this.rehash();
    return number;
  }

  private rehash(): void {
    const { hashes, slots } = this;
    this.hashes = new Int32Array(hashes.length * 2);
    this.slots = new Int32Array(slots.length * 2);
    const mask = this.slots.length - 1;
    for (let old = 0; old < slots.length; old++) {
      if (slots[old] === 0) continue;
      let slot = (hashes[old] as number) & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.hashes[slot] = hashes[old] as number;
      this.slots[slot] = slots[old] as number;
    }
  }

  private *pairs(): IterableIterator<Int32Array> {
    for (let index = 0; index < this.blocks.length; index++) {
      const block = this.blocks[index] as Int32Array;
      yield index === this.blocks.length - 1 ? block.subarray(0, this.used) : block;
    }
  }

  /** Adds every gathered pair to `listOf(word)`, each word's IDs in the order they came. */
  flushInto(listOf: (word: string) => IdList): void {
    const counts = new Int32Array(this.words.length + 1);
    for (const pairs of this.pairs()) {
      for (let i = 0; i < pairs.length; i += 2) counts[(pairs[i] as number) + 1] = (counts[(pairs[i] as number) + 1] as number) + 1;
    }
    for (let word = 1; word < counts.length; word++) counts[word] = (counts[word] as number) + (counts[word - 1] as number);
    const ids = new Int32Array(counts[this.words.length] as number);
    const next = counts.slice(0, this.words.length);
    for (const pairs of this.pairs()) {
      for (let i = 0; i < pairs.length; i += 2) {
        const word = pairs[i] as number;
        ids[next[word] as number] = pairs[i + 1] as number;
        next[word] = (next[word] as number) + 1;
      }
    }
    this.words.forEach((word, number) => {
      const list = listOf(word);
      const end = counts[number + 1] as number;
      // A word twice in one message came twice in a row.
      for (let i = counts[number] as number; i < end; i++) if (i === counts[number] || ids[i] !== ids[i - 1]) list.add(ids[i] as number);
    });
  }
}
