/**
 * Whitespace as Python-Markdown keeps it: a paragraph loses only its leading whitespace (trailing
 * spaces stay, `test  ` is `<p>test  </p>`), and a line break keeps the spaces around it (every
 * newline is a `<br>`, with the spaces before it and the indentation after it left in the text).
 */
import type MarkdownIt from 'markdown-it';
import type { StateCore, StateInline } from 'markdown-it';
import { oneOf, trimWhere } from '../../../input/strings.js';

const isSpaceOrTab = oneOf(' \t');

/** Puts back the trailing whitespace markdown-it trims from the last line of each paragraph. */
function keepTrailingWhitespace(state: StateCore): void {
  const lines = state.src.split('\n');
  state.tokens.forEach((token, index) => {
    if (token.type !== 'inline' || !token.map || state.tokens[index - 1]?.type !== 'paragraph_open') return;
    const line = lines[token.map[1] - 1] ?? '';
    // One pass: /[ \t]*$/ retried from every space or tab of a run that stops before the end.
    const trailing = line.slice(trimWhere(line, isSpaceOrTab, 'end').length);
    if (trailing !== '' && token.content !== '' && !token.content.endsWith(trailing)) token.content += trailing;
  });
}

/** A newline is a line break; unlike markdown-it's rule, the spaces around it stay. */
function newline(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x0a) return false;
  if (!silent) state.push('softbreak', 'br', 0);
  state.pos++;
  return true;
}

/** Registers Python-Markdown's whitespace handling on a markdown-it instance (with `breaks: true`). */
export function whitespacePlugin(md: MarkdownIt): void {
  md.core.ruler.after('block', 'zulip_trailing_whitespace', keepTrailingWhitespace);
  md.inline.ruler.at('newline', newline);
}
