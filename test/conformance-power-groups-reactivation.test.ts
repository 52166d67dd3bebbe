/**
 * The group reactivation rule proves its power: against deliberately broken variants of our server
 * (members reactivating groups they do not manage, `deactivated=false` ignored, the update event
 * carrying more than the change, the add event for clients that had dropped the group showing it deactivated) the rule
 * fails; against the unbroken server it passes.
 */
import { ROLE } from '../lib/entities/user.js';
import { changeForm, type Breakage, eachBreakageFailsItsRule, mapEvents, on, passesUnbroken } from './support/power-mutations.js';
import { actAs } from './support/power-org.js';

const RULE = 'user-groups/reactivate';
const GROUP = /^\/user_groups\/\d+$/;

const BREAKAGES: readonly Breakage[] = [
  { what: 'members may reactivate any group', rule: RULE, mutate: actAs(GROUP, ROLE.MEMBER, ROLE.ADMINISTRATOR, ['PATCH']) },
  { what: 'deactivated=false is ignored', rule: RULE, mutate: on('PATCH', GROUP, (request, next) => next(changeForm(request, (form) => {
      if (form.get('deactivated') !== 'false') return;
      form.delete('deactivated');
      form.set('description', 'reactivated?');
    }))) },
  { what: 'the reactivation update carries more than the change', rule: RULE, mutate: mapEvents('user_group', (event) => event.op === 'update' && (event.data as Record<string, unknown>).deactivated === false && ((event.data as Record<string, unknown>).name = 'renamed')) },
  { what: 'the add event shows the group still deactivated', rule: RULE, mutate: mapEvents('user_group', (event) => event.op === 'add' && ((event.group as Record<string, unknown>).deactivated = true)) },
];

passesUnbroken('the group reactivation rule', [RULE], [415, 386], 3);

eachBreakageFailsItsRule(BREAKAGES, 3);
