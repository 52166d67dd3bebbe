/**
 * Arbitraries and small helpers shared by rules. Generated names are data: send them as pairs
 * (`[[name, value]]`) or through `Object.fromEntries`, never as keys of object literals.
 */
import fc from 'fast-check';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Parameter names an endpoint does not declare: identifiers, and any printable Unicode text
 * (no control characters; the real server sees them percent-decoded).
 */
export function unknownParamName(declared: readonly string[]): fc.Arbitrary<string> {
  const reserved = new Set([...declared, 'client', 'method', 'api_key']);
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.stringMatching(/^[a-z_][a-z0-9_]{0,15}$/) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }) },
    )
    .filter((name) => !reserved.has(name) && !CONTROL.test(name) && name.trim() !== '');
}

/** Any text without control characters (safe in form fields and query strings). */
export function printableText(maxLength = 20): fc.Arbitrary<string> {
  return fc.string({ unit: 'grapheme', maxLength }).filter((text) => !CONTROL.test(text));
}

/** Python's `sorted()` order for strings: by code point (not UTF-16 unit, as `Array.sort`). */
export function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Whether `text` is JSON for a boolean (whitespace allowed around it, as json.loads does). */
export function isJsonBoolean(text: string): boolean {
  try {
    return typeof JSON.parse(text) === 'boolean';
  } catch {
    return false;
  }
}

/** Values a JSON-encoded boolean parameter must refuse: `yes`, `True`, `1`, `"true"`, `null`, text. */
export function notJsonBoolean(): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.constantFrom('yes', 'no', 'True', 'False', 'TRUE', '1', '0', '"true"', 'null', '[]', '{}', '', 'tru', 'true!', '[true]'),
      printableText(12),
    )
    .filter((text) => !isJsonBoolean(text));
}

/** Every case variant of ASCII text: `basic` -> `bAsIc`, `BASIC`, ... */
export function caseVariant(text: string): fc.Arbitrary<string> {
  return fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((flags) => [...text].map((char, i) => (flags[i] ? char.toUpperCase() : char.toLowerCase())).join(''));
}

/** A path segment of unreserved characters (never `.` or `..`, which URLs normalise away). */
export function pathSegment(): fc.Arbitrary<string> {
  return fc.stringMatching(/^[a-z0-9_~-][a-z0-9_.~-]{0,14}$/).filter((segment) => !/^\.+$/.test(segment));
}
