/**
 * The token-level half of the RE2 syntax checker (lib/patterns/re2-syntax.ts): a cursor over the pattern,
 * single-character escapes, Unicode groups and character classes, each failing with RE2's text.
 */
import { errorText, isPosixClass, isUnicodeGroup, PERL_CLASS_LETTERS, type Re2ErrorCode } from './re2-tables.js';

/** A pattern RE2 refuses; `text` is RE2's `RegexpStatus::Text()`. */
export class Re2Error extends Error {
  constructor(readonly text: string) {
    super(text);
  }
}

export const fail = (code: Re2ErrorCode, arg = ''): never => {
  throw new Re2Error(errorText(code, arg));
};

const isOctal = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '7';
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9A-Fa-f]$/.test(c);
const C_ESCAPES = new Map([['n', 10], ['r', 13], ['t', 9], ['a', 7], ['f', 12], ['v', 11]]);

/** A position in the pattern that moves by whole code points (RE2 reads runes, not bytes). */
export class Cursor {
  pos = 0;
  /** A search for `:]` from this position (or later) finds nothing: keeps `[[:[:[:...` linear. */
  noPosixCloseFrom = Infinity;

  constructor(readonly text: string) {}

  get atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  peek(offset = 0): string | undefined {
    return this.text[this.pos + offset];
  }

  readRune(): string {
    const rune = String.fromCodePoint(this.text.codePointAt(this.pos) as number);
    this.pos += rune.length;
    return rune;
  }

  since(start: number): string {
    return this.text.slice(start, this.pos);
  }
}

/**
 * A single-character escape (RE2's ParseEscape) at the cursor's `\`: C escapes, octal, hex and
 * escaped ASCII punctuation. Returns the code point it stands for.
 */
export function parseEscape(c: Cursor): number {
  const begin = c.pos;
  if (c.pos + 1 >= c.text.length) fail('trailingBackslash');
  c.pos++;
  const ch = c.readRune();
  const bad = (): never => fail('badEscape', c.since(begin));
  if (ch >= '1' && ch <= '7' && !isOctal(c.peek())) bad(); // \1 alone would be a backreference
  if (ch >= '0' && ch <= '7') {
    let code = Number(ch);
    for (let k = 0; k < 2 && isOctal(c.peek()); k++) code = code * 8 + Number(c.readRune());
    return code;
  }
  if (ch === 'x') {
    if (c.atEnd) bad();
    const first = c.readRune();
    if (first === '{') {
      // RE2 reads the first digit without a length check: `\x{` at the very end is "invalid UTF-8".
      if (c.atEnd) fail('badUtf8');
      let digits = 0;
      let code = 0;
      let d = c.readRune();
      while (isHex(d)) {
        digits++;
        code = code * 16 + parseInt(d, 16);
        if (code > 0x10ffff || c.atEnd) bad();
        d = c.readRune();
      }
      if (d !== '}' || digits === 0) bad();
      return code;
    }
    if (c.atEnd) bad();
    const second = c.readRune();
    if (!isHex(first) || !isHex(second)) bad();
    return parseInt(first + second, 16);
  }
  const simple = C_ESCAPES.get(ch);
  if (simple !== undefined) return simple;
  // Escaped ASCII punctuation is always itself; letters, digits and non-ASCII are refused.
  if (ch.length === 1 && ch.charCodeAt(0) < 0x80 && !/^[A-Za-z0-9]$/.test(ch)) return ch.charCodeAt(0);
  return bad();
}

/** `\pL`, `\p{Greek}`, `\P{^Greek}` at the cursor; an unknown name is "invalid character class range". */
export function parseUnicodeGroup(c: Cursor): void {
  const begin = c.pos;
  c.pos += 2;
  let name = '';
  if (c.peek() === '{') {
    const end = c.text.indexOf('}', c.pos);
    if (end < 0) fail('badCharRange', c.text.slice(begin));
    name = c.text.slice(c.pos + 1, end);
    c.pos = end + 1;
  } else if (!c.atEnd) {
    name = c.readRune();
  }
  if (name.startsWith('^')) name = name.slice(1);
  if (!isUnicodeGroup(name)) fail('badCharRange', c.since(begin));
}

/** `\d \s \w \D \S \W` at the cursor. */
export const atPerlClass = (c: Cursor): boolean => c.peek() === '\\' && c.peek(1) !== undefined && PERL_CLASS_LETTERS.includes(c.peek(1) as string);

/** One character inside a class; returns its code point. */
function classChar(c: Cursor, classStart: number): number {
  if (c.atEnd) fail('missingBracket', c.text.slice(classStart));
  if (c.peek() === '\\') return parseEscape(c);
  return c.readRune().codePointAt(0) as number;
}

/** `[...]` at the cursor, with POSIX names, Unicode groups, Perl classes, escapes and ranges. */
export function parseCharClass(c: Cursor): void {
  // RE2 reports a missing `]` with everything from the `[` to the end of the pattern.
  const classStart = c.pos;
  c.pos++;
  if (c.peek() === '^') c.pos++;
  let first = true; // `]` is a literal as the first character
  while (!c.atEnd && (c.peek() !== ']' || first)) {
    first = false;
    if (c.peek() === '[' && c.peek(1) === ':' && c.pos + 2 < c.text.length && c.pos + 2 < c.noPosixCloseFrom) {
      const close = c.text.indexOf(':]', c.pos + 2);
      if (close < 0) c.noPosixCloseFrom = c.pos + 2;
      else {
        const name = c.text.slice(c.pos, close + 2);
        if (!isPosixClass(name)) fail('badCharRange', name);
        c.pos = close + 2;
        continue;
      }
    }
    if (c.peek() === '\\' && (c.peek(1) === 'p' || c.peek(1) === 'P') && c.pos + 2 < c.text.length) {
      parseUnicodeGroup(c);
      continue;
    }
    if (atPerlClass(c)) {
      c.pos += 2;
      continue;
    }
    const rangeStart = c.pos;
    const lo = classChar(c, classStart);
    // `[a-]` is `a` or `-`; a `-` anywhere else makes a range (Perl mode allows it anywhere).
    if (c.peek() === '-' && c.peek(1) !== undefined && c.peek(1) !== ']') {
      c.pos++;
      const hi = classChar(c, classStart);
      if (hi < lo) fail('badCharRange', c.since(rangeStart));
    }
  }
  if (c.atEnd) fail('missingBracket', c.text.slice(classStart));
  c.pos++;
}
