/**
 * The words search compares (lib/narrow/search.ts), here so that the history index can list the
 * messages holding each one: runs of letters and digits, lower-cased, with a light English plural
 * folding (`cats` is `cat`, `replies` is `reply`), and the stop words a query ignores.
 */
import { SEARCH_STOP_WORDS } from '../../data/search-stop-words.js';

/**
 * The real server's search stop words (the list `POST /register` serves as `stop_words`): its
 * PostgreSQL text-search configuration drops them from queries and documents alike.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(SEARCH_STOP_WORDS);

export const WORD = /[\p{L}\p{N}]+/gu;

/** The lexeme a word is compared by: lower case, English plural endings folded. */
export function lexeme(word: string): string {
  const lower = word.toLowerCase();
  if (lower.length > 4 && lower.endsWith('ies')) return `${lower.slice(0, -3)}y`;
  if (lower.length > 3 && lower.endsWith('es') && /(?:ss|x|z|ch|sh)es$/.test(lower)) return lower.slice(0, -2);
  if (lower.length > 3 && lower.endsWith('s') && !lower.endsWith('ss')) return lower.slice(0, -1);
  return lower;
}

const ENTITIES = new Map([
  ['&amp;', '&'],
  ['&lt;', '<'],
  ['&gt;', '>'],
  ['&quot;', '"'],
  ['&#39;', "'"],
  ['&#x27;', "'"],
]);

/** The text of rendered HTML: tags dropped, the common entities decoded. */
export function htmlText(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/&(?:amp|lt|gt|quot|#39|#x27);/g, (entity) => ENTITIES.get(entity) ?? entity);
}

const ASCII = /^[\x00-\x7f]*$/;

const isAsciiWordCode = (code: number): boolean => (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);

/** Calls `each` with the lexeme of every word of `text` (the words `WORD` finds; ASCII text without a regular expression). */
export function forEachLexeme(text: string, each: (word: string) => void): void {
  if (!ASCII.test(text)) {
    for (const [word] of text.matchAll(WORD)) each(lexeme(word));
    return;
  }
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const inWord = i < text.length && isAsciiWordCode(text.charCodeAt(i));
    if (inWord && start < 0) start = i;
    else if (!inWord && start >= 0) {
      each(lexeme(text.slice(start, i)));
      start = -1;
    }
  }
}

/** The lexemes of `text` added to `into`. */
export function addLexemes(text: string, into: Set<string>): Set<string> {
  forEachLexeme(text, (word) => into.add(word));
  return into;
}

/**
 * Lexemes the index leaves out: those of the stop words. A query's words are never stop words,
 * but a plural can fold onto one (`thes` is `the`); such a query finds its messages without the
 * index (lib/narrow/search.ts).
 */
export const isIndexedLexeme = (word: string): boolean => !STOP_WORDS.has(word);
