/**
 * Values built to find super-linear handling of request text: long runs of one character followed
 * by one that ends the run (what `\s+$`, `-+$` and the like backtrack over), nested brackets,
 * markdown delimiters, digit runs, percent escapes, and JSON shapes (huge lists, deep nesting,
 * long strings) for the parameters that are JSON-decoded. Each is `size` UTF-16 units or a little
 * more, so a request carrying one costs a fixed amount to read.
 */

export interface AdversarialValue {
  readonly name: string;
  readonly value: string;
  /** Tried on every parameter; the others (JSON shapes mostly) on some, in rotation. */
  readonly everywhere?: boolean;
}

/** `unit` repeated to reach `size` units, then `end`. */
const run = (unit: string, size: number, end = 'x'): string => unit.repeat(Math.max(1, Math.floor(size / unit.length))) + end;

/** Characters whose long runs a pattern or a loop over text might rescan. */
const RUN_CHARACTERS = [
  ' ', '\t', '\n', '\r\n', '\u00a0', '\u3000', '\u001c', '-', '.', ',', ':', ';', '@', '/', '\\', '!', '?', '*', '_', '`', '~', '#',
  '>', '<', '|', '[', '(', '{', '"', "'", '&', '=', '+', '$', '%', '1', '0', 'a',
];

/** Markdown constructs that a parser might revisit: emphasis, code spans, links, quotes, lists. */
const MARKDOWN_UNITS = [
  '***', '___', '**_', '`` ', '[', '![', '](', '[a](', '> ', '* ', '1. ', '~~~', '```', '$$', '@**', '#**', ':a', '<http://', 'http://a.',
  '\\*', '&amp', '|a', '- [ ] ', '{{', '@_**', '**a', '_a', '`a', '~~a', ':**', '[[',
];

/**
 * The values, each about `size` units. One value holds runs of every character in turn (each run
 * long enough that a quadratic scan over it is seconds at 1 MiB), the others are single shapes.
 */
export function adversarialValues(size: number): AdversarialValue[] {
  const runLength = Math.floor(size / RUN_CHARACTERS.length);
  const markdownLength = Math.floor(size / MARKDOWN_UNITS.length);
  const numbers = Math.floor(size / 2);
  const distinct = Math.floor(size / 8);
  const runs = RUN_CHARACTERS.map((char) => run(char, runLength)).join('');
  return [
    { name: 'runs of each delimiter', value: runs, everywhere: true },
    { name: 'runs of markdown delimiters', value: MARKDOWN_UNITS.map((unit) => run(unit, markdownLength)).join(''), everywhere: true },
    { name: 'a JSON string of runs of each delimiter', value: JSON.stringify(runs.slice(0, Math.floor(size * 0.8))), everywhere: true },
    { name: 'one run of spaces before a letter', value: run(' ', size) },
    { name: 'one run of mixed whitespace', value: 'x' + run(' \t\n\u00a0\u2003\u000b', size) },
    { name: 'digits', value: '9'.repeat(size) },
    { name: 'percent escapes', value: run('%25', size) },
    { name: 'template placeholders', value: run('%(a)s{a}', size) },
    { name: 'nested brackets, unclosed', value: '['.repeat(size) },
    { name: 'nested brackets, closed', value: '['.repeat(Math.floor(size / 2)) + ']'.repeat(Math.floor(size / 2)) },
    { name: 'nested objects', value: '{"a":'.repeat(Math.floor(size / 5)) },
    { name: 'a JSON list of one number repeated', value: `[${'1,'.repeat(numbers - 1)}1]` },
    { name: 'a JSON list of distinct numbers', value: JSON.stringify(Array.from({ length: distinct }, (_, i) => i + 1)) },
    { name: 'a JSON list of one string repeated', value: `[${'"a",'.repeat(Math.floor(size / 4) - 1)}"a"]` },
    { name: 'a JSON list of distinct strings', value: JSON.stringify(Array.from({ length: distinct }, (_, i) => `w${i}`)) },
    { name: 'a JSON list of objects', value: `[${'{"id":1,"value":"a","name":"a","operator":"is","operand":"a"},'.repeat(Math.floor(size / 64))}{}]` },
    { name: 'a JSON object with many keys', value: `{${Array.from({ length: Math.floor(size / 12) }, (_, i) => `"k${i}":1`).join(',')}}` },
    { name: 'a narrow with one long search operand', value: JSON.stringify([{ operator: 'search', operand: run('ab ', size) }]) },
    { name: 'a narrow of many terms', value: JSON.stringify(Array.from({ length: Math.floor(size / 40) }, () => ({ operator: 'search', operand: 'a' }))) },
    { name: 'an email of many labels', value: 'a@' + run('a.', size, 'com') },
    { name: 'a URL of many labels', value: 'https://' + run('a.', size, 'com/') + run('a/', Math.floor(size / 4)) },
  ];
}
