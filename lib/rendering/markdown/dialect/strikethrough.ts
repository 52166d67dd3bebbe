/**
 * `~~text~~` as the real server's DEL_RE reads it: exactly two tildes on each side, and between
 * them any text without `~` or a line break (spaces at the edges included, unlike CommonMark's
 * delimiter rules). The text between is Markdown.
 */
import type MarkdownIt from 'markdown-it';
import type { StateInline } from 'markdown-it';

function strikethrough(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const start = state.pos;
  if (src[start] !== '~' || src[start + 1] !== '~' || src[start - 1] === '~') return false;
  let end = start + 2;
  while (end < state.posMax && src[end] !== '~' && src[end] !== '\n') end++;
  if (end === start + 2 || src[end] !== '~' || src[end + 1] !== '~' || src[end + 2] === '~' || end + 2 > state.posMax) return false;
  if (!silent) {
    const posMax = state.posMax;
    state.push('s_open', 'del', 1).markup = '~~';
    state.pos = start + 2;
    state.posMax = end;
    state.md.inline.tokenize(state);
    state.posMax = posMax;
    state.push('s_close', 'del', -1).markup = '~~';
  }
  state.pos = end + 2;
  return true;
}

/** Registers the real server's strikethrough on a markdown-it instance, in place of markdown-it's. */
export function strikethroughPlugin(md: MarkdownIt): void {
  md.disable('strikethrough');
  md.inline.ruler.before('emphasis', 'zulip_strikethrough', strikethrough);
}
