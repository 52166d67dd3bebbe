/**
 * A block made only of empty quote markers (`>`, `> `) is not a quote on the real server (its
 * blockquote pattern refuses a block whose lines are all empty quote lines) but a paragraph
 * showing the `>`, so `>` renders `<p>&gt;</p>` and `>>` a quote holding that paragraph.
 */
import type MarkdownIt from 'markdown-it';
import type { StateBlock } from 'markdown-it';

const EMPTY_QUOTE_LINE = /^>\s*$/;

function lineText(state: StateBlock, line: number): string {
  return state.src.slice((state.bMarks[line] as number) + (state.tShift[line] as number), state.eMarks[line]);
}

function emptyQuoteParagraph(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if ((state.sCount[startLine] as number) - state.blkIndent > 3) return false;
  let line = startLine;
  while (line < endLine && !state.isEmpty(line)) {
    if (!EMPTY_QUOTE_LINE.test(lineText(state, line))) return false;
    line++;
  }
  if (silent) return true;
  state.line = line;
  const open = state.push('paragraph_open', 'p', 1);
  open.map = [startLine, line];
  const inline = state.push('inline', '', 0);
  inline.content = state.getLines(startLine, line, state.blkIndent, false).trim();
  inline.map = [startLine, line];
  inline.children = [];
  state.push('paragraph_close', 'p', -1);
  return true;
}

/** Registers the empty-quote rule on a markdown-it instance, ahead of its blockquote rule. */
export function emptyQuotesPlugin(md: MarkdownIt): void {
  md.block.ruler.before('blockquote', 'zulip_empty_quote', emptyQuoteParagraph);
}
