/**
 * What a run covered: which identities and capabilities it had, and for each missing one how many
 * rules it skipped. Reporters print it; `--fail-on-skip` fails on `skippedForMissing`.
 */
import type { IdentityPool } from './credentials/pool.js';
import type { IdentityName } from './credentials/types.js';
import type { Coverage, CoverageEntry, RuleResult } from './results.js';

const IDENTITIES: readonly IdentityName[] = ['owner', 'admin', 'moderator', 'member', 'second-member', 'guest'];

/** Skip causes that are no missing identity or capability. */
const NOT_MISSING = new Set(['level', 'bail', 'interrupted']);

export interface CapabilityState {
  readonly name: string;
  readonly available: boolean;
  readonly detail?: string;
}

/** Coverage from the pool, the capabilities' states and the results' skip causes. */
export function computeCoverage(pool: IdentityPool, capabilities: readonly CapabilityState[], results: readonly RuleResult[]): Coverage {
  const skippedBy = new Map<string, number>();
  for (const result of results) {
    if (result.outcome === 'skipped' && result.skipCause !== undefined) skippedBy.set(result.skipCause, (skippedBy.get(result.skipCause) ?? 0) + 1);
  }
  const entries: CoverageEntry[] = [];
  for (const name of ['user', ...IDENTITIES]) {
    const identity = name === 'user' ? pool.primary() : pool.get(name as IdentityName);
    // `user` (any authenticated user) is listed only when it is what is missing.
    if (name === 'user' && identity) continue;
    entries.push({
      name,
      kind: 'identity',
      available: identity !== undefined,
      ...(identity ? { detail: `${identity.email} (${identity.role}, ${identity.source})` } : {}),
      skippedRules: skippedBy.get(name) ?? 0,
    });
  }
  for (const capability of capabilities) entries.push({ ...capability, kind: 'capability', skippedRules: skippedBy.get(capability.name) ?? 0 });
  const listed = new Set(entries.map((entry) => entry.name));
  // Causes not listed above (a capability a rule needs that was not described) still count.
  for (const [cause, count] of skippedBy) {
    if (!listed.has(cause) && !NOT_MISSING.has(cause)) entries.push({ name: cause, kind: 'capability', available: false, skippedRules: count });
  }
  const skippedForMissing = [...skippedBy].filter(([cause]) => !NOT_MISSING.has(cause)).reduce((sum, [, count]) => sum + count, 0);
  return { entries, skippedForMissing, skippedForLevel: skippedBy.get('level') ?? 0 };
}

/** One line per entry, for text reports: `owner: desdemona@zulip.com (owner, dev-bootstrap)`, `guest: missing, 3 rules skipped`. */
export function coverageLines(coverage: Coverage): string[] {
  return coverage.entries.map((entry) => {
    const state = entry.available ? (entry.detail ?? 'available') : `missing${entry.detail ? ` (${entry.detail})` : ''}`;
    const skipped = entry.skippedRules > 0 ? `, ${entry.skippedRules} rule${entry.skippedRules === 1 ? '' : 's'} skipped` : '';
    return `${entry.kind} ${entry.name}: ${state}${skipped}`;
  });
}
