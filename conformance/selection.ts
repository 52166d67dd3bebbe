/**
 * Choosing rules: `--only`/`--skip` globs on rule ids, `--endpoint` patterns, `--read-only`, and `--shard I/N`, which
 * splits the selected rules deterministically (round robin over the ids in sorted order).
 */
import { UsageError } from './errors.js';
import { endpointMatches, parseEndpointPattern } from './endpoint-patterns.js';
import { globToRegExp, splitGlobs } from './glob.js';
import type { Rule } from './rules/types.js';

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
  /** `--endpoint` patterns (conformance/endpoint-patterns.ts); a rule matching any is kept. */
  readonly endpoints?: readonly string[];
  readonly readOnly?: boolean;
  readonly shard?: Shard;
}

/** The rules to consider, sorted by id. Feature levels and needs are checked later (and reported). */
export function selectRules(rules: readonly Rule[], selection: Selection): Rule[] {
  const only = splitGlobs(selection.only).map(globToRegExp);
  const skip = splitGlobs(selection.skip).map(globToRegExp);
  const endpoints = (selection.endpoints ?? []).map(parseEndpointPattern);
  const chosen = [...rules]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .filter((rule) => only.length === 0 || only.some((re) => re.test(rule.id)))
    .filter((rule) => !skip.some((re) => re.test(rule.id)))
    .filter((rule) => endpoints.length === 0 || endpoints.some((pattern) => endpointMatches(pattern, rule.endpoint)))
    .filter((rule) => !selection.readOnly || !rule.writes);
  const shard = selection.shard;
  return shard ? chosen.filter((_rule, position) => position % shard.total === shard.index - 1) : chosen;
}
