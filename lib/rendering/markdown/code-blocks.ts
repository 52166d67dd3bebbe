/**
 * Fenced and indented code blocks with the real server's wrapper
 * (`<div class="codehilite" data-code-language="Python"><pre><span></span><code>`), without
 * Pygments' highlighting spans; and the fences that are not code: `quote` (a blockquote whose
 * content is Markdown) and `spoiler` (a header and hidden content). A fence without a language
 * takes the realm's default one, which may itself be `quote`, `math` or `spoiler`, except inside
 * a spoiler (the real server's `SpoilerHandler` looks for fences without the default).
 */
import type MarkdownIt from 'markdown-it';
import type { StateCore, Token } from 'markdown-it';
import { codeLanguageName } from './code-languages.js';
import { contextOf } from './context.js';
import { escapeAttribute } from './escape.js';
import { renderDisplayMath } from './tex.js';
import { oneOf, trimWhere } from '../../input/strings.js';

const isSpaceOrTab = oneOf(' \t');

/** `~~~ .python`, `{python}`, `spoiler Header text`: the language, then a header. */
const INFO = /^\{?\.?([a-zA-Z0-9_+\-./#]*)\s*(.*?)\}?$/s;

export function parseFenceInfo(info: string): { language: string; header: string } {
  const match = INFO.exec(info.trim());
  return { language: match?.[1] ?? '', header: (match?.[2] ?? '').trim() };
}

/** Pygments' treatment of the body: trailing spaces of each line and blank edge lines removed. */
function codeBody(content: string): string {
  const lines = content.split('\n').map((line) => trimWhere(line, isSpaceOrTab, 'end'));
  let first = 0;
  let end = lines.length;
  while (first < end && lines[first] === '') first++;
  while (end > first && lines[end - 1] === '') end--;
  return lines.slice(first, end).map((line) => `${escapeAttribute(line)}\n`).join('');
}

function codeBlock(content: string, language: string): string {
  const name = language === '' ? '' : codeLanguageName(language);
  const attribute = name === '' ? '' : ` data-code-language="${escapeAttribute(name)}"`;
  return `<div class="codehilite"${attribute}><pre><span></span><code>${codeBody(content)}</code></pre></div>\n`;
}

/** Marks the fences of a spoiler's content, which the realm's default language does not reach. */
const IN_SPOILER = 'zulipInSpoiler';

function markInSpoiler(tokens: readonly Token[]): void {
  for (const token of tokens) if (token.type === 'fence') token.meta = { ...(token.meta as object | null), [IN_SPOILER]: true };
}

const isInSpoiler = (token: Token): boolean => (token.meta as Record<string, unknown> | null)?.[IN_SPOILER] === true;

/** The fence's language: as written, else the realm's default (outside spoilers). */
function fenceLanguage(token: Token, env: unknown): string {
  const written = parseFenceInfo(token.info).language;
  if (written !== '' || isInSpoiler(token)) return written;
  return contextOf(env).defaultCodeBlockLanguage ?? '';
}

function renderFence(tokens: Token[], idx: number, _options: unknown, env: unknown): string {
  const token = tokens[idx] as Token;
  // A fence without lines renders nothing on the real server.
  if (token.content === '') return '';
  const language = fenceLanguage(token, env);
  if (language.toLowerCase() === 'math') return renderDisplayMath(token.content.replace(/\n$/, '').split('\n').map((line) => line.trimEnd()).join('\n'));
  return codeBlock(token.content, language);
}

function renderIndentedCode(tokens: Token[], idx: number): string {
  return codeBlock((tokens[idx] as Token).content, '');
}

function marker(state: StateCore, type: string, tag: string, nesting: 1 | 0 | -1): Token {
  const token = new state.Token(type, tag, nesting);
  token.block = true;
  return token;
}

/** The block tokens of `source`, parsed as Markdown in the same rendering. */
function parseBlocks(state: StateCore, source: string): Token[] {
  const inner: Token[] = [];
  state.md.block.parse(source, state.md, state.env, inner);
  return inner;
}

/** Replaces `quote` and `spoiler` fences by their parsed content; nested ones are reached in turn. */
function expandContentFences(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.type !== 'fence') continue;
    const kind = fenceLanguage(token, state.env).toLowerCase();
    let replacement: Token[];
    if (kind === 'quote' || kind === 'quoted') {
      const content = parseBlocks(state, token.content);
      if (isInSpoiler(token)) markInSpoiler(content);
      replacement = [marker(state, 'blockquote_open', 'blockquote', 1), ...content, marker(state, 'blockquote_close', 'blockquote', -1)];
    } else if (kind === 'spoiler') {
      const content = parseBlocks(state, token.content);
      markInSpoiler(content);
      replacement = [
        marker(state, 'zulip_spoiler_open', 'div', 1),
        ...parseBlocks(state, parseFenceInfo(token.info).header),
        marker(state, 'zulip_spoiler_content', 'div', 0),
        ...content,
        marker(state, 'zulip_spoiler_close', 'div', -1),
      ];
    } else continue;
    tokens.splice(i, 1, ...replacement);
  }
}

/** Registers code blocks and content fences on a markdown-it instance. */
export function codeBlocksPlugin(md: MarkdownIt): void {
  md.core.ruler.after('block', 'zulip_content_fences', expandContentFences);
  md.renderer.rules.fence = renderFence;
  md.renderer.rules.code_block = renderIndentedCode;
  md.renderer.rules['zulip_spoiler_open'] = () => '<div class="spoiler-block"><div class="spoiler-header">\n';
  md.renderer.rules['zulip_spoiler_content'] = () => '</div><div class="spoiler-content" aria-hidden="true">\n';
  md.renderer.rules['zulip_spoiler_close'] = () => '</div></div>\n';
}
