/**
 * The level-313 email-change rules prove their power: against deliberately broken variants of our
 * server the named rule fails; against the unbroken server every one of them passes at the levels
 * on both sides of 313.
 */
import { isAdministrator } from '../lib/entities/user.js';
import { asIago, type Breakage, caller, eachBreakageFailsItsRule, is, mapAnswers, passesUnbroken, rewriteParam } from './support/power-mutations.js';

const RULES = ['user-email/new-email', 'user-email/new-email-before-313', 'user-email/update-by-email'];

const BY_ID = /^\/users\/\d+$/;
const BY_EMAIL = /^\/users\/[^/]*(@|%40)[^/]*$/;

const BREAKAGES: readonly Breakage[] = [
  {
    what: 'new_email is answered with success but not applied',
    rule: 'user-email/new-email',
    mutate: rewriteParam('PATCH', BY_ID, 'new_email', () => undefined),
  },
  {
    what: "members may change other users' emails",
    rule: 'user-email/new-email',
    mutate: (request, next, app) => {
      const user = is(request, 'PATCH', BY_ID) ? caller(app, request) : undefined;
      return next(user && !isAdministrator(user) ? asIago(app, request) : request);
    },
  },
  {
    what: 'an unknown email answers another text than GET /users/{email}',
    rule: 'user-email/update-by-email',
    mutate: mapAnswers('PATCH', BY_EMAIL, (body) => body.result === 'error' && (body.msg = 'Unknown email')),
  },
  {
    what: 'PATCH /users/{email} reports success without changing anything',
    rule: 'user-email/update-by-email',
    mutate: rewriteParam('PATCH', BY_EMAIL, 'full_name', () => undefined),
  },
  {
    what: 'new_email is silently dropped below 313 instead of reported',
    rule: 'user-email/new-email-before-313',
    level: 312,
    mutate: mapAnswers('PATCH', BY_ID, (body) => Array.isArray(body.ignored_parameters_unsupported) && delete body.ignored_parameters_unsupported),
  },
];

passesUnbroken('every email-change rule', RULES, [415, 313, 312], 5);

eachBreakageFailsItsRule(BREAKAGES, 5);
