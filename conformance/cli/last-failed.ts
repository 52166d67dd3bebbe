/** `--last-failed FILE`: the rules that failed in an earlier JSON report become the selection. */
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { failedRuleIds } from '../report/json.js';
import type { Rule } from '../rules/types.js';

export interface LastFailed {
  /** The failed rules this version still has (an empty list: nothing to re-run). */
  readonly ids: readonly string[];
  /** What to tell the person: what is re-run, what is gone, or that nothing failed. */
  readonly notice: string;
}

export function lastFailed(file: string, rules: readonly Rule[]): LastFailed {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--last-failed: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const failed = failedRuleIds(text, `--last-failed: ${file}`);
  if (failed.length === 0) return { ids: [], notice: `${file} has no failures: nothing to re-run` };
  const known = new Set(rules.map((rule) => rule.id));
  const ids = failed.filter((id) => known.has(id));
  const gone = failed.filter((id) => !known.has(id));
  const missing = gone.length > 0 ? `; not in this version: ${gone.join(', ')}` : '';
  if (ids.length === 0) throw new UsageError(`--last-failed: none of the ${failed.length} rule(s) that failed in ${file} exist in this version${missing}`);
  return { ids, notice: `re-running the ${ids.length} rule(s) that failed in ${file}: ${ids.join(', ')}${missing}` };
}
