/**
 * Linkifier patterns are user input, so they run on re2js (a port of RE2: matching time linear in
 * the input, no catastrophic backtracking), as the real server runs them on RE2. Patterns use
 * Python's `(?P<name>...)` groups, which RE2 reads natively.
 */
import { RE2JS } from 're2js';

export interface PatternMatch {
  /** UTF-16 offset of the match in the searched text. */
  readonly index: number;
  readonly end: number;
  readonly text: string;
  /** Named group to its matched text ('' for a group that did not take part). */
  readonly groups: ReadonlyMap<string, string>;
}

interface Compiled {
  readonly regex: RE2JS;
  /** Group name to group number, read once: the library hands names back in a plain object. */
  readonly names: ReadonlyMap<string, number>;
}

const cache = new Map<string, Compiled | null>();
const CACHE_LIMIT = 1000;

/** The compiled pattern, or undefined when RE2 refuses it. Compiled patterns are cached. */
function compile(pattern: string): Compiled | undefined {
  const hit = cache.get(pattern);
  if (hit !== undefined) return hit ?? undefined;
  let compiled: Compiled | null = null;
  try {
    const regex = RE2JS.compile(pattern);
    compiled = { regex, names: new Map(Object.entries(regex.namedGroups())) };
  } catch {
    compiled = null;
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, compiled);
  return compiled ?? undefined;
}

/** Whether RE2 accepts the pattern. */
export function compilesOnRe2(pattern: string): boolean {
  return compile(pattern) !== undefined;
}

/** Every non-overlapping, non-empty match of `pattern` in `text`, left to right. */
export function findMatches(pattern: string, text: string): PatternMatch[] {
  const compiled = compile(pattern);
  if (!compiled) return [];
  const matcher = compiled.regex.matcher(text);
  const found: PatternMatch[] = [];
  let from = 0;
  while (from <= text.length && matcher.find(from)) {
    const index = matcher.start();
    const end = matcher.end();
    if (end > index) {
      const groups = new Map<string, string>();
      for (const [name, number] of compiled.names) groups.set(name, matcher.group(number) ?? '');
      found.push({ index, end, text: text.slice(index, end), groups });
    }
    from = end > index ? end : end + 1;
  }
  return found;
}

/** A match with the UTF-16 start of each named group that took part. */
export interface PositionedMatch extends PatternMatch {
  readonly groupStarts: ReadonlyMap<string, number>;
}

/**
 * The leftmost match of `pattern` starting at or after `from`, or undefined. `^` and context
 * assertions still see the whole text, so a caller can resume a scan in the middle of it.
 */
export function firstMatchFrom(pattern: string, text: string, from: number): PositionedMatch | undefined {
  const compiled = compile(pattern);
  if (!compiled || from > text.length) return undefined;
  const matcher = compiled.regex.matcher(text);
  if (!matcher.find(from)) return undefined;
  const groups = new Map<string, string>();
  const groupStarts = new Map<string, number>();
  for (const [name, number] of compiled.names) {
    groups.set(name, matcher.group(number) ?? '');
    const start = matcher.start(number);
    if (start >= 0) groupStarts.set(name, start);
  }
  const index = matcher.start();
  const end = matcher.end();
  return { index, end, text: text.slice(index, end), groups, groupStarts };
}
