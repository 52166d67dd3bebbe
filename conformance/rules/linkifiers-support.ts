/**
 * What the linkifier rules (sections 2.6, 4.16, 4.19) share: the skeleton of a rule that changes
 * the realm's linkifiers (others' linkifiers guarded and their order restored), and the checks
 * that a refused change left the listing as it was.
 */
import type { ApiClient } from '../client/api-client.js';
import type { DeviationId } from '../deviations.js';
import { check, expectEqual } from '../expect/assert.js';
import { guardOthers, type LinkifierEntry, listLinkifiers } from '../model/linkifiers.js';
import type { FeatureRange, Need, Rule, RuleContext } from './types.js';

export interface LinkifierRuleSpec {
  readonly id: string;
  readonly title: string;
  readonly endpoint: string;
  readonly section: string;
  readonly levels: FeatureRange;
  /** The administrator unless more are listed (the administrator must be among them). */
  readonly needs?: readonly Need[];
  readonly deviation?: DeviationId;
}

/**
 * A realm-wide rule that changes linkifiers as the administrator: the order of the linkifiers
 * that exist before it is recorded, and after it the run's are deleted and that order restored.
 */
export function linkifierRule(spec: LinkifierRuleSpec, body: (ctx: RuleContext, admin: ApiClient) => Promise<void>): Rule {
  return {
    id: spec.id,
    title: spec.title,
    endpoint: spec.endpoint,
    section: spec.section,
    levels: spec.levels,
    writes: true,
    realmWide: true,
    needs: spec.needs ?? ['admin'],
    ...(spec.deviation ? { deviation: spec.deviation } : {}),
    async run(ctx) {
      await guardOthers(ctx);
      await body(ctx, ctx.as('admin'));
    },
  };
}

/** `GET /realm/linkifiers` (through `client`) still lists `before`, in its order, after `what` was refused. */
export async function expectListingUnchanged(client: ApiClient, level: number, before: readonly LinkifierEntry[], what: string): Promise<void> {
  expectEqual(await listLinkifiers(client, level), before, `GET /realm/linkifiers after ${what}`);
}

/** No linkifier carrying the run tag is listed: none of the refused `what` was added. */
export async function expectNoneOfTheRunAdded(ctx: RuleContext, what: string): Promise<void> {
  const leaked = (await listLinkifiers(ctx.as('admin'), ctx.featureLevel)).filter((entry) => entry.pattern.includes(ctx.runTag));
  check(leaked.length === 0, `${what} were added: ${leaked.map((entry) => entry.pattern).join(', ')}`);
}
