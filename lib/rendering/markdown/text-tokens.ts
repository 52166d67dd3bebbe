/**
 * Rewriting of plain text after inline parsing: linkifiers and Unicode emoji replace parts of
 * text tokens with new tokens. Text inside links is left alone (a link's text is atomic on the
 * real server too); code spans are separate tokens and never visited.
 */
import type { StateCore, Token } from 'markdown-it';

/** A replacement for part of a text token: plain text, or tokens built by the caller. */
export type Piece = string | readonly Token[];

/**
 * Calls `split` on every text token outside links, replacing the token with the pieces it
 * returns (undefined keeps the token as it is).
 */
export function rewriteText(state: StateCore, split: (text: string) => Piece[] | undefined): void {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const out: Token[] = [];
    let linkDepth = 0;
    for (const child of block.children) {
      if (child.type === 'link_open') linkDepth++;
      else if (child.type === 'link_close') linkDepth--;
      const pieces = child.type === 'text' && linkDepth === 0 ? split(child.content) : undefined;
      if (!pieces) {
        out.push(child);
        continue;
      }
      for (const piece of pieces) {
        if (typeof piece !== 'string') out.push(...piece);
        else if (piece !== '') {
          const text = new state.Token('text', '', 0);
          text.content = piece;
          out.push(text);
        }
      }
    }
    block.children = out;
  }
}
