/**
 * The pointer rules prove their power: against deliberately broken variants of our server at
 * level 22 the named rule fails; against the unbroken server both pass at levels 22 and 15.
 */
import { mapJsonBody } from './support/conformance.js';
import { badRequestAnswer, type Breakage, caller, eachBreakageFailsItsRule, errorsSucceed, formOf, is, mapAnswers, mapEvents, passesUnbroken, SUCCESS } from './support/power-mutations.js';

const POINTER = /^\/users\/me\/pointer$/;
const LEVEL = 22;

const AT_LEVEL_22: readonly Breakage[] = [
  { what: 'negative, malformed and unknown pointers are accepted', rule: 'pointer/refusals', mutate: errorsSucceed('POST', POINTER) },
  {
    what: 'the converter error leaves out the raw value',
    rule: 'pointer/refusals',
    mutate: async (request, next) => {
      const response = await next(request);
      if (!is(request, 'POST', POINTER) || response.status !== 400) return response;
      return mapJsonBody(response, (body) => {
        if (typeof body.msg === 'string') body.msg = body.msg.replace(/: .*$/, '');
      });
    },
  },
  { what: 'PUT is not served', rule: 'pointer/moves-forward-event-and-register', mutate: (request, next) => (is(request, 'PUT', POINTER) ? Promise.resolve(badRequestAnswer('Invalid message ID')) : next(request)) },
  {
    what: 'the pointer moves backwards',
    rule: 'pointer/moves-forward-event-and-register',
    mutate: (request, next, app) => {
      const user = caller(app, request);
      const value = Number(formOf(request).get('pointer'));
      if (!user || !is(request, 'POST', POINTER) || !(value >= 0 && value < (app.world.pointers.get(user.id) ?? -1))) return next(request);
      app.world.pointers.set(user.id, value);
      return Promise.resolve(SUCCESS);
    },
  },
  { what: 'the pointer event is off by one', rule: 'pointer/moves-forward-event-and-register', mutate: mapEvents('pointer', (event) => { event.pointer = (event.pointer as number) - 1; }) },
  {
    what: 'a new user starts at 0',
    rule: 'pointer/moves-forward-event-and-register',
    mutate: mapAnswers('GET', POINTER, (body) => { if (body.pointer === -1) body.pointer = 0; }),
  },
  { what: 'register leaves the pointer out', rule: 'pointer/moves-forward-event-and-register', mutate: mapAnswers('POST', /^\/register$/, (body) => { delete body.pointer; }) },
  {
    what: 'GET /users/me still carries the pointer at level 22',
    rule: 'pointer/moves-forward-event-and-register',
    mutate: mapAnswers('GET', /^\/users\/me$/, (body) => { body.pointer = -1; }),
  },
];

const BREAKAGES: readonly Breakage[] = AT_LEVEL_22.map((breakage) => ({ ...breakage, level: LEVEL }));

passesUnbroken('every pointer rule', ['pointer/*'], [LEVEL, 15], 3, 2);

eachBreakageFailsItsRule(BREAKAGES, 3);
