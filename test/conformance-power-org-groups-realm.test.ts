/**
 * The user group update, organization settings and export rules prove their power: against
 * deliberately broken variants of our server (a rename limit off by one, EXPECTATION_MISMATCH
 * missing, membership that ignores subgroups, a role that may not act allowed, an event without
 * its field...) the named rule fails; against the unbroken server every one of them passes.
 */
import { ROLE } from '../lib/entities/user.js';
import type { Mutation } from './support/conformance.js';
import { apiPath, type Breakage, changeForm, codePoints, eachBreakageFailsItsRule, errorsSucceed, jsonParam, mapAnswers, mapEvents, on, passesUnbroken } from './support/power-mutations.js';
import { actAs } from './support/power-org.js';

const RULES = [
  'user-groups/update-name-and-description',
  'user-groups/update-by-role',
  'user-groups/update-settings-new-old',
  'user-group-members/is-member-direct-and-recursive',
  'realm-settings/values-applied-and-announced',
  'realm-settings/administrators-and-owners-only',
  'realm-settings/group-setting-new-old',
  'exports/list-and-consents-administrators-only',
  'exports/start-and-delete-embedded-only',
];

const GROUP = /^\/user_groups\/\d+$/;
const MEMBERSHIP = /^\/user_groups\/\d+\/members\/\d+$/;

/** Cuts a form value of `from` code points to one fewer. */
const cutTo = (method: string, path: string | RegExp, name: string, from: number): Mutation =>
  on(method, path, (request, next) => next(changeForm(request, (form) => codePoints(form.get(name) ?? '') === from && form.set(name, [...(form.get(name) ?? '')].slice(0, from - 1).join('')))));

/** Membership questions are always answered for direct members only. */
const directOnly: Mutation = (request, next) =>
  next(request.method === 'GET' && MEMBERSHIP.test(apiPath(request)) ? { ...request, query: [...request.query.filter(([name]) => name !== 'direct_member_only'), ['direct_member_only', 'true']] } : request);

/** Group-setting changes lose their `old` value. */
const oldDropped = (method: string, path: string | RegExp, name: string): Mutation =>
  on(method, path, (request, next) =>
    next(
      changeForm(request, (form) => {
        const change = jsonParam<Record<string, unknown>>(form, name);
        if (change && typeof change === 'object' && 'old' in change) form.set(name, JSON.stringify({ new: change.new }));
      }),
    ),
  );

const BREAKAGES: readonly Breakage[] = [
  { what: 'a rename to 101 code points is cut to 100', rule: 'user-groups/update-name-and-description', mutate: cutTo('PATCH', GROUP, 'name', 101) },
  { what: 'user_group update events lack the new name', rule: 'user-groups/update-name-and-description', mutate: mapEvents('user_group', (event) => event.op === 'update' && delete (event.data as Record<string, unknown>).name) },
  { what: 'members may change any group', rule: 'user-groups/update-by-role', mutate: actAs(GROUP, ROLE.MEMBER, ROLE.ADMINISTRATOR, ['PATCH']) },
  { what: 'a stale old value is answered BAD_REQUEST, not EXPECTATION_MISMATCH', rule: 'user-groups/update-settings-new-old', mutate: mapAnswers('PATCH', GROUP, (body) => body.code === 'EXPECTATION_MISMATCH' && (body.code = 'BAD_REQUEST')) },
  { what: 'membership through subgroups is not counted', rule: 'user-group-members/is-member-direct-and-recursive', mutate: directOnly },
  { what: 'an organization name of 41 code points is cut to 40', rule: 'realm-settings/values-applied-and-announced', mutate: cutTo('PATCH', '/realm', 'name', 41) },
  { what: 'realm update events carry the old value', rule: 'realm-settings/values-applied-and-announced', mutate: mapEvents('realm', (event) => event.op === 'update' && event.property === 'description' && (event.value = '')) },
  { what: 'administrators may change the waiting period', rule: 'realm-settings/administrators-and-owners-only', mutate: actAs(/^\/realm$/, ROLE.ADMINISTRATOR, ROLE.OWNER, ['PATCH']) },
  { what: 'a stale old value of a realm group setting is ignored', rule: 'realm-settings/group-setting-new-old', mutate: oldDropped('PATCH', '/realm', 'can_add_custom_emoji_group') },
  { what: 'members may list exports', rule: 'exports/list-and-consents-administrators-only', mutate: actAs(/^\/export\/realm/, ROLE.MEMBER, ROLE.ADMINISTRATOR, ['GET']) },
  { what: 'a deleted export can be deleted again', rule: 'exports/start-and-delete-embedded-only', mutate: errorsSucceed('DELETE', /^\/export\/realm\/\d+$/) },
];

passesUnbroken('every user group update, organization settings and export rule', RULES, [415, 289, 207], 5, 5);

eachBreakageFailsItsRule(BREAKAGES, 5);
