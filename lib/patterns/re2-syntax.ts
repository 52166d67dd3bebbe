/**
 * A syntax checker for Google RE2 (Perl-like flags, as the Python `re2` binding compiles), the
 * engine the real server compiles linkifier patterns with (behaviour reference §7.3). It accepts
 * what RE2's parser accepts and reports RE2's own error text (`missing ): (foo`,
 * `bad repetition operator: ????`, ...), and returns the named groups (`(?P<name>...)` and
 * `(?<name>...)`). It builds no matcher: only the parser's error paths are modelled. This file
 * holds the parse stack (groups, alternation, repetition); lib/patterns/re2-lexer.ts the tokens.
 *
 * Not modelled: RE2's compile-time memory budget ("pattern too large - compile failed") and
 * invalid UTF-8 (a decoded JavaScript string cannot hold any).
 */
import { atPerlClass, Cursor, fail, parseCharClass, parseEscape, parseUnicodeGroup, Re2Error } from './re2-lexer.js';
import { isValidCaptureName } from './re2-tables.js';

export type Re2Result = { readonly ok: true; readonly groupNames: ReadonlySet<string> } | { readonly ok: false; readonly error: string };

/** RE2's `maximum_repeat_count` flag (default 1000). */
const MAX_REPEAT = 1000;

/**
 * Parse-stack items: markers (`(` and `|`) and finished expressions. An expression keeps the
 * largest product of counted-repetition sizes along any path inside it, which is what RE2's
 * RepetitionWalker bounds.
 */
type Item = { readonly kind: 'paren' } | { readonly kind: 'bar' } | { readonly kind: 'expr'; readonly product: number };

class Parser {
  private readonly cursor: Cursor;
  private readonly stack: Item[] = [];
  private readonly names = new Set<string>();

  constructor(private readonly whole: string) {
    this.cursor = new Cursor(whole);
  }

  private get pos(): number {
    return this.cursor.pos;
  }

  private set pos(value: number) {
    this.cursor.pos = value;
  }

  run(): ReadonlySet<string> {
    let lastUnary: number | null = null;
    while (this.pos < this.whole.length) {
      const start = this.pos;
      let isUnary = false;
      const c = this.whole[this.pos] as string;
      if (c === '(') {
        if (this.peek(1) === '?') this.perlFlags();
        else {
          this.stack.push({ kind: 'paren' });
          this.pos++;
        }
      } else if (c === '|') {
        this.verticalBar();
        this.pos++;
      } else if (c === ')') {
        this.rightParen();
        this.pos++;
      } else if (c === '[') {
        parseCharClass(this.cursor);
        this.pushExpr();
      } else if (c === '*' || c === '+' || c === '?') {
        this.pos++;
        if (this.peek(0) === '?') this.pos++;
        // Perl forbids stacked repetition operators: `a**` is an error, not a double star.
        if (lastUnary !== null) fail('repeatOp', this.whole.slice(lastUnary, this.pos));
        this.repeatOp(this.whole.slice(start, this.pos));
        isUnary = true;
      } else if (c === '{') {
        const counted = this.countedRepetition();
        if (!counted) {
          this.pos++;
          this.pushExpr();
        } else {
          if (this.peek(0) === '?') this.pos++;
          if (lastUnary !== null) fail('repeatOp', this.whole.slice(lastUnary, this.pos));
          this.repetition(counted.lo, counted.hi, this.whole.slice(start, this.pos));
          isUnary = true;
        }
      } else if (c === '\\') {
        this.escapeOutsideClass();
      } else {
        this.cursor.readRune();
        this.pushExpr();
      }
      lastUnary = isUnary ? start : null;
    }
    this.alternation();
    if (this.stack.length > 1) fail('missingParen', this.whole);
    return this.names;
  }

  private peek(offset: number): string | undefined {
    return this.cursor.peek(offset);
  }

  private top(): Item | undefined {
    return this.stack[this.stack.length - 1];
  }

  private pushExpr(product = 1): void {
    this.stack.push({ kind: 'expr', product });
  }

  /** `*`, `+`, `?`: the operand must be an expression, not a marker or nothing. */
  private repeatOp(op: string): void {
    const top = this.top();
    if (top?.kind !== 'expr') fail('repeatArgument', op);
  }

  private repetition(lo: number, hi: number, op: string): void {
    if ((hi !== -1 && hi < lo) || lo > MAX_REPEAT || hi > MAX_REPEAT) fail('repeatSize', op);
    const top = this.top();
    if (top?.kind !== 'expr') return fail('repeatArgument', op);
    const m = hi === -1 ? lo : hi;
    const product = (m > 0 ? m : 1) * top.product;
    // RE2's RepetitionWalker: nested counted repetitions may not multiply past the maximum.
    if ((lo >= 2 || hi >= 2) && product > MAX_REPEAT) fail('repeatSize', op);
    this.stack[this.stack.length - 1] = { kind: 'expr', product };
  }

