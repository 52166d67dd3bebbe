/**
 * The onboarding-steps rules prove their power: against deliberately broken variants of our server
 * the named rule fails; against the unbroken server both pass at several feature levels.
 */
import { mapJsonBody } from './support/conformance.js';
import { badRequestAnswer, type Breakage, caller, eachBreakageFailsItsRule, errorsSucceed, formOf, is, mapEvents, passesUnbroken } from './support/power-mutations.js';

const STEPS = /^\/users\/me\/onboarding_steps$/;

const BREAKAGES: readonly Breakage[] = [
  { what: 'unknown steps are accepted', rule: 'onboarding-steps/unknown-step-refused', mutate: errorsSucceed('POST', STEPS) },
  {
    what: 'the unknown-step error names the old hotspot parameter',
    rule: 'onboarding-steps/unknown-step-refused',
    mutate: async (request, next) => {
      const response = await next(request);
      if (!is(request, 'POST', STEPS) || response.status !== 400) return response;
      return mapJsonBody(response, (body) => { body.msg = `Unknown hotspot: ${formOf(request).get('onboarding_step') ?? ''}`; });
    },
  },
  {
    what: 'marking a step already seen is an error',
    rule: 'onboarding-steps/mark-seen-event-and-register',
    mutate: (request, next, app) => {
      const user = caller(app, request);
      const seen = user ? (app.world.onboardingSteps.get(user.id) ?? []) : [];
      return is(request, 'POST', STEPS) && seen.includes(formOf(request).get('onboarding_step') ?? '') ? Promise.resolve(badRequestAnswer('Onboarding step already seen')) : next(request);
    },
  },
  {
    what: 'the event lists the steps in reverse order',
    rule: 'onboarding-steps/mark-seen-event-and-register',
    mutate: mapEvents('onboarding_steps', (event) => { event.onboarding_steps = [...(event.onboarding_steps as unknown[])].reverse(); }),
  },
  {
    what: 'the marking is forgotten after its event',
    rule: 'onboarding-steps/mark-seen-event-and-register',
    mutate: async (request, next, app) => {
      const response = await next(request);
      const user = caller(app, request);
      if (is(request, 'POST', STEPS) && response.status === 200 && user) app.world.onboardingSteps.delete(user.id);
      return response;
    },
  },
];

passesUnbroken('every onboarding-steps rule', ['onboarding-steps/*'], [415, 300, 233], 3, 2);

eachBreakageFailsItsRule(BREAKAGES, 3);
