/**
 * Folding repeated findings: a shape check over 200 users can report the same problem 200 times
 * with only an index or an ID changing. Lines that differ only in numbers are shown twice, then
 * counted ("... and 12 more like this").
 */

/** Lines kept of each run of look-alike lines. */
const SHOWN_ALIKE = 2;

/** A line with its numbers blanked: lines with the same pattern report the same finding. */
export function linePattern(line: string): string {
  return line.replace(/\d+/g, '#');
}

/** The lines, each run of look-alike lines (same pattern, not necessarily adjacent) folded. */
export function foldRepeated(lines: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(linePattern(line), (counts.get(linePattern(line)) ?? 0) + 1);
  const seen = new Map<string, number>();
  const out: string[] = [];
  for (const line of lines) {
    const pattern = linePattern(line);
    const total = counts.get(pattern) ?? 1;
    const position = (seen.get(pattern) ?? 0) + 1;
    seen.set(pattern, position);
    if (position <= SHOWN_ALIKE) out.push(line);
    if (position === SHOWN_ALIKE && total > SHOWN_ALIKE) {
      const indent = /^\s*(?:- )?/.exec(line)?.[0] ?? '';
      out.push(`${indent}... and ${total - SHOWN_ALIKE} more like this`);
    }
  }
  return out;
}
