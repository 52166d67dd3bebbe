/**
 * A word-level diff of two rendered messages for `content_html_diff` (spec 2.5; reference §1.4):
 * the new HTML, wrapped in `<div>…</div>`, with inserted words in
 * `<span class="highlight_text_inserted">` and removed words in
 * `<span class="highlight_text_deleted">`. The real server uses lxml's HTML diff; this is a small
 * re-implementation of the same idea (markup comes from the new version, each changed run shows
 * the inserted words first, then the deleted ones), so details may differ.
 */

/** A tag or a word, with the whitespace that follows it (not compared, but kept). */
interface Token {
  readonly kind: 'tag' | 'word';
  readonly text: string;
  readonly space: string;
}

/** Splits HTML into tags and words; leading whitespace is kept as an empty word's space. */
function tokenize(html: string): Token[] {
  const tokens: Token[] = [];
  for (const match of html.matchAll(/(<[^>]*>|[^<\s]+)(\s*)|(\s+)/g)) {
    if (match[1] !== undefined) {
      tokens.push({ kind: match[1].startsWith('<') ? 'tag' : 'word', text: match[1], space: match[2] ?? '' });
    } else {
      tokens.push({ kind: 'tag', text: '', space: match[3] as string });
    }
  }
  return tokens;
}

const same = (a: Token, b: Token): boolean => a.kind === b.kind && a.text === b.text;

type Op = { readonly op: 'equal' | 'insert' | 'delete'; readonly token: Token };

/** Longest-common-subsequence alignment of two token lists. */
function align(before: readonly Token[], after: readonly Token[]): Op[] {
  const n = before.length;
  const m = after.length;
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    const row = table[i] as number[];
    const next = table[i + 1] as number[];
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
    } else if (j < m && (i >= n || (table[i] as number[])[j + 1]! >= (table[i + 1] as number[])[j]!)) {
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
