/**
 * LaTeX as the real server renders it: KaTeX, called as its KaTeX service calls it
 * (`renderToString(tex, { displayMode })`, so HTML and MathML output and errors thrown on bad
 * input), inline for `$$...$$` and in display mode for each paragraph of a `math` fence. Input
 * KaTeX cannot parse is shown as typed in a `tex-error` span.
 *
 * `$$...$$` follows the real server's TEX_RE: it starts after a non-word character (or the
 * start) that is not `$`, its body starts with neither `_`, `$` nor a line break and holds no
 * unescaped `$` or line break, and it ends with `$$` not followed by `$` or a word character.
 */
import katex from 'katex';
import type MarkdownIt from 'markdown-it';
import type { StateInline, Token } from 'markdown-it';
import { escapeAllQuotes, escapeHtml } from './escape.js';

const WORD = /[\p{L}\p{N}_]/u;
const isWord = (c: string | undefined): boolean => c !== undefined && WORD.test(c);

/** KaTeX's HTML for `tex`, or undefined when KaTeX cannot parse it. */
function renderTex(tex: string, displayMode: boolean): string | undefined {
  try {
    // `strict: 'ignore'` changes no output, it only keeps KaTeX from logging warnings.
    return katex.renderToString(tex, { displayMode, strict: 'ignore' });
  } catch {
    return undefined;
  }
}

/** A `math` fence's body: each paragraph in display mode, all in one paragraph as the real server writes it. */
export function renderDisplayMath(body: string): string {
  const paragraphs = body.split('\n\n').map((tex) => renderTex(tex, true) ?? `<span class="tex-error">${escapeAllQuotes(tex)}</span>`);
  return `<p>${paragraphs.join('\n\n')}</p>\n`;
}

/** Where a scan for an inline formula ended without one: later starts before it fail the same way. */
const failedUpTo = new WeakMap<StateInline, number>();

/** The end of the body of a formula starting at `start` (on its `$$`), or -1; records failed scans. */
function formulaBodyEnd(state: StateInline, start: number): number {
  const src = state.src;
  const first = src[start + 2];
  if (first === undefined || first === '\n' || first === '_' || first === '$') return -1;
  let end = start + 2;
  const escapes: number[] = [];
  while (end < state.posMax && src[end] !== '$' && src[end] !== '\n') {
    if (src[end] === '\\' && src[end + 1] === '$') escapes.push(end++);
    end++;
  }
  const closes = (at: number): boolean => src[at] === '$' && src[at + 1] === '$' && src[at + 2] !== '$' && !isWord(src[at + 2]);
  if (closes(end)) return end;
  // Backtracking TEX_RE may end the body before an escaped dollar instead.
  for (let i = escapes.length - 1; i >= 0; i--) {
    const dollar = (escapes[i] as number) + 1;
    if (dollar > start + 2 && closes(dollar)) return dollar;
  }
  failedUpTo.set(state, end);
  return -1;
}

function inlineTex(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  const src = state.src;
  if (src[start] !== '$' || src[start + 1] !== '$') return false;
  if (start > 0 && (src[start - 1] === '$' || isWord(src[start - 1]))) return false;
  if (start < (failedUpTo.get(state) ?? -1)) return false;
  const end = formulaBodyEnd(state, start);
  if (end < 0 || end + 2 > state.posMax) return false;
  if (!silent) state.push('zulip_tex', 'span', 0).content = src.slice(start + 2, end);
  state.pos = end + 2;
  return true;
}

function renderInlineTex(tokens: Token[], idx: number): string {
  const tex = (tokens[idx] as Token).content;
  return renderTex(tex, false) ?? `<span class="tex-error">${escapeHtml(`$$${tex}$$`)}</span>`;
}

/** Registers inline formulas on a markdown-it instance. */
export function texPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('emphasis', 'zulip_tex', inlineTex);
  md.renderer.rules['zulip_tex'] = renderInlineTex;
}
