/**
 * What the linkifier rules (sections 2.6, 4.16, 4.19) share: the skeleton of a rule that changes
 * the realm's linkifiers (others' linkifiers guarded and their order restored), and the checks
 * that a refused change left the listing as it was.
 */
import type { ApiClient } from '../../client/api-client.js';
import { check, expectEqual } from '../../expect/assert.js';
import { guardOthers, type LinkifierEntry, listLinkifiers } from '../../model/linkifiers.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import { NON_GUEST_READERS } from '../support/readers.js';
import type { FeatureRange, Rule, RuleContext } from '../types.js';

/**
 * A realm-wide rule that changes linkifiers as the administrator: the order of the linkifiers
 * that exist before it is recorded, and after it the run's are deleted and that order restored.
 * A quieter identity lists them (`ctx.reader('admin')`, `NON_GUEST_READERS`).
 */
export function linkifierRule(header: RuleHeader & { readonly endpoint: string; readonly levels: FeatureRange }, body: (ctx: RuleContext, admin: ApiClient) => Promise<void>): Rule {
  const prepare = async (ctx: RuleContext): Promise<ApiClient> => {
    await guardOthers(ctx);
    return ctx.as('admin');
  };
  return fixtureRule(header, { endpoint: header.endpoint, writes: true, realmWide: true, needs: ['admin'], readers: NON_GUEST_READERS }, prepare, body);
}

/** `GET /realm/linkifiers` (through `client`) still lists `before`, in its order, after `what` was refused. */
export async function expectListingUnchanged(client: ApiClient, level: number, before: readonly LinkifierEntry[], what: string): Promise<void> {
  expectEqual(await listLinkifiers(client, level), before, `GET /realm/linkifiers after ${what}`);
}

/** No linkifier carrying the run tag is listed: none of the refused `what` was added. */
export async function expectNoneOfTheRunAdded(ctx: RuleContext, what: string): Promise<void> {
  const leaked = (await listLinkifiers(ctx.reader('admin'), ctx.featureLevel)).filter((entry) => entry.pattern.includes(ctx.runTag));
  check(leaked.length === 0, `${what} were added: ${leaked.map((entry) => entry.pattern).join(', ')}`);
}
