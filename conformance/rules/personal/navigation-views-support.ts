/**
 * What the navigation-view rules (sections 2.8, 4.13; level 390) share: the endpoint, level and
 * deviation they name, the built-in views, the member's rule skeleton, the cleanup of the views a
 * rule added, and the checks of a built-in view as listed and of a DELETE that finds nothing.
 */
import type { ApiClient, Reply } from '../../client/api-client.js';
import { check, expectEqual } from '../../expect/assert.js';
import { fragmentPath, listViews } from '../../model/navigation-views-model.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';

export const ENDPOINT = 'PATCH /navigation_views/{fragment}';
/** For rules that check every navigation-view endpoint. */
export const EVERY_ENDPOINT = 'GET, POST /navigation_views, PATCH, DELETE /navigation_views/{fragment}';
export const LEVELS = { min: 390 } as const;
export const DEVIATION = 'navigation-view-not-found-code';

/** The built-in views (behaviour reference §6); every other fragment is a custom view. */
export const BUILT_IN = ['inbox', 'recent', 'feed', 'drafts', 'narrow/has/reaction/sender/me', 'narrow/is/mentioned', 'narrow/is/starred'] as const;

/** A navigation-view rule (from level 390; on the edit endpoint unless another is named) the member runs with its own client. */
export function memberViewRule(header: RuleHeader & { readonly writes: boolean }, body: (ctx: RuleContext, member: ApiClient) => Promise<void>): Rule {
  return fixtureRule(header, { endpoint: ENDPOINT, levels: LEVELS, writes: header.writes, needs: ['member'] }, async (ctx) => ctx.as('member'), body);
}

/** Deletes, when the rule ends, each of `fragments` the member still has (read then: a set may still grow). */
export function deleteViewsLater(ctx: RuleContext, fragments: Iterable<string>): void {
  ctx.cleanup('delete the navigation views of the rule', async (c) => {
    const client = c.as('member');
    for (const fragment of fragments) await client.delete(fragmentPath(fragment));
  });
}

/** The built-in views the member has not configured (those it has are left alone, with a note). */
export async function unconfiguredBuiltIns(ctx: RuleContext, client: ApiClient): Promise<{ free: string[]; configured: Set<string> }> {
  const configured = new Set((await listViews(client)).map((view) => view.fragment));
  const free = BUILT_IN.filter((fragment) => !configured.has(fragment));
  if (free.length < BUILT_IN.length) ctx.note(`built-in views the member had configured were left alone: ${BUILT_IN.filter((f) => configured.has(f)).join(', ')}`);
  return { free, configured };
}

/** The built-in view is listed with `is_pinned` as given and name null. */
export async function expectBuiltInListed(client: ApiClient, fragment: string, pinned: boolean): Promise<void> {
  expectEqual((await listViews(client)).find((view) => view.fragment === fragment), { fragment, is_pinned: pinned, name: null }, `built-in view ${fragment}`);
}

/** DELETE of no view: 404 (section 7 names NOT_FOUND; the real server's code is BAD_REQUEST: both are accepted). */
export function expectDeleteNotFound(reply: Reply, what: string): void {
  check(reply.status === 404 && (reply.body?.code === 'NOT_FOUND' || reply.body?.code === 'BAD_REQUEST'), `${what}: expected HTTP 404 (NOT_FOUND or BAD_REQUEST)`, reply);
}
