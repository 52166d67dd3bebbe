/**
 * The words search compares (lib/narrow/search.ts), here so that the history index can list the
 * messages holding each one: runs of letters and digits, lower-cased, with a light English plural
 * folding (`cats` is `cat`, `replies` is `reply`), and the stop words a query ignores.
 */

/** A subset of PostgreSQL's English stop-word list (the most common words). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can did do does doing down during each few for from further had has have having he her here hers herself him himself ' +
    'his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ' +
    'ourselves out over own same she should so some such than that the their theirs them themselves then there these they ' +
    'this those through to too under until up very was we were what when where which while who whom why will with you your ' +
    'yours yourself yourselves'
  ).split(' '),
);

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
