/**
 * Emphasis as the real server's patterns produce it where CommonMark's delimiter rules differ:
 * `***a***` is `<strong><em>a</em></strong>` (its strong_em pattern), and neither `*...*` nor
 * `**...**` spans a line break (their patterns exclude newlines), so such a pair stays text.
 */
import type MarkdownIt from 'markdown-it';
import type { StateCore, Token } from 'markdown-it';

const PAIRS = new Map([
  ['em_open', 'em_close'],
  ['strong_open', 'strong_close'],
]);
const BREAKS = new Set(['softbreak', 'hardbreak']);

const isEmptyText = (token: Token | undefined): boolean => token?.type === 'text' && token.content === '';

/** Turns an emphasis token back into the delimiter text it was made from. */
function toText(token: Token): void {
  token.type = 'text';
  token.tag = '';
  token.nesting = 0;
  token.content = token.markup;
}

function adjust(children: Token[]): void {
  const open: number[] = [];
  const breaksSeen: number[] = [];
  let breaks = 0;
  children.forEach((token, index) => {
    if (BREAKS.has(token.type)) breaks++;
    if (PAIRS.has(token.type)) {
      open.push(index);
      breaksSeen.push(breaks);
      return;
    }
    if (![...PAIRS.values()].includes(token.type)) return;
    const start = open.pop() as number;
    if (breaks > (breaksSeen.pop() as number)) {
      toText(children[start] as Token);
      toText(token);
      return;
    }
    // markdown-it leaves empty text tokens where delimiters were.
    let inner = start + 1;
    while (isEmptyText(children[inner])) inner++;
    let innerClose = index - 1;
    while (isEmptyText(children[innerClose])) innerClose--;
    if (token.type === 'em_close' && children[inner]?.type === 'strong_open' && children[innerClose]?.type === 'strong_close') {
      [children[start], children[inner]] = [children[inner] as Token, children[start] as Token];
      [children[innerClose], children[index]] = [token, children[innerClose] as Token];
    }
  });
}

function adjustEmphasis(state: StateCore): void {
  for (const token of state.tokens) if (token.type === 'inline' && token.children) adjust(token.children);
}

/** Registers the emphasis adjustments on a markdown-it instance. */
export function emphasisPlugin(md: MarkdownIt): void {
  md.core.ruler.after('inline', 'zulip_emphasis', adjustEmphasis);
}
