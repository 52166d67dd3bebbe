/**
 * Rewriting of plain text after inline parsing: linkifiers and Unicode emoji replace parts of
 * text tokens with new tokens. Text inside links is left alone (a link's text is atomic on the
 * real server too); code spans are separate tokens and never visited.
 */
import type { StateCore, Token } from 'markdown-it';

/** A replacement for part of a text token: plain text, or tokens built by the caller. */
export type Piece = string | readonly Token[];

/**
 * What surrounds a text token, as the real server's inline patterns see it: a text is `open` at
 * an edge that is the start or end of its element's text or a line break; next to anything else
 * (an emoji, a mention, a closed link...) the real server sees a placeholder character.
 */
export interface TextEdges {
  readonly openBefore: boolean;
  readonly openAfter: boolean;
}

const BREAKS = new Set(['softbreak', 'hardbreak']);

function edgesOf(children: readonly Token[], index: number): TextEdges {
  const before = children[index - 1];
  const after = children[index + 1];
  return {
    openBefore: before === undefined || before.nesting === 1 || BREAKS.has(before.type),
    openAfter: after === undefined || after.nesting === -1 || BREAKS.has(after.type),
  };
}

/**
 * Calls `split` on every text token outside links, replacing the token with the pieces it
 * returns (undefined keeps the token as it is).
 */
export function rewriteText(state: StateCore, split: (text: string, edges: TextEdges) => Piece[] | undefined): void {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const out: Token[] = [];
    let linkDepth = 0;
    const children = block.children;
    children.forEach((child, index) => {
      if (child.type === 'link_open') linkDepth++;
      else if (child.type === 'link_close') linkDepth--;
      const pieces = child.type === 'text' && linkDepth === 0 ? split(child.content, edgesOf(children, index)) : undefined;
      if (!pieces) {
        out.push(child);
        return;
      }
      for (const piece of pieces) {
        if (typeof piece !== 'string') out.push(...piece);
        else if (piece !== '') {
          const text = new state.Token('text', '', 0);
          text.content = piece;
          out.push(text);
        }
      }
    });
    block.children = out;
  }
}
