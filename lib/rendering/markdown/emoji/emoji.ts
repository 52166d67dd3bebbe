/**
 * Emoji: `:name:` syntax (custom emoji first, then `:zulip:`, then Unicode names) and Unicode
 * emoji typed as characters, with the real server's markup: a `<span class="emoji emoji-CODE">`
 * for Unicode emoji, an `<img class="emoji">` for images. Unknown names stay text.
 */
import type MarkdownIt from 'markdown-it';
import type { StateCore, StateInline, Token } from 'markdown-it';
import { EMOJI_CODE_TO_NAME, EMOJI_NAME_TO_CODE } from '../../../data/emoji-names.js';
import { contextOf } from '../context.js';
import { escapeAttribute, escapeHtml } from '../escape.js';
import { type Piece, rewriteText } from '../text-tokens.js';

/** Served with the web app's static files; the real server writes this path for `:zulip:`. */
export const ZULIP_EMOJI_URL = '/static/generated/emoji/images/emoji/unicode/zulip.png';

const EMOJI_SYNTAX = /^:([\w+-]+):/;
/** One emoji: a flag, or emoji joined by ZWJ, each with a skin tone, keycap or tag sequence (the real server's POSSIBLE_EMOJI_RE). */
const ONE_EMOJI = String.raw`\p{Emoji}(?:\p{Emoji_Modifier}|\uFE0F\u20E3?|[\u{E0020}-\u{E007E}]+\u{E007F})?`;
const UNICODE_EMOJI = new RegExp(String.raw`\p{RI}\p{RI}|${ONE_EMOJI}(?:\u200D(?:\p{RI}\p{RI}|${ONE_EMOJI}))*`, 'gu');
/** A lone character shown as text by default (digits, arrows, ©...) is not made an emoji. */
const TEXT_PRESENTATION = /^\P{Emoji_Presentation}\u20E3?$/u;

/** The real server's code of an emoji sequence: hex codepoints without variation selectors, dash-separated. */
const codeOf = (sequence: string): string =>
  [...sequence.replace(/\uFE0F/g, '')].map((c) => (c.codePointAt(0) as number).toString(16).padStart(4, '0')).join('-');

type EmojiMeta = { readonly kind: 'unicode'; readonly code: string; readonly syntax: string } | { readonly kind: 'image'; readonly src: string; readonly syntax: string };

/** The title the real server shows: the name without colons, underscores as spaces. */
const titleOf = (syntax: string): string => syntax.slice(1, -1).replace(/_/g, ' ');

function emojiByName(state: StateInline, checkOnly: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
  const match = EMOJI_SYNTAX.exec(state.src.slice(state.pos));
  if (!match) return false;
  const name = match[1] as string;
  const custom = contextOf(state.env).findCustomEmoji?.(name);
  const code = EMOJI_NAME_TO_CODE.get(name);
  let meta: EmojiMeta;
  if (custom) meta = { kind: 'image', src: custom.sourceUrl, syntax: match[0] };
  else if (name === 'zulip') meta = { kind: 'image', src: ZULIP_EMOJI_URL, syntax: match[0] };
  else if (code !== undefined) meta = { kind: 'unicode', code, syntax: match[0] };
  else return false;
  if (!checkOnly) state.push('zulip_emoji', '', 0).meta = meta;
  state.pos += match[0].length;
  return true;
}

function renderEmoji(tokens: Token[], idx: number): string {
  const meta = (tokens[idx] as Token).meta as EmojiMeta;
  const title = escapeAttribute(titleOf(meta.syntax));
  if (meta.kind === 'image') {
    return `<img alt="${escapeAttribute(meta.syntax)}" class="emoji" src="${escapeAttribute(meta.src)}" title="${title}">`;
  }
  return `<span aria-label="${title}" class="emoji emoji-${meta.code}" role="img" title="${title}">${escapeHtml(meta.syntax)}</span>`;
}

/** A token showing the Unicode emoji `code` under its canonical `name`. */
export function unicodeEmojiToken(state: StateCore, code: string, name: string): Token {
  const token = new state.Token('zulip_emoji', '', 0);
  token.meta = { kind: 'unicode', code, syntax: `:${name}:` } satisfies EmojiMeta;
  return token;
}

/** Unicode emoji in text become the same markup as their `:name:`; unknown sequences stay text whole. */
function unicodeEmoji(state: StateCore): void {
  rewriteText(state, (text) => {
    let pieces: Piece[] | undefined;
    let last = 0;
    for (const match of text.matchAll(UNICODE_EMOJI)) {
      if (TEXT_PRESENTATION.test(match[0])) continue;
      const code = codeOf(match[0]);
      const name = EMOJI_CODE_TO_NAME.get(code);
      if (name === undefined) continue;
      const token = unicodeEmojiToken(state, code, name);
      pieces ??= [];
      pieces.push(text.slice(last, match.index), [token]);
      last = match.index + match[0].length;
    }
    if (pieces) pieces.push(text.slice(last));
    return pieces;
  });
}

/** Registers the emoji rules on a markdown-it instance. */
export function emojiPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('emphasis', 'zulip_emoji', emojiByName);
  md.core.ruler.push('zulip_unicode_emoji', unicodeEmoji);
  md.renderer.rules['zulip_emoji'] = renderEmoji;
}
