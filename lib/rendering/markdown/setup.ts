/**
 * Message Markdown as the real server renders it, on markdown-it: CommonMark with the real
 * server's changes (no raw HTML, no `_` emphasis, no images, setext headings, rules or
 * reference links; newlines are line breaks; bare URLs are linked; `~~strike~~` is `<del>`),
 * plus the chat syntax in the sibling modules. Realm data comes per rendering in `env`.
 */
import MarkdownIt from 'markdown-it';
import type { StateInline, Token } from 'markdown-it';
import { autolinkPlugin } from './links/autolink.js';
import { channelLinksPlugin } from './channel-links.js';
import { codeBlocksPlugin } from './code-blocks.js';
import { codeSpansPlugin } from './dialect/code-spans.js';
import type { MarkdownContext, RenderEnv } from './context.js';
import { emojiPlugin } from './emoji/emoji.js';
import { emptyQuotesPlugin } from './dialect/empty-quotes.js';
import { emoticonsPlugin } from './emoji/emoticons.js';
import { emphasisPlugin } from './dialect/emphasis.js';
import { escapeHtml } from './escape.js';
import { inlineImagesPlugin } from './links/inline-images.js';
import { linkifiersPlugin } from './links/linkifiers.js';
import { linksPlugin } from './links/links.js';
import { mentionsPlugin } from './mentions.js';
import { strikethroughPlugin } from './dialect/strikethrough.js';
import { texPlugin } from './tex.js';
import { timesPlugin } from './times.js';
import { whitespacePlugin } from './dialect/whitespace.js';

/** `_` never starts emphasis on the real server: a run of underscores is plain text. */
function underscoreIsText(state: StateInline, checkOnly: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x5f /* _ */) return false;
  let end = state.pos;
  while (state.src.charCodeAt(end) === 0x5f) end++;
  if (!checkOnly) state.pending += state.src.slice(state.pos, end);
  state.pos = end;
  return true;
}

function create(): MarkdownIt {
  const md = new MarkdownIt('default', { html: false, linkify: false, breaks: true, typographer: false });
  md.disable(['lheading', 'hr', 'reference', 'image']);
  md.inline.ruler.before('emphasis', 'zulip_underscore', underscoreIsText);
  for (const plugin of [autolinkPlugin, linksPlugin, codeBlocksPlugin, emptyQuotesPlugin, whitespacePlugin, codeSpansPlugin, strikethroughPlugin, emphasisPlugin, mentionsPlugin, channelLinksPlugin, emoticonsPlugin, emojiPlugin, texPlugin, timesPlugin, linkifiersPlugin, inlineImagesPlugin]) md.use(plugin);

  const rules = md.renderer.rules;
  // Python-Markdown escapes only &, < and > in text; quotes stay as typed.
  rules.text = (tokens: Token[], idx: number) => escapeHtml((tokens[idx] as Token).content);
  rules.code_inline = (tokens: Token[], idx: number) => `<code>${escapeHtml((tokens[idx] as Token).content)}</code>`;
  rules['s_open'] = () => '<del>';
  rules['s_close'] = () => '</del>';
  // A nested list follows its item's text directly (`<li>B<ol>`), as the real server writes it.
  for (const type of ['bullet_list_open', 'ordered_list_open']) {
    rules[type] = (tokens: Token[], idx: number, options, _env, self) => {
      const html = self.renderToken(tokens, idx, options);
      return tokens[idx - 1]?.hidden ? html.replace(/^\n/, '') : html;
    };
  }
  return md;
}

const markdown = create();

/** Renders message Markdown to the real server's HTML (no trailing newline). */
export function renderMarkdown(source: string, ctx: MarkdownContext = {}): string {
  const env: RenderEnv = { ctx };
  return markdown.render(source, env).replace(/\n$/, '');
}
