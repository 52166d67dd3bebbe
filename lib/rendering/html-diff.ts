/**
 * A word-level diff of two rendered messages for `content_html_diff` (spec 2.5; reference §1.4):
 * the new HTML, wrapped in `<div>…</div>`, with inserted words in
 * `<span class="highlight_text_inserted">` and removed words in
 * `<span class="highlight_text_deleted">`. The real server uses lxml's HTML diff; this is a small
 * re-implementation of the same idea (markup comes from the new version, each changed run shows
 * the inserted words first, then the deleted ones), so details may differ.
 */

import { isUnicodeWhiteSpace } from '../input/strings.js';

/** A tag or a word, with the whitespace that follows it (not compared, but kept). */
interface Token {
  readonly kind: 'tag' | 'word';
  readonly text: string;
  readonly space: string;
}

/** JavaScript's `\s`: Unicode White_Space without U+0085, with U+FEFF. */
const isSpace = (unit: number): boolean => unit === 0xfeff || (unit !== 0x85 && isUnicodeWhiteSpace(unit));

/**
 * Splits HTML into tags and words, each with the whitespace after it; leading whitespace is kept
 * as an empty tag's space. A `<` that no `>` closes is dropped. One pass, each character looked
 * at once (the pattern this replaces retried the rest of the text from every unclosed `<`).
 */
function tokenize(html: string): Token[] {
  const tokens: Token[] = [];
  const length = html.length;
  const spacesFrom = (from: number): number => {
    let end = from;
    while (end < length && isSpace(html.charCodeAt(end))) end++;
    return end;
  };
  let i = 0;
  let close = 0;
  while (i < length) {
    const unit = html.charCodeAt(i);
    if (isSpace(unit)) {
      const end = spacesFrom(i);
      tokens.push({ kind: 'tag', text: '', space: html.slice(i, end) });
      i = end;
      continue;
    }
    let end: number;
    if (unit === 0x3c) {
      // The next `>` is found once and reused by every `<` before it, so unclosed ones cost nothing extra.
      if (close !== -1 && close <= i) close = html.indexOf('>', i + 1);
      if (close === -1) {
        i++;
        continue;
      }
      end = close + 1;
    } else {
      end = i + 1;
      while (end < length && html.charCodeAt(end) !== 0x3c && !isSpace(html.charCodeAt(end))) end++;
    }
    const spaceEnd = spacesFrom(end);
    tokens.push({ kind: unit === 0x3c ? 'tag' : 'word', text: html.slice(i, end), space: html.slice(end, spaceEnd) });
    i = spaceEnd;
  }
  return tokens;
}

const same = (a: Token, b: Token): boolean => a.kind === b.kind && a.text === b.text;

type Op = { readonly op: 'equal' | 'insert' | 'delete'; readonly token: Token };

/**
 * The largest middle part (tokens before times tokens after, once the common start and end are
 * set aside) aligned word by word: 4 MiB of table, a few milliseconds. A larger one (two long,
 * mostly different versions) is shown as all deleted, then all inserted, instead of spending time
 * and memory that grow with the product of the two lengths.
 */
const MAX_ALIGNED_CELLS = 1_000_000;

/** Longest-common-subsequence alignment of two token lists (see MAX_ALIGNED_CELLS). */
function align(before: readonly Token[], after: readonly Token[]): Op[] {
  let start = 0;
  while (start < before.length && start < after.length && same(before[start] as Token, after[start] as Token)) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && same(before[endBefore - 1] as Token, after[endAfter - 1] as Token)) {
    endBefore--;
    endAfter--;
  }
  const equal = (tokens: readonly Token[]): Op[] => tokens.map((token) => ({ op: 'equal', token }));
  const middleBefore = before.slice(start, endBefore);
  const middleAfter = after.slice(start, endAfter);
  const middle =
    (middleBefore.length + 1) * (middleAfter.length + 1) <= MAX_ALIGNED_CELLS
      ? alignWords(middleBefore, middleAfter)
      : [...middleBefore.map((token): Op => ({ op: 'delete', token })), ...middleAfter.map((token): Op => ({ op: 'insert', token }))];
  return [...equal(after.slice(0, start)), ...middle, ...equal(after.slice(endAfter))];
}

/** The dynamic-programming alignment, one typed row per token of `before`. */
function alignWords(before: readonly Token[], after: readonly Token[]): Op[] {
  const n = before.length;
  const m = after.length;
  const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    const row = table[i] as Uint32Array;
    const next = table[i + 1] as Uint32Array;
    for (let j = m - 1; j >= 0; j--) {
      row[j] = same(before[i] as Token, after[j] as Token) ? (next[j + 1] as number) + 1 : Math.max(next[j] as number, row[j + 1] as number);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && same(before[i] as Token, after[j] as Token)) {
      ops.push({ op: 'equal', token: after[j++] as Token });
      i++;
    } else if (j < m && (i >= n || (table[i] as Uint32Array)[j + 1]! >= (table[i + 1] as Uint32Array)[j]!)) {
      ops.push({ op: 'insert', token: after[j++] as Token });
    } else {
      ops.push({ op: 'delete', token: before[i++] as Token });
    }
  }
  return ops;
}

function wrapWords(words: readonly Token[], cls: string): string {
  if (words.length === 0) return '';
  const text = words.map((w, k) => w.text + (k < words.length - 1 ? w.space : '')).join('');
  return `<span class="${cls}">${text}</span>`;
}

const trailingSpace = (words: readonly Token[]): string => words[words.length - 1]?.space ?? '';

/** Renders one changed run: new tags and inserted words, then the deleted words. */
function renderChange(inserted: readonly Token[], deleted: readonly Token[]): string {
  let out = '';
  let run: Token[] = [];
  const flush = (): void => {
    out += wrapWords(run, 'highlight_text_inserted') + trailingSpace(run);
    run = [];
  };
  for (const token of inserted) {
    if (token.kind === 'tag') {
      flush();
      out += token.text + token.space;
    } else run.push(token);
  }
  const deletedWords = deleted.filter((t) => t.kind === 'word');
  if (deletedWords.length > 0) {
    if (run.length > 0) {
      out += wrapWords(run, 'highlight_text_inserted') + (trailingSpace(run) || ' ');
      run = [];
    }
    out += wrapWords(deletedWords, 'highlight_text_deleted') + trailingSpace(deletedWords);
  }
  flush();
  return out;
}

/** The HTML diff from `before` to `after`, wrapped in a `<div>`. */
export function htmlDiff(before: string, after: string): string {
  const ops = align(tokenize(before), tokenize(after));
  let out = '';
  let inserted: Token[] = [];
  let deleted: Token[] = [];
  const flush = (): void => {
    if (inserted.length > 0 || deleted.length > 0) out += renderChange(inserted, deleted);
    inserted = [];
    deleted = [];
  };
  for (const { op, token } of ops) {
    if (op === 'insert') inserted.push(token);
    else if (op === 'delete') deleted.push(token);
    else {
      flush();
      out += token.text + token.space;
    }
  }
  flush();
  return `<div>${out}</div>`;
}
