/**
 * Every write the route table serves is classified in an authorization table (a new route fails
 * here until it is), each classified route is served, and a route without refusals says why.
 */
import t from 'tap';
import { ROUTES } from '../server/app/routes.js';
import { CHANNEL_RULES } from './support/write-auth-channels.js';
import { GROUP_RULES } from './support/write-auth-groups.js';
import { MESSAGE_RULES } from './support/write-auth-messages.js';
import { PERSONAL_RULES } from './support/write-auth-personal.js';
import { REALM_RULES } from './support/write-auth-realm.js';
import { USER_RULES } from './support/write-auth-users.js';
import { UNAUTHENTICATED_RULES } from './support/write-auth.js';

const TABLES = [CHANNEL_RULES, MESSAGE_RULES, PERSONAL_RULES, USER_RULES, GROUP_RULES, REALM_RULES, UNAUTHENTICATED_RULES];
const rules = TABLES.flat();

t.test('every non-GET route of the route table is in exactly one authorization table, and every table entry is served', async (t) => {
  const served = ROUTES.flatMap((route) => Object.keys(route.methods).filter((method) => method !== 'GET').map((method) => `${method} ${route.path}`));
  const classified = rules.map((rule) => rule.route);
  t.same(served.filter((route) => !classified.includes(route)), [], 'writes without a table entry');
  t.same(classified.filter((route) => !served.includes(route)), [], 'table entries for routes not served');
  t.same(classified.filter((route, i) => classified.indexOf(route) !== i), [], 'routes classified twice');
});

t.test('a route without refusals says why, and every refusal names one of its targets', async (t) => {
  for (const rule of rules) {
    if (rule.refused.length === 0) t.ok(rule.open, `${rule.route}: why nobody is refused`);
    for (const refusal of rule.refused) t.ok(rule.targets[refusal.target], `${rule.route}: target ${refusal.target}`);
  }
});
