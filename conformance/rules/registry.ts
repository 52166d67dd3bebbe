/**
 * Every rule of the suite, in one list. A new rule file exports `rules: Rule[]` and is added to
 * `RULE_FILES` below; ids must be unique and in the `<resource>/<behaviour>` form.
 */
import { isDeviationId } from '../deviations.js';
import { rules as auth } from './auth.js';
import { rules as conventions } from './conventions.js';
import { rules as serverSettings } from './server-settings.js';
import type { Rule } from './types.js';
import { rules as users } from './users.js';

const RULE_FILES: ReadonlyArray<readonly Rule[]> = [conventions, auth, serverSettings, users];

const ID_FORMAT = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)+$/;

/** Throws on duplicate or malformed ids and unknown deviation ids (rule-authoring mistakes). */
export function validateRules(rules: readonly Rule[]): void {
  const seen = new Set<string>();
  for (const rule of rules) {
    if (!ID_FORMAT.test(rule.id)) throw new Error(`rule id '${rule.id}' must look like 'resource/behaviour-in-kebab-case'`);
    if (seen.has(rule.id)) throw new Error(`duplicate rule id '${rule.id}'`);
    seen.add(rule.id);
    if (rule.deviation !== undefined && !isDeviationId(rule.deviation)) throw new Error(`rule '${rule.id}': unknown deviation '${rule.deviation}'`);
    const { min, max } = rule.levels ?? {};
    if (min !== undefined && max !== undefined && min > max) throw new Error(`rule '${rule.id}': empty feature-level range`);
  }
}

/** All registered rules. */
export function allRules(): readonly Rule[] {
  return RULE_FILES.flat();
}
