/**
 * Messages whose rendering can wait until they are read (lib/state/history/lazy-rendering.ts):
 * plain text, one line of Latin letters, digits, single spaces and sentence punctuation. No
 * Markdown or chat syntax can start in it (no `*`, `_`, `` ` ``, `#`, `@`, `:`, `<`, `[`, `~`,
 * `|`, `$`, `&`, `/`, `\`, a leading digit or dash, a `.` inside a word), so it renders as one
 * paragraph of itself, except where a linkifier matches; and whatever linkifiers link keeps its
 * text, so its words are its source's words (what the search index reads before rendering).
 * It is rendered later with the linkifiers and realm URL of the moment it was stored
 * (lib/rendering/deferred.ts), so its HTML is what rendering it then would have given
 * (test/plain-text.test.ts compares the two).
 */

/** The longest content treated so (longer messages are rare and rendered at once). */
const MAX_PLAIN_LENGTH = 2000;

const SPACE = 0x20;
const DOT = 0x2e;
const LETTER = 1;
const DIGIT_OR_MARK = 2;

/**
 * Each character code below U+0250 as LETTER (A–Z, a–z and the Latin-1 and Latin Extended-A/B
 * letters, U+00C0 to U+024F but × and ÷), DIGIT_OR_MARK (digits and `,'?!()-`) or neither (0).
 */
const CLASSES = new Uint8Array(0x250);
for (let code = 0; code < CLASSES.length; code++) {
  const letter = (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0xc0 && code !== 0xd7 && code !== 0xf7);
  const digitOrMark = (code >= 0x30 && code <= 0x39) || ",'?!()-".includes(String.fromCharCode(code));
  CLASSES[code] = letter ? LETTER : digitOrMark ? DIGIT_OR_MARK : 0;
}

/**
 * Whether `source` is plain text as described above: a letter first; then letters, digits and
 * marks, a `.` only before a space or the end, a space only before a non-space. Scanned by
 * character code through a table, as a million loaded messages are each checked.
 */
export function isPlainText(source: string): boolean {
  const length = source.length;
  if (length === 0 || length > MAX_PLAIN_LENGTH || CLASSES[source.charCodeAt(0)] !== LETTER) return false;
  for (let i = 1; i < length; i++) {
    const code = source.charCodeAt(i);
    if (code < CLASSES.length && CLASSES[code] !== 0) continue;
    const next = i + 1 < length ? source.charCodeAt(i + 1) : undefined;
    if (code === DOT ? next === undefined || next === SPACE : code === SPACE && next !== undefined && next !== SPACE) continue;
    return false;
  }
  return true;
}
