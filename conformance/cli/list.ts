/** `--list`: the selected rules as a table, or with `--json` as one JSON document. */
import type { RuleResult } from '../results.js';
import type { Rule } from '../rules/types.js';

function levels(rule: Rule): string {
  const { min, max } = rule.levels ?? {};
  if (min === undefined && max === undefined) return 'all levels';
  if (max === undefined) return `>= ${min}`;
  return min === undefined ? `<= ${max}` : `${min}-${max}`;
}

export function listRules(rules: readonly Rule[]): string {
  const rows = rules.map((rule) => [rule.id, `section ${rule.section}`, levels(rule), rule.realmWide ? 'realm-wide' : rule.writes ? 'writes' : 'read-only', rule.endpoint]);
  const widths = [0, 1, 2, 3].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  return `${rows.map((row) => row.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell)).join('  ')).join('\n')}\n${rules.length} rules\n`;
}

/** Whether a run at `featureLevel` runs the rule (rather than skipping it for its level range). */
export function levelSelects(rule: Rule, featureLevel: number): boolean {
  const { min, max } = rule.levels ?? {};
  return (min === undefined || featureLevel >= min) && (max === undefined || featureLevel <= max);
}

/** A rule as `--list --json` shows it: what a result names it by, plus how it is selected. */
export type RuleListingEntry = Pick<RuleResult, 'id' | 'title' | 'endpoint' | 'section' | 'levels' | 'writes'> & {
  /** Changes what every member inherits: runs only with `--allow-realm-writes` (or on the embedded server). */
  readonly realmWide: boolean;
  /** Identities and capabilities the rule needs. */
  readonly needs: readonly string[];
  readonly selected: boolean;
};

export interface RuleListing {
  /** The level the `selected` flags refer to. */
  readonly featureLevel: number;
  readonly rules: ReadonlyArray<RuleListingEntry>;
}

export function listRulesJson(rules: readonly Rule[], featureLevel: number): string {
  const listing: RuleListing = {
    featureLevel,
    rules: rules.map((rule) => ({
      id: rule.id,
      title: rule.title,
      endpoint: rule.endpoint,
      section: rule.section,
      levels: rule.levels ?? {},
      writes: rule.writes,
      realmWide: rule.realmWide ?? false,
      needs: rule.needs ?? [],
      selected: levelSelects(rule, featureLevel),
    })),
  };
  return `${JSON.stringify(listing, null, 2)}\n`;
}
