/**
 * Choosing rules: `--only`/`--skip` globs on rule ids, `--read-only`, and `--shard I/N`, which
 * splits the selected rules deterministically (round robin over the ids in sorted order).
 */
import { UsageError } from './errors.js';
import type { Rule } from './rules/types.js';

/** `*` matches any run of characters (slashes included), `?` one character. */
export function globToRegExp(glob: string): RegExp {
  let pattern = '';
  for (const char of glob) {
    if (char === '*') pattern += '.*';
    else if (char === '?') pattern += '.';
    else pattern += char.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${pattern}$`);
}

/** Globs from repeatable, comma-separated flag values. */
export function splitGlobs(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((value) => value.split(',')).map((glob) => glob.trim()).filter((glob) => glob !== '');
}

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly total: number;
}

export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const total = Number(match?.[2]);
  if (!match || total < 1 || index < 1 || index > total) throw new UsageError(`--shard: expected I/N with 1 <= I <= N, got '${text}'`);
  return { index, total };
}

export interface Selection {
  readonly only?: readonly string[];
  readonly skip?: readonly string[];
  readonly readOnly?: boolean;
  readonly shard?: Shard;
}

/** The rules to consider, sorted by id. Feature levels and needs are checked later (and reported). */
export function selectRules(rules: readonly Rule[], selection: Selection): Rule[] {
  const only = splitGlobs(selection.only).map(globToRegExp);
  const skip = splitGlobs(selection.skip).map(globToRegExp);
  const chosen = [...rules]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .filter((rule) => only.length === 0 || only.some((re) => re.test(rule.id)))
    .filter((rule) => !skip.some((re) => re.test(rule.id)))
    .filter((rule) => !selection.readOnly || !rule.writes);
  const shard = selection.shard;
  return shard ? chosen.filter((_rule, position) => position % shard.total === shard.index - 1) : chosen;
}
