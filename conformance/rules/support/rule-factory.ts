/**
 * The one skeleton behind the resources' rule factories (`defaultsRule`, `linkifierRule`,
 * `reportingRule`, ...): the caller names the rule, the factory fixes what all its rules share
 * (endpoint, levels, writes, needs) and the fixture each run starts from.
 */
import type { DeviationId } from '../../deviations.js';
import type { IdentityName } from '../../credentials/types.js';
import type { FeatureRange, Need, Rule, RuleContext } from '../types.js';

/** What the caller of a factory names; anything left out comes from the factory's defaults. */
export interface RuleHeader {
  readonly id: string;
  readonly title: string;
  readonly section: string;
  readonly endpoint?: string;
  readonly levels?: FeatureRange;
  readonly writes?: boolean;
  /** Needed besides the factory's own needs. */
  readonly needs?: readonly Need[];
  readonly deviation?: DeviationId;
}

/** What a factory fixes for all its rules. */
export interface RuleDefaults {
  readonly endpoint: string;
  readonly levels?: FeatureRange;
  readonly writes: boolean;
  readonly realmWide?: boolean;
  readonly needs: readonly Need[];
  /** Who reads back in place of the busiest identity when the run has them (`Rule.readers`). */
  readonly readers?: readonly IdentityName[];
}

/** A rule whose run prepares the factory's fixture, then runs `body` with it. */
export function fixtureRule<F>(header: RuleHeader, defaults: RuleDefaults, prepare: (ctx: RuleContext) => Promise<F>, body: (ctx: RuleContext, fixture: F) => Promise<void>): Rule {
  const levels = header.levels ?? defaults.levels;
  return {
    id: header.id,
    title: header.title,
    endpoint: header.endpoint ?? defaults.endpoint,
    section: header.section,
    ...(levels ? { levels } : {}),
    writes: header.writes ?? defaults.writes,
    ...(defaults.realmWide ? { realmWide: true } : {}),
    needs: [...new Set([...defaults.needs, ...(header.needs ?? [])])],
    ...(defaults.readers ? { readers: defaults.readers } : {}),
    ...(header.deviation ? { deviation: header.deviation } : {}),
    run: async (ctx) => body(ctx, await prepare(ctx)),
  };
}
