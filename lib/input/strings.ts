/**
 * String helpers with Python's semantics, where the real server's observable output depends on
 * them (sorted names in responses and events, "first" names in errors).
 */

/**
 * Python's string order (`sorted()`, `<`): by code point, not by UTF-16 unit, so a name with a
 * character beyond U+FFFF sorts after one with U+FFFF (JavaScript's default sort puts it before).
 */
export function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i] as string).codePointAt(0)! - (y[i] as string).codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Which end(s) `trimWhere` trims. */
export type TrimEnds = 'both' | 'start' | 'end';

/**
 * `text` without the run of characters `drop` accepts at its start and/or end (by UTF-16 unit:
 * every character the callers drop is in the BMP). Each unit is looked at once, unlike a pattern
 * such as `\s+$`, which a backtracking engine retries from every space of a run that does not
 * reach the end: quadratic in the run's length.
 */
export function trimWhere(text: string, drop: (unit: number) => boolean, ends: TrimEnds = 'both'): string {
  let start = 0;
  let end = text.length;
  if (ends !== 'end') while (start < end && drop(text.charCodeAt(start))) start++;
  if (ends !== 'start') while (end > start && drop(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** Unicode White_Space, the characters Rust's `str::trim` (pydantic's `strip_whitespace`) removes. */
export function isUnicodeWhiteSpace(unit: number): boolean {
  if (unit <= 0x20) return unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);
  if (unit < 0x85) return false;
  return (
    unit === 0x85 || unit === 0xa0 || unit === 0x1680 || (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 || unit === 0x2029 || unit === 0x202f || unit === 0x205f || unit === 0x3000
  );
}

/** Python's `str.isspace`: Unicode White_Space plus U+001C..U+001F (JavaScript's `\s` lacks those and U+0085, and adds U+FEFF). */
export const isPythonSpace = (unit: number): boolean => (unit >= 0x1c && unit <= 0x1f) || isUnicodeWhiteSpace(unit);

/** A predicate for `trimWhere` that accepts the characters of `characters` (all in the BMP). */
export function oneOf(characters: string): (unit: number) => boolean {
  const units = new Set<number>();
  for (let i = 0; i < characters.length; i++) units.add(characters.charCodeAt(i));
  return (unit) => units.has(unit);
}
