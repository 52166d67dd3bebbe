/**
 * The content rules (edit history, push registration, reports, linkifiers, reminders,
 * attachments) prove their power: against deliberately broken variants of our server the named
 * rule fails; against the unbroken server every one of them passes at several feature levels.
 */
import type { ApiRequest, ApiResponse } from '../server/app/request.js';
import { mapJsonBody, type Mutation } from './support/conformance.js';
import { type Breakage, eachBreakageFailsItsRule, passesUnbroken } from './support/power-mutations.js';

const CONTENT_RULES = ['message-history/*', 'push/*', 'report-message/*', 'linkifiers/*', 'reminders/*', 'attachments/*'];

const REPORT_TYPES = ['spam', 'harassment', 'inappropriate', 'norms', 'other'];

const SUCCESS: ApiResponse = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"result":"success","msg":""}\n' };

const formOf = (request: ApiRequest): URLSearchParams => new URLSearchParams(Buffer.from(request.body).toString('utf8'));
const withForm = (request: ApiRequest, form: URLSearchParams): ApiRequest => ({ ...request, body: new TextEncoder().encode(form.toString()) });
const is = (request: ApiRequest, method: string, path: RegExp): boolean => request.method === method && path.test(request.path.replace(/^\/api\/v1/, ''));
const idIn = (request: ApiRequest): number => Number(/(\d+)\/?$/.exec(request.path)?.[1]);

type Snapshot = Record<string, unknown>;
const mapHistory = (change: (snapshots: Snapshot[]) => void): Mutation => async (request, next) => {
  const response = await next(request);
  if (!is(request, 'GET', /^\/messages\/\d+\/history$/)) return response;
  return mapJsonBody(response, (body) => Array.isArray(body.message_history) && change(body.message_history as Snapshot[]));
};

