/**
 * The export consent event rule proves its power: against deliberately broken variants of our
 * server (no event, the consent inverted, a field too many, the event also reaching moderators,
 * the change not stored) the rule fails; against the unbroken server it passes, and at level 311
 * (before the event) it skips.
 */
import { ROLE } from '../lib/entities/user.js';
import { type Breakage, eachBreakageFailsItsRule, formOf, mapAnswers, mapEvents, on, passesUnbroken, replaceEvents, userOfRole } from './support/power-mutations.js';

const RULE = 'exports/consent-event-to-administrators';
const consentChange = (form: URLSearchParams): string | null => form.get('allow_private_data_export');

const BREAKAGES: readonly Breakage[] = [
  { what: 'no realm_export_consent event is sent', rule: RULE, mutate: replaceEvents('realm_export_consent', () => undefined) },
  { what: 'the event carries the opposite consent', rule: RULE, mutate: mapEvents('realm_export_consent', (event) => (event.consented = !event.consented)) },
  { what: 'the event carries an extra field', rule: RULE, mutate: mapEvents('realm_export_consent', (event) => (event.email = 'x@example.com')) },
  {
    what: 'moderators get the event too',
    rule: RULE,
    mutate: on('PATCH', '/settings', async (request, next, app) => {
      const answer = await next(request);
      const value = consentChange(formOf(request));
      if (value !== null) app.world.events.send({ type: 'realm_export_consent', user_id: 1, consented: value === 'true' }, [userOfRole(app, ROLE.MODERATOR).id]);
      return answer;
    }),
  },
  { what: 'the consents list does not show the change', rule: RULE, mutate: mapAnswers('GET', /^\/export\/realm\/consents$/, (body) => {
      for (const entry of body.export_consents as Array<{ consented: boolean }>) entry.consented = false;
    }) },
];

passesUnbroken('the export consent event rule', [RULE], [415, 312], 1);

eachBreakageFailsItsRule(BREAKAGES, 1);
