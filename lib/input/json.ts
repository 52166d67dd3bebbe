/**
 * A JSON reader that keeps the distinctions the real server's strict validation depends on:
 * `5` is an integer but `5.0` and `1e3` are floats, so `Json[int]` rejects them. Objects become
 * Maps so that keys such as `__proto__` stay ordinary data.
 */

/** A JSON number written with a fraction or exponent (or NaN/Infinity, which Python accepts). */
export class JsonFloat {
  constructor(readonly value: number) {}
}

export type JsonValue = null | boolean | number | string | JsonFloat | JsonValue[] | JsonObject;
export type JsonObject = Map<string, JsonValue>;

export class JsonSyntaxError extends Error {}

/** Nesting deeper than this is refused as invalid rather than risking the call stack. */
const MAX_DEPTH = 256;

export function parseJson(text: string): JsonValue {
  const reader = new Reader(text);
  reader.skipSpace();
  const value = reader.value(0);
  reader.skipSpace();
  if (reader.pos !== text.length) throw new JsonSyntaxError('trailing data');
  return value;
}

/** Returns undefined instead of throwing, for callers that only need "is it valid JSON". */
export function tryParseJson(text: string): { value: JsonValue } | undefined {
  try {
    return { value: parseJson(text) };
  } catch (error) {
    if (error instanceof JsonSyntaxError) return undefined;
    throw error;
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const LITERALS: ReadonlyArray<[string, JsonValue]> = [
  ['true', true],
  ['false', false],
  ['null', null],
  ['NaN', new JsonFloat(NaN)],
  ['Infinity', new JsonFloat(Infinity)],
  ['-Infinity', new JsonFloat(-Infinity)],
];
const ESCAPES = new Map<string, string>([
  ['"', '"'],
  ['\\', '\\'],
  ['/', '/'],
  ['b', '\b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
]);

const isDigit = (unit: number): boolean => unit >= 0x30 && unit <= 0x39;

class Reader {
  pos = 0;
  constructor(private readonly text: string) {}

  skipSpace(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) this.pos++;
      else break;
    }
  }

  value(depth: number): JsonValue {
    if (depth > MAX_DEPTH) throw new JsonSyntaxError('too deep');
    const c = this.text.charCodeAt(this.pos);
    if (c === 0x7b) return this.object(depth);
    if (c === 0x5b) return this.array(depth);
    if (c === 0x22) return this.string();
    // Numbers first: a list of a million numbers would otherwise try every literal on each.
    if (isDigit(c) || (c === 0x2d && isDigit(this.text.charCodeAt(this.pos + 1)))) return this.number();
    for (const [word, value] of LITERALS) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    return this.number();
  }

  private number(): JsonValue {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (!match) throw new JsonSyntaxError(`unexpected character at ${this.pos}`);
    this.pos += match[0].length;
    const value = Number(match[0]);
    return match[1] !== undefined || match[2] !== undefined ? new JsonFloat(value) : value;
  }

  private string(): string {
    const t = this.text;
    let pos = this.pos + 1;
    let out = '';
    let chunkStart = pos;
    for (;;) {
      if (pos >= t.length) throw new JsonSyntaxError('unterminated string');
      const c = t.charCodeAt(pos);
      if (c === 0x22) break;
      if (c < 0x20) throw new JsonSyntaxError('control character in string');
      if (c !== 0x5c) {
        pos++;
        continue;
      }
      out += t.slice(chunkStart, pos);
      const e = t[pos + 1];
      if (e === 'u') {
        const hex = t.slice(pos + 2, pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new JsonSyntaxError('bad unicode escape');
        out += String.fromCharCode(parseInt(hex, 16));
        pos += 6;
      } else {
        const escaped = e === undefined ? undefined : ESCAPES.get(e);
        if (escaped === undefined) throw new JsonSyntaxError('bad escape');
        out += escaped;
        pos += 2;
      }
      chunkStart = pos;
    }
    out += t.slice(chunkStart, pos);
    this.pos = pos + 1;
    return out;
  }

  private array(depth: number): JsonValue[] {
    this.pos++;
    const items: JsonValue[] = [];
    this.skipSpace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return items;
    }
    for (;;) {
      this.skipSpace();
      items.push(this.value(depth + 1));
      this.skipSpace();
      const c = this.text[this.pos++];
      if (c === ']') return items;
      if (c !== ',') throw new JsonSyntaxError('expected , or ]');
    }
  }

  private object(depth: number): JsonObject {
    this.pos++;
    const entries: JsonObject = new Map();
    this.skipSpace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return entries;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] !== '"') throw new JsonSyntaxError('expected key');
      const key = this.string();
      this.skipSpace();
      if (this.text[this.pos++] !== ':') throw new JsonSyntaxError('expected :');
      this.skipSpace();
      entries.set(key, this.value(depth + 1));
      this.skipSpace();
      const c = this.text[this.pos++];
      if (c === '}') return entries;
      if (c !== ',') throw new JsonSyntaxError('expected , or }');
    }
  }
}