  /** `{n}`, `{n,}`, `{n,m}`; anything else (`{,2}`, `{01}`, `{x}`) is a literal `{`. */
  private countedRepetition(): { lo: number; hi: number } | undefined {
    const match = /^\{(0|[1-9]\d*)(?:(,)(0|[1-9]\d*)?)?\}/.exec(this.whole.slice(this.pos, this.pos + 40));
    if (!match) return undefined;
    const lo = Number(match[1]);
    const hi = match[2] === undefined ? lo : match[3] === undefined ? -1 : Number(match[3]);
    // RE2's integer parser gives up (and the brace becomes a literal) on numbers of 10+ digits.
    if ((match[1] as string).length > 9 || (match[3] ?? '').length > 9) return undefined;
    this.pos += match[0].length;
    return { lo, hi };
  }

  /** Collapses everything above the nearest marker into one expression (the current concatenation). */
  private concatenation(): Item {
    let product = 1;
    while (this.top()?.kind === 'expr') product = Math.max(product, (this.stack.pop() as { product: number }).product);
    return { kind: 'expr', product };
  }

  private verticalBar(): void {
    const concat = this.concatenation() as { kind: 'expr'; product: number };
    if (this.top()?.kind === 'bar') {
      const below = this.stack[this.stack.length - 2];
      if (below?.kind === 'expr') this.stack[this.stack.length - 2] = { kind: 'expr', product: Math.max(below.product, concat.product) };
      return;
    }
    this.stack.push(concat, { kind: 'bar' });
  }

  /** Finishes the current alternation, leaving one expression above the nearest `(` (or at the bottom). */
  private alternation(): void {
    this.verticalBar();
    this.stack.pop();
  }

  private rightParen(): void {
    this.alternation();
    const inner = this.stack.pop();
    const paren = this.stack.pop();
    if (inner?.kind !== 'expr' || paren?.kind !== 'paren') fail('unexpectedParen', this.whole);
    this.pushExpr((inner as { product: number }).product);
  }

  /** `(?` ...: lookaround refusal, named groups, flag settings and non-capturing groups. */
  private perlFlags(): void {
    const rest = this.whole.slice(this.pos);
    if ((rest.length > 3 && (rest[2] === '=' || rest[2] === '!')) || (rest.length > 4 && rest[2] === '<' && (rest[3] === '=' || rest[3] === '!'))) {
      fail('badPerlOp', rest.slice(0, rest[2] === '<' ? 4 : 3));
    }
    if ((rest.length > 4 && rest[2] === 'P' && rest[3] === '<') || (rest.length > 3 && rest[2] === '<')) {
      const begin = rest[2] === 'P' ? 4 : 3;
      const end = rest.indexOf('>', 2);
      if (end < 0) fail('badNamedCapture', rest);
      const name = rest.slice(begin, end);
      if (!isValidCaptureName(name)) fail('badNamedCapture', rest.slice(0, end + 1));
      this.names.add(name);
      this.stack.push({ kind: 'paren' });
      this.pos += end + 1;
      return;
    }
    let i = 2;
    let negated = false;
    let sawFlags = false;
    for (;;) {
      if (i >= rest.length) fail('badPerlOp', rest.slice(0, i));
      const c = String.fromCodePoint(rest.codePointAt(i) as number);
      i += c.length;
      if (c === 'i' || c === 'm' || c === 's' || c === 'U') {
        sawFlags = true;
      } else if (c === '-') {
        if (negated) fail('badPerlOp', rest.slice(0, i));
        negated = true;
        sawFlags = false;
      } else if (c === ':' || c === ')') {
        if (negated && !sawFlags) fail('badPerlOp', rest.slice(0, i));
        if (c === ':') this.stack.push({ kind: 'paren' });
        this.pos += i;
        return;
      } else {
        fail('badPerlOp', rest.slice(0, i));
      }
    }
  }

  private escapeOutsideClass(): void {
    const c = this.cursor;
    const next = c.peek(1);
    if (next === 'b' || next === 'B' || next === 'A' || next === 'z' || next === 'C') {
      c.pos += 2;
    } else if (next === 'Q') {
      // \Q...\E: everything up to \E (or the end) is literal text.
      const end = c.text.indexOf('\\E', c.pos + 2);
      const literal = c.text.slice(c.pos + 2, end < 0 ? undefined : end);
      c.pos = end < 0 ? c.text.length : end + 2;
      if (literal.length === 0) return;
    } else if (next === 'p' || next === 'P') {
      parseUnicodeGroup(c);
    } else if (atPerlClass(c)) {
      c.pos += 2;
    } else {
      parseEscape(c);
    }
    this.pushExpr();
  }
}

/** Checks `pattern` as RE2 would compile it; on success returns its named groups. */
export function checkRe2(pattern: string): Re2Result {
  try {
    return { ok: true, groupNames: new Parser(pattern).run() };
  } catch (error) {
    if (error instanceof Re2Error) return { ok: false, error: error.text };
    throw error;
  }
}
