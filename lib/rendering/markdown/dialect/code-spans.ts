/**
 * Inline code as the real server reads it: a run of backticks, then any text (line breaks
 * included) up to the next run of exactly as many backticks, kept as typed: no space is trimmed
 * from its edges and no line break turned into a space, unlike CommonMark. A run with no
 * matching closer is text. Runs are indexed once per paragraph, so the search stays linear.
 */
import type MarkdownIt from 'markdown-it';
import type { StateInline } from 'markdown-it';

/** For each run length, the start positions of the runs of that length, and how many were passed. */
interface RunIndex {
  readonly starts: Map<number, number[]>;
  readonly passed: Map<number, number>;
}

const indexes = new WeakMap<StateInline, RunIndex>();

function runIndexOf(state: StateInline): RunIndex {
  let index = indexes.get(state);
  if (index) return index;
  index = { starts: new Map(), passed: new Map() };
  const src = state.src;
  for (let at = 0; at < src.length; ) {
    if (src[at] !== '`') {
      at++;
      continue;
    }
    let end = at;
    while (src[end] === '`') end++;
    const list = index.starts.get(end - at) ?? [];
    list.push(at);
    index.starts.set(end - at, list);
    at = end;
  }
  indexes.set(state, index);
  return index;
}

/** The start of the first run of `length` backticks after `from`, or -1. */
function nextRun(index: RunIndex, length: number, from: number): number {
  const starts = index.starts.get(length) ?? [];
  let passed = index.passed.get(length) ?? 0;
  while (passed < starts.length && (starts[passed] as number) <= from) passed++;
  index.passed.set(length, passed);
  return starts[passed] ?? -1;
}

function codeSpan(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const start = state.pos;
  if (src[start] !== '`' || src[start - 1] === '`') return false;
  let contentStart = start;
  while (src[contentStart] === '`') contentStart++;
  const length = contentStart - start;
  const close = nextRun(runIndexOf(state), length, contentStart);
  if (close < 0 || close + length > state.posMax) {
    if (!silent) state.pending += src.slice(start, contentStart);
    state.pos = contentStart;
    return true;
  }
  if (!silent) {
    const token = state.push('code_inline', 'code', 0);
    token.markup = src.slice(start, contentStart);
    token.content = src.slice(contentStart, close);
  }
  state.pos = close + length;
  return true;
}

/** Registers the real server's inline code on a markdown-it instance, in place of markdown-it's. */
export function codeSpansPlugin(md: MarkdownIt): void {
  md.inline.ruler.at('backticks', codeSpan);
}
