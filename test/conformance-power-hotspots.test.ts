/**
 * The hotspots rules prove their power: against deliberately broken variants of our server the
 * named rule fails; against the unbroken server they pass at several feature levels.
 */
import type { World } from '../lib/state/world.js';
import { mapJsonBody, type Mutation } from './support/conformance.js';
import { type Breakage, caller, eachBreakageFailsItsRule, errorsSucceed, formOf, is, mapEvents, passesUnbroken } from './support/power-mutations.js';

const HOTSPOTS = /^\/users\/me\/hotspots$/;
const TUTORIAL = /^\/users\/me\/tutorial_status$/;
const LEVEL = 232;

/** After each answered POST to `path`, changes the caller's stored state behind the server's back. */
const afterPost = (path: RegExp, change: (world: World, userId: number) => void): Mutation => async (request, next, app) => {
  const response = await next(request);
  const user = caller(app, request);
  if (is(request, 'POST', path) && response.status === 200 && user) change(app.world, user.id);
  return response;
};

const BREAKAGES: readonly Breakage[] = [
  { what: 'unknown hotspots are accepted', rule: 'hotspots/unknown-hotspot-refused', mutate: errorsSucceed('POST', HOTSPOTS), level: LEVEL },
  {
    what: 'the unknown-hotspot error names the later onboarding_step parameter',
    rule: 'hotspots/unknown-hotspot-refused',
    level: LEVEL,
    mutate: async (request, next) => {
      const response = await next(request);
      if (!is(request, 'POST', HOTSPOTS) || response.status !== 400) return response;
      return mapJsonBody(response, (body) => { body.msg = `Unknown onboarding_step: ${formOf(request).get('hotspot') ?? ''}`; });
    },
  },
  {
    what: 'the event still shows the hotspot just marked',
    rule: 'hotspots/mark-seen-event-and-register',
    level: LEVEL,
    mutate: mapEvents('hotspots', (event) => { event.hotspots = [{ name: 'intro_streams', title: 't', description: 'd', delay: 0.5, has_trigger: false }]; }),
  },
  {
    what: 'hotspot objects lack has_trigger at level 230 and above',
    rule: 'hotspots/mark-seen-event-and-register',
    level: LEVEL,
    mutate: mapEvents('hotspots', (event) => { for (const hotspot of event.hotspots as Array<Record<string, unknown>>) delete hotspot.has_trigger; }),
  },
  {
    what: 'the marking is forgotten after its event',
    rule: 'hotspots/mark-seen-event-and-register',
    level: LEVEL,
    mutate: afterPost(HOTSPOTS, (world, userId) => world.onboardingSteps.delete(userId)),
  },
  {
    what: 'a finished tutorial still shows hotspots',
    rule: 'hotspots/mark-seen-event-and-register',
    level: LEVEL,
    mutate: afterPost(TUTORIAL, (world, userId) => world.tutorialStatus.set(userId, 'started')),
  },
  { what: 'tutorial_status is already gone at level 250', rule: 'hotspots/tutorial-status-accepted', level: 250, mutate: (request, next) => (is(request, 'POST', TUTORIAL) ? Promise.resolve({ status: 404, headers: { 'content-type': 'application/json' }, body: '{"result":"error","msg":"Not Found","code":"BAD_REQUEST"}' }) : next(request)) },
];

passesUnbroken('every hotspots rule', ['hotspots/*'], [232, 229, 100, 250], 3, 1);

eachBreakageFailsItsRule(BREAKAGES, 3);
