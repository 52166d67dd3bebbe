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
