/**
 * The group reactivation rule proves its power: against deliberately broken variants of our server
 * (members reactivating groups they do not manage, `deactivated=false` ignored, the update event
 * saying the wrong thing, the add event for clients that had dropped the group carrying another group) the rule
 * fails; against the unbroken server it passes.
 */
import { ROLE } from '../lib/entities/user.js';
import { changeForm, type Breakage, eachBreakageFailsItsRule, mapEvents, on, passesUnbroken } from './support/power-mutations.js';
import { actAs } from './support/power-org.js';

const RULE = 'user-groups/reactivate';
const GROUP = /^\/user_groups\/\d+$/;

const BREAKAGES: readonly Breakage[] = [
  { what: 'members may reactivate any group', rule: RULE, mutate: actAs(GROUP, ROLE.MEMBER, ROLE.ADMINISTRATOR, ['PATCH']) },
  { what: 'deactivated=false is ignored', rule: RULE, mutate: on('PATCH', GROUP, (request, next) => next(changeForm(request, (form) => form.get('deactivated') === 'false' && form.set('description', 'reactivated?') && form.delete('deactivated')))) },
  { what: 'the reactivation update says deactivated: true', rule: RULE, mutate: mapEvents('user_group', (event) => event.op === 'update' && (event.data as Record<string, unknown>).deactivated === false && ((event.data as Record<string, unknown>).deactivated = true)) },
  { what: 'the add event carries another group', rule: RULE, mutate: mapEvents('user_group', (event) => event.op === 'add' && ((event.group as Record<string, unknown>).id = 0)) },
];

passesUnbroken('the group reactivation rule', [RULE], [415, 386], 3);

eachBreakageFailsItsRule(BREAKAGES, 3);
