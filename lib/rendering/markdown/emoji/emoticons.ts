/**
 * Emoticons (`:)`, `<3`...) become emoji when the sender has `translate_emoticons` on, as the
 * real server's EMOTICON_RE finds them: only between terminal symbols (`,.;?!()[]`, quotes,
 * space, tab, line break) or the edges of the text, never inside code or link text. The
 * emoji are the ones of the real server's test cases (`:)` is `smile`).
 */
import type MarkdownIt from 'markdown-it';
import type { StateCore } from 'markdown-it';
import { EMOJI_NAME_TO_CODE } from '../../../data/emoji-names.js';
import { contextOf } from '../context.js';
import { unicodeEmojiToken } from './emoji.js';
import { type Piece, rewriteText, type TextEdges } from '../text-tokens.js';

const EMOTICONS: ReadonlyMap<string, string> = new Map([
  [':)', 'smile'],
  ['(:', 'smile'],
  [':(', 'frown'],
  ['<3', 'heart'],
  [':|', 'neutral'],
  [':/', 'confused'],
  [';)', 'wink'],
  [':D', 'grinning'],
  [':o', 'open_mouth'],
  [':O', 'open_mouth'],
  [':p', 'stuck_out_tongue'],
  [':P', 'stuck_out_tongue'],
]);
/** Every emoticon is two characters long. */
const LENGTH = 2;
const TERMINAL = new Set([...',.;?!()[] "\'\n\t']);

function translate(state: StateCore, text: string, edges: TextEdges): Piece[] | undefined {
  let pieces: Piece[] | undefined;
  let last = 0;
  for (let at = 0; at + LENGTH <= text.length; at++) {
    const name = EMOTICONS.get(text.slice(at, at + LENGTH));
    const code = name === undefined ? undefined : EMOJI_NAME_TO_CODE.get(name);
    if (name === undefined || code === undefined) continue;
    const before = at === 0 ? edges.openBefore : TERMINAL.has(text[at - 1] as string);
    const after = at + LENGTH === text.length ? edges.openAfter : TERMINAL.has(text[at + LENGTH] as string);
    if (!before || !after) continue;
    pieces ??= [];
    pieces.push(text.slice(last, at), [unicodeEmojiToken(state, code, name)]);
    last = at + LENGTH;
    at = last - 1;
  }
  if (pieces) pieces.push(text.slice(last));
  return pieces;
}

function translateEmoticons(state: StateCore): void {
  if (contextOf(state.env).translateEmoticons !== true) return;
  rewriteText(state, (text, edges) => translate(state, text, edges));
}

/** Registers emoticon translation on a markdown-it instance (before Unicode emoji, as on the real server). */
export function emoticonsPlugin(md: MarkdownIt): void {
  md.core.ruler.push('zulip_emoticons', translateEmoticons);
}
