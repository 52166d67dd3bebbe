/**
 * The scheduled-message rules prove their power: against deliberately broken variants of our
 * server the named rule fails; against the unbroken server every one passes at several levels.
 */
import type { ApiRequest, ApiResponse } from '../server/app/request.js';
import { mapJsonBody } from './support/conformance.js';
import { type Breakage, eachBreakageFailsItsRule, passesUnbroken } from './support/power-mutations.js';

const SUCCESS: ApiResponse = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"result":"success","msg":""}\n' };
const is = (request: ApiRequest, method: string, path: RegExp): boolean => request.method === method && path.test(request.path.replace(/^\/api\/v1/, ''));
const idIn = (request: ApiRequest): number => Number(/(\d+)\/?$/.exec(request.path)?.[1]);

const BREAKAGES: readonly Breakage[] = [
  {
    what: 'deleting a scheduled message does nothing',
    rule: 'scheduled-messages/scheduled-listed-edited-deleted',
    mutate: (request, next) => (is(request, 'DELETE', /^\/scheduled_messages\/\d+$/) && request.headers.has('authorization') ? Promise.resolve(SUCCESS) : next(request)),
  },
  {
    what: 'listed scheduled messages lose their topic',
    rule: 'scheduled-messages/scheduled-listed-edited-deleted',
    mutate: async (request, next) => {
      const response = await next(request);
      if (!is(request, 'GET', /^\/scheduled_messages$/)) return response;
      return mapJsonBody(response, (body) => Array.isArray(body.scheduled_messages) && (body.scheduled_messages as Array<Record<string, unknown>>).forEach((item) => delete item.topic));
    },
  },
  {
    what: 'the present counts as the future',
    rule: 'scheduled-messages/past-delivery-time-bad-request',
    mutate: (request, next, app) => {
      if (!is(request, 'POST', /^\/scheduled_messages$/)) return next(request);
      const form = new URLSearchParams(Buffer.from(request.body).toString('utf8'));
      if (Number(form.get('scheduled_delivery_timestamp')) * 1000 > app.world.now() - 1000) form.set('scheduled_delivery_timestamp', String(Math.floor(app.world.now() / 1000) + 3600));
      return next({ ...request, body: new TextEncoder().encode(form.toString()) });
    },
  },
  {
    what: "anyone may delete anyone's scheduled message",
    rule: 'scheduled-messages/others-or-unknown-not-found',
    mutate: (request, next, app) => {
      if (!is(request, 'DELETE', /^\/scheduled_messages\/\d+$/) || !app.world.scheduledMessages.delete(idIn(request))) return next(request);
      return Promise.resolve(SUCCESS);
    },
  },
  {
    what: 'an empty edit succeeds',
    rule: 'scheduled-messages/edit-request-checks',
    mutate: async (request, next) => {
      const response = await next(request);
      return is(request, 'PATCH', /^\/scheduled_messages\/\d+$/) && response.body.includes('Nothing to change') ? SUCCESS : response;
    },
  },
];

passesUnbroken('every scheduled-message rule', ['scheduled-messages/*'], [415, 184, 179, 173], 10);

eachBreakageFailsItsRule(BREAKAGES, 25);
