/**
 * The `search` operator: an approximation of the real server's PostgreSQL full-text search
 * (`plainto_tsquery` with an English configuration over the topic and the rendered content,
 * plus a case-insensitive substring match for each "quoted phrase"), and the
 * `match_content` / `match_subject` highlighting it returns.
 *
 * Words are runs of letters and digits, compared case-insensitively after a light English
 * plural folding (`cats` finds `cat`, `replies` finds `reply`); the real server's stop words
 * (`stop_words` in `POST /register`, lib/data/search-stop-words.ts) are ignored, and a query of
 * stop words only matches nothing, as an empty `tsquery` does.
 */

import { addLexemes, htmlText, lexeme, STOP_WORDS, WORD } from '../state/history/search-words.js';
import { wordsListed } from '../state/history/background-words.js';
import type { World } from '../state/world.js';
import type { NarrowTerm } from './terms.js';

export { htmlText, lexeme } from '../state/history/search-words.js';

export interface SearchQuery {
  /** Lexemes that must all occur in the topic or the content. */
  readonly lexemes: ReadonlySet<string>;
  /** Quoted phrases that must each occur (case-insensitively) in the content source or the topic. */
  readonly phrases: readonly string[];
}

/**
 * For a narrow with a `search` term while a loaded history's words are still being listed: a
 * promise of the moment they all are (undefined when the search can run now).
 */
export function searchWordsPending(world: World, terms: readonly NarrowTerm[] | null): Promise<void> | undefined {
  const index = world.messages.index;
  if (index.pendingWords === 0 || !terms?.some((term) => term.operator === 'search')) return undefined;
  return wordsListed(index);
}

/** Parses a search operand (several `search` terms are joined with spaces first). */
export function parseSearch(operand: string): SearchQuery {
  const lexemes = new Set<string>();
  for (const [word] of operand.matchAll(WORD)) {
    if (!STOP_WORDS.has(word.toLowerCase())) lexemes.add(lexeme(word));
  }
  const phrases: string[] = [];
  for (const [token] of operand.matchAll(/"[^"]+"|\S+/g)) {
    if (token.length > 1 && token.startsWith('"') && token.endsWith('"')) phrases.push(token.slice(1, -1).toLowerCase());
  }
  return { lexemes, phrases };
}

/** Whether a message with this topic, content source and rendered content matches the query. */
export function matchesSearch(query: SearchQuery, topic: string, content: string, renderedContent: string): boolean {
  if (query.lexemes.size === 0) return false;
  const present = addLexemes(htmlText(renderedContent), addLexemes(topic, new Set()));
  for (const wanted of query.lexemes) if (!present.has(wanted)) return false;
  const haystacks = [content.toLowerCase(), topic.toLowerCase()];
  return query.phrases.every((phrase) => haystacks.some((text) => text.includes(phrase)));
}

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

/**
 * Wraps each word of `html` (outside tags and entities) whose lexeme is searched for in
 * `<span class="highlight">`, as the real server marks the matches of `ts_headline`.
 */
export function highlight(html: string, query: SearchQuery): string {
  if (query.lexemes.size === 0) return html;
  return html.replace(/(<[^>]*>|&#?\w+;)|[\p{L}\p{N}]+/gu, (token: string, markup: string | undefined) => {
    if (markup !== undefined || !query.lexemes.has(lexeme(token))) return token;
    return `<span class="highlight">${token}</span>`;
  });
}

/** The `match_content` and `match_subject` fields of a search result. */
export function searchFields(query: SearchQuery | undefined, topic: string, renderedContent: string): { match_content: string; match_subject: string } {
  const empty: SearchQuery = { lexemes: new Set(), phrases: [] };
  return {
    match_content: highlight(renderedContent, query ?? empty),
    match_subject: highlight(escapeHtml(topic), query ?? empty),
  };
}