const BREAKAGES: readonly Breakage[] = [
  { what: 'history snapshots come newest first', rule: 'message-history/snapshots-follow-edits', mutate: mapHistory((list) => list.reverse()) },
  { what: 'history snapshots lose prev_topic', rule: 'message-history/snapshots-follow-edits', mutate: mapHistory((list) => list.forEach((s) => delete s.prev_topic)) },
  { what: 'every snapshot names the sender as editor', rule: 'message-history/snapshots-follow-edits', mutate: mapHistory((list) => list.forEach((s) => (s.user_id = list[0]!.user_id))) },
  { what: 'move snapshots lack stream', rule: 'message-history/channel-move-carries-stream-and-prev-stream', mutate: mapHistory((list) => list.forEach((s) => delete s.stream)) },
  {
    what: 'history ignores allow_empty_topic_name',
    rule: 'message-history/empty-topic-shown-as-display-name',
    mutate: (request, next) => next({ ...request, query: request.query.filter(([name]) => name !== 'allow_empty_topic_name') }),
  },
  {
    what: 'an unknown message answers 404',
    rule: 'message-history/unknown-message-bad-request',
    mutate: async (request, next) => {
      const response = await next(request);
      return is(request, 'GET', /^\/messages\/\d+\/history$/) && response.status === 400 ? { ...response, status: 404 } : response;
    },
  },
  {
    what: 'push token_kind is not validated',
    rule: 'push/invalid-token-kind-bad-request',
    mutate: (request, next) => {
      if (!is(request, 'POST', /^\/mobile_push\/register$/)) return next(request);
      const form = formOf(request);
      if (form.has('token_kind')) form.set('token_kind', 'fcm');
      return next(withForm(request, form));
    },
  },
  {
    what: 'push registration without a push service answers 503',
    rule: 'push/not-configured-error',
    mutate: async (request, next) => {
      const response = await next(request);
      return response.body.includes('PUSH_SERVICE_NOT_CONFIGURED') ? { ...response, status: 503 } : response;
    },
  },
  {
    what: "report_type 'other' is accepted without a description",
    rule: 'report-message/other-requires-description',
    mutate: (request, next) => {
      const form = formOf(request);
      if (!is(request, 'POST', /^\/messages\/\d+\/report$/) || form.get('report_type') !== 'other' || form.get('description')) return next(request);
      form.set('description', 'filled in');
      return next(withForm(request, form));
    },
  },
  {
    what: 'the description limit counts UTF-16 units',
    rule: 'report-message/description-limit-1000',
    mutate: (request, next) => {
      const description = is(request, 'POST', /^\/messages\/\d+\/report$/) ? (formOf(request).get('description') ?? '') : '';
      if (description.length <= 1000) return next(request);
      return Promise.resolve({ ...SUCCESS, status: 400, body: '{"result":"error","msg":"description is too long (limit: 1000 characters)","code":"BAD_REQUEST"}\n' });
    },
  },
  {
    what: 'a report posts no notification',
    rule: 'report-message/notification-posted-to-moderation-channel',
    mutate: (request, next, app) => {
      const form = formOf(request);
      const valid = is(request, 'POST', /^\/messages\/\d+\/report$/) && app.world.realm.moderationRequestChannelId !== null && REPORT_TYPES.includes(form.get('report_type') ?? '') && Boolean(form.get('description'));
      return valid ? Promise.resolve(SUCCESS) : next(request);
    },
  },
  {
    what: 'a reorder of linkifiers is ignored',
    rule: 'linkifiers/sequence-matches-model',
    mutate: (request, next) => (is(request, 'PATCH', /^\/realm\/linkifiers$/) ? Promise.resolve(SUCCESS) : next(request)),
  },
  {
    what: 'an updated linkifier moves to the end',
    rule: 'linkifiers/sequence-matches-model',
    mutate: async (request, next, app) => {
      const response = await next(request);
      if (!is(request, 'PATCH', /^\/realm\/filters\/\d+$/) || response.status !== 200) return response;
      const orders = [...app.world.linkifiers.values()].map((linkifier) => linkifier.order);
      app.world.linkifiers.get(idIn(request))!.order = Math.max(...orders) + 1;
      return response;
    },
  },
  {
    what: 'a new linkifier goes first',
    rule: 'linkifiers/create-returns-id-listed-last',
    mutate: async (request, next, app) => {
      const response = await next(request);
      if (!is(request, 'POST', /^\/realm\/filters$/) || response.status !== 200) return response;
      const { id } = JSON.parse(response.body) as { id: number };
      const orders = [...app.world.linkifiers.values()].map((linkifier) => linkifier.order);
      app.world.linkifiers.get(id)!.order = Math.min(...orders) - 1;
      return response;
    },
  },
  {
    what: "template variables are fitted to the pattern's groups",
    rule: 'linkifiers/named-groups-must-match-template-variables',
    mutate: (request, next) => {
      const form = formOf(request);
      const pattern = form.get('pattern');
      if (!is(request, 'POST', /^\/realm\/filters$/) || pattern === null || !form.has('url_template')) return next(request);
      const groups = [...pattern.matchAll(/\(\?P<(\w+)>/g)].map((match) => `{${match[1]}}`);
      form.set('url_template', `https://example.com/${groups.join('/')}`);
      return next(withForm(request, form));
    },
  },
  {
    what: 'reminders are listed latest first',
    rule: 'reminders/sequence-matches-model',
    mutate: async (request, next) => {
      const response = await next(request);
      return is(request, 'GET', /^\/reminders$/) ? mapJsonBody(response, (body) => Array.isArray(body.reminders) && body.reminders.reverse()) : response;
    },
  },
  {
    what: 'a past delivery time is moved into the future',
    rule: 'reminders/past-delivery-time-bad-request',
    mutate: (request, next) => {
      const form = formOf(request);
      const at = Number(form.get('scheduled_delivery_timestamp'));
      if (!is(request, 'POST', /^\/reminders$/) || !(at * 1000 <= Date.now())) return next(request);
      form.set('scheduled_delivery_timestamp', String(Math.floor(Date.now() / 1000) + 86_400));
      return next(withForm(request, form));
    },
  },
  {
    what: "anyone may delete anyone's reminder",
    rule: 'reminders/delete-unknown-or-others-not-found',
    mutate: (request, next, app) => {
      if (!is(request, 'DELETE', /^\/reminders\/\d+$/) || !app.world.reminders.delete(idIn(request))) return next(request);
      return Promise.resolve(SUCCESS);
    },
  },
  {
    what: "anyone may delete anyone's attachment",
    rule: 'attachments/delete-other-users-bad-request',
    mutate: (request, next, app) => {
      if (!is(request, 'DELETE', /^\/attachments\/\d+$/) || !app.world.attachments.delete(idIn(request))) return next(request);
      return Promise.resolve(SUCCESS);
    },
  },
  {
    what: 'deleting an attachment does nothing',
    rule: 'attachments/upload-listed-then-deleted',
    mutate: (request, next) => (is(request, 'DELETE', /^\/attachments\/\d+$/) && request.headers.has('authorization') ? Promise.resolve(SUCCESS) : next(request)),
  },
  {
    what: 'deleting an attachment adds to upload_space_used',
    rule: 'attachments/upload-listed-then-deleted',
    mutate: (() => {
      let extra = 0;
      return async (request, next) => {
        const response = await next(request);
        if (is(request, 'DELETE', /^\/attachments\/\d+$/) && response.status === 200) extra += 10_000;
        return is(request, 'GET', /^\/attachments$/) ? mapJsonBody(response, (body) => typeof body.upload_space_used === 'number' && (body.upload_space_used += extra)) : response;
      };
    })(),
  },
];

passesUnbroken('every content rule', CONTENT_RULES, [415, 300, 100], 10);

eachBreakageFailsItsRule(BREAKAGES, 25);
