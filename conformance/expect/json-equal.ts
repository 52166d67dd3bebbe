/** JSON equality and the first place two JSON-like values differ (messages, recorded checks, reports). */

export type JsonObject = Readonly<Record<string, unknown>>;

/** Structural equality of JSON-like values (object key order ignored). Copied into reproduction scripts: self-contained. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as JsonObject)[k], (b as JsonObject)[k]));
}

/** The path (`.a[2].b`) of the first place where two JSON-like values differ, or undefined. */
export function firstDifference(a: unknown, b: unknown, path = ''): { path: string; actual: unknown; expected: unknown } | undefined {
  if (jsonEqual(a, b)) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const inner = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (inner) return inner;
    }
    return { path: `${path}.length`, actual: a.length, expected: b.length };
  }
  const objects = a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b);
  if (!objects) return { path, actual: a, expected: b };
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  for (const key of keys) {
    const inner = firstDifference((a as JsonObject)[key], (b as JsonObject)[key], `${path}.${key}`);
    if (inner) return inner;
  }
  return { path, actual: a, expected: b };
}
