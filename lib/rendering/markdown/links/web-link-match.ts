/**
 * The bare web links the real server links (its `get_web_link_regex`), found by a linear scan
 * instead of that backtracking regular expression. A link starts after whitespace, `'"(,:<` or
 * the start of the text, and is one of:
 *  - `http://` or `https://`, a host of `[\w.:@-]`, and an optional path;
 *  - dotted names ending in a top-level domain (the IANA list less `java md mov py zip`, which
 *    are mostly file extensions), and an optional path;
 *  - an e-mail address (`[\w.-]+@[\w.-]+\.\w+`, no path);
 *  - a `bitcoin:` address.
 * A path is `/` and then any characters but whitespace and `"`, with parentheses balanced and
 * nested at most seven deep. The link must be followed only by `!:;?),.'">` up to whitespace or
 * the end, and of the possible ends the real server's regular expression takes the first its
 * search reaches: the shortest host, then the shortest path.
 */
import tlds from 'tlds' with { type: 'json' };

const FILE_EXTENSIONS = new Set(['java', 'md', 'mov', 'py', 'zip']);
const TLDS: ReadonlySet<string> = new Set(tlds.filter((tld) => !FILE_EXTENSIONS.has(tld)));
const LONGEST_TLD = Math.max(...[...TLDS].map((tld) => tld.length));

const WORD = /[\p{L}\p{N}_]/u;
const SPACE = /\s/u;
const HOST_PUNCTUATION = new Set(['.', ':', '@', '-']);
const TRAILING = new Set([...'!:;?),.\'">']);
const MAY_PRECEDE = new Set([...'\'"(,:<']);
const BASE58 = /[a-km-zA-HJ-NP-Z1-9]/;
const MAX_PAREN_DEPTH = 7;
/** Path scans may re-read a word from several starts; their total is capped at this many steps per character. */
const PATH_STEPS_PER_CHARACTER = 16;

const isWord = (c: string | undefined): boolean => c !== undefined && WORD.test(c);
const isSpace = (c: string | undefined): boolean => c !== undefined && SPACE.test(c);

/** Whether a link may start at `index` of `text` (what precedes it). */
export function mayStartWebLink(text: string, index: number): boolean {
  if (index === 0) return true;
  const before = text[index - 1] as string;
  return isSpace(before) || MAY_PRECEDE.has(before);
}

/**
 * Finds web links in one text: `matchAt` is asked for increasing positions, so the bounds of the
 * whitespace-delimited word around them are computed once per word.
 */
export class WebLinkScanner {
  private wordStart = -1;
  private wordEnd = -1;
  /** The first position of the word from which only trailing punctuation follows. */
  private trailingStart = -1;
  private pathSteps: number;

  constructor(
    private readonly text: string,
    private readonly limit: number = text.length,
  ) {
    this.pathSteps = PATH_STEPS_PER_CHARACTER * (limit + 1);
  }

  /** The end of the link starting at `start`, or -1 when none starts there. */
  matchAt(start: number): number {
    const c = this.text[start];
    if (start >= this.limit || c === undefined || !(isWord(c) || c === '-' || c === '.')) return -1;
    this.enterWord(start);
    if (this.text.startsWith('http://', start) || this.text.startsWith('https://', start)) {
      const end = this.matchProtocolLink(start + (this.text[start + 4] === 's' ? 8 : 7));
      if (end >= 0) return end;
    }
    const dotted = this.matchDottedLink(start);
    if (dotted >= 0) return dotted;
    const email = this.matchEmail(start);
    if (email >= 0) return email;
    return this.matchBitcoin(start);
  }

  private enterWord(start: number): void {
    if (start >= this.wordStart && start < this.wordEnd) return;
    let end = start;
    while (end < this.limit && !isSpace(this.text[end])) end++;
    let trailing = end;
    while (trailing > start && TRAILING.has(this.text[trailing - 1] as string)) trailing--;
    this.wordStart = start;
    this.wordEnd = end;
    this.trailingStart = trailing;
  }

  /** Whether a link may end at `end`: only trailing punctuation follows in its word. */
  private mayEnd(end: number): boolean {
    return end >= this.trailingStart && end <= this.wordEnd;
  }

  private runEnd(from: number, accept: (c: string) => boolean): number {
    let end = from;
    while (end < this.wordEnd && accept(this.text[end] as string)) end++;
    return end;
  }

  /** The first end of a path starting at `slash` (the `/`), or -1. */
  private pathEnd(slash: number): number {
    let depth = 0;
    for (let end = slash + 1; ; end++) {
      if (depth === 0 && this.mayEnd(end)) return end;
      if (end >= this.wordEnd || --this.pathSteps < 0) return -1;
      const c = this.text[end] as string;
      if (c === '"') return -1;
      if (c === '(' && ++depth > MAX_PAREN_DEPTH) return -1;
      if (c === ')' && depth-- === 0) return -1;
    }
  }

  /** After a host ending at `hostEnd`: a path if one follows, else the host alone. */
  private endAfterHost(hostEnd: number): number {
    if (this.text[hostEnd] === '/') {
      const end = this.pathEnd(hostEnd);
      if (end >= 0) return end;
    }
    return this.mayEnd(hostEnd) ? hostEnd : -1;
  }

  private matchProtocolLink(hostStart: number): number {
    const hostEnd = this.runEnd(hostStart, (c) => isWord(c) || HOST_PUNCTUATION.has(c));
    if (hostEnd === hostStart) return -1;
    // A shorter host can only be followed by host characters, so it ends the link only when
    // what follows it is trailing punctuation.
    const shortest = Math.max(this.trailingStart, hostStart + 1);
    if (shortest < hostEnd) return shortest;
    return this.endAfterHost(hostEnd);
  }

  private matchDottedLink(start: number): number {
    const dots: number[] = [];
    let at = start;
    for (;;) {
      const end = this.runEnd(at, (c) => isWord(c) || c === '-');
      if (end === at || this.text[end] !== '.') break;
      dots.push(end);
      at = end + 1;
    }
    for (let k = dots.length - 1; k >= 0; k--) {
      const tldStart = (dots[k] as number) + 1;
      const available = Math.min(LONGEST_TLD, this.wordEnd - tldStart);
      for (let length = available; length > 0; length--) {
        if (!TLDS.has(this.text.slice(tldStart, tldStart + length))) continue;
        const end = this.endAfterHost(tldStart + length);
        if (end >= 0) return end;
      }
    }
    return -1;
  }

  private matchEmail(start: number): number {
    const at = this.runEnd(start, (c) => isWord(c) || c === '.' || c === '-');
    if (at === start || this.text[at] !== '@') return -1;
    const domainEnd = this.runEnd(at + 1, (c) => isWord(c) || c === '.' || c === '-');
    for (let dot = domainEnd - 1; dot >= at + 2; dot--) {
      if (this.text[dot] !== '.') continue;
      const end = this.runEnd(dot + 1, isWord);
      if (end > dot + 1 && this.mayEnd(end)) return end;
    }
    return -1;
  }

  private matchBitcoin(start: number): number {
    if (!this.text.startsWith('bitcoin:', start)) return -1;
    const first = start + 'bitcoin:'.length;
    if (this.text[first] !== '1' && this.text[first] !== '3') return -1;
    const end = this.runEnd(first + 1, (c) => BASE58.test(c));
    const length = end - first - 1;
    return length >= 25 && length <= 34 && this.mayEnd(end) ? end : -1;
  }
}
