/**
 * The sharp navigation-view, edit-history and mark-topic-as-read rules prove their power: against
 * deliberately broken variants of our server the named rule fails; against the unbroken server
 * every one of them passes at several feature levels.
 */
import { isGuest } from '../lib/entities/user.js';
import { mapJsonBody, type Mutation } from './support/conformance.js';
import { asIago, badRequestAnswer, type Breakage, caller, eachBreakageFailsItsRule, formOf, idIn, is, mapAnswers, passesUnbroken, rewriteParam, SUCCESS } from './support/power-mutations.js';

const VIEW_RULES = [
  'navigation-views/add-checks',
  'navigation-views/delete-twice-not-found',
  'navigation-views/every-built-in-configurable',
  'message-history/each-edit-kind-meaning',
  'message-history/access-per-role',
  'message-history/none-policy-disables-history',
  'mark-topic-as-read/only-that-topic-for-the-caller',
  'mark-topic-as-read/unknown-channel-and-topic-each-run',
];

const VIEWS = /^\/navigation_views$/;
const VIEW = /^\/navigation_views\/.+$/;
const HISTORY = /^\/messages\/\d+\/history$/;
const MARK_TOPIC = /^\/mark_topic_as_read$/;

type Snapshot = Record<string, unknown>;
const mapHistory = (change: (snapshots: Snapshot[]) => void): Mutation => mapAnswers('GET', HISTORY, (body) => Array.isArray(body.message_history) && change(body.message_history as Snapshot[]));

const BREAKAGES: readonly Breakage[] = [
  {
    what: 'adding a fragment the user has replaces the view',
    rule: 'navigation-views/add-checks',
    mutate: (request, next, app) => {
      const user = is(request, 'POST', VIEWS) ? caller(app, request) : undefined;
      const fragment = formOf(request).get('fragment')?.trim();
      const views = user && app.world.navigationViews.get(user.id);
      if (views && fragment !== undefined) app.world.navigationViews.set(user.id, views.filter((view) => view.fragment !== fragment));
      return next(request);
    },
  },
  { what: 'a blank name is taken as a default name', rule: 'navigation-views/add-checks', mutate: rewriteParam('POST', VIEWS, 'name', (name) => (name.trim() === '' ? 'Unnamed view' : name)) },
  {
    what: 'names over 500 characters are refused',
    rule: 'navigation-views/add-checks',
    mutate: (request, next) => (is(request, 'POST', VIEWS) && (formOf(request).get('name') ?? '').length > 500 ? Promise.resolve(badRequestAnswer('name is too long')) : next(request)),
  },
  {
    what: 'deleting a fragment with no view succeeds',
    rule: 'navigation-views/delete-twice-not-found',
    mutate: async (request, next) => {
      const response = await next(request);
      return is(request, 'DELETE', VIEW) && response.status === 404 ? SUCCESS : response;
    },
  },
  {
    what: "'drafts' is taken for a custom view",
    rule: 'navigation-views/every-built-in-configurable',
    mutate: (request, next) => (is(request, 'POST', VIEWS) && formOf(request).get('fragment') === 'drafts' && !formOf(request).has('name') ? Promise.resolve(badRequestAnswer('Custom views must have a valid name.')) : next(request)),
  },
  {
    what: 'content_html_diff marks the whole new text inserted',
    rule: 'message-history/each-edit-kind-meaning',
    mutate: mapHistory((list) => list.forEach((s) => 'content_html_diff' in s && (s.content_html_diff = `<div><span class="highlight_text_inserted">${String(s.content)}</span></div>`))),
  },
  {
    what: 'content_html_diff runs backwards (new words deleted)',
    rule: 'message-history/each-edit-kind-meaning',
    mutate: mapHistory((list) => list.forEach((s) => typeof s.content_html_diff === 'string' && (s.content_html_diff = s.content_html_diff.replace(/highlight_text_(inserted|deleted)/g, (_, kind: string) => `highlight_text_${kind === 'inserted' ? 'deleted' : 'inserted'}`)))),
  },
  {
    what: "the original snapshot shows the message's current rendering",
    rule: 'message-history/each-edit-kind-meaning',
    mutate: mapHistory((list) => (list[0]!.rendered_content = list[list.length - 1]!.rendered_content)),
  },
  {
    what: 'the original snapshot carries the time of the last edit, one second late',
    rule: 'message-history/each-edit-kind-meaning',
    mutate: mapHistory((list) => (list[0]!.timestamp = Number(list[list.length - 1]!.timestamp) + 1)),
  },
  {
    what: 'a guest reads the history of a channel it is not in',
    rule: 'message-history/access-per-role',
    mutate: (request, next, app) => {
      const user = is(request, 'GET', HISTORY) ? caller(app, request) : undefined;
      return next(user && isGuest(user) ? asIago(app, request) : request);
    },
  },
  { what: "the policy 'none' is not applied", rule: 'message-history/none-policy-disables-history', mutate: rewriteParam('PATCH', /^\/realm$/, 'message_edit_history_visibility_policy', (value) => (value === 'none' ? undefined : value)) },
  {
    what: "an unknown message is looked up before the policy 'none'",
    rule: 'message-history/none-policy-disables-history',
    mutate: (request, next, app) =>
      is(request, 'GET', HISTORY) && app.world.realm.editHistoryVisibilityPolicy === 'none' && !app.world.messages.has(idIn(request)) ? Promise.resolve(badRequestAnswer('Invalid message(s)')) : next(request),
  },
  {
    what: 'marking a topic read marks the whole channel',
    rule: 'mark-topic-as-read/only-that-topic-for-the-caller',
    mutate: (request, next) => (is(request, 'POST', MARK_TOPIC) ? next({ ...request, path: '/api/v1/mark_stream_as_read' }) : next(request)),
  },
  {
    what: 'marking a topic read marks it for the administrators too',
    rule: 'mark-topic-as-read/only-that-topic-for-the-caller',
    mutate: async (request, next, app) => {
      if (is(request, 'POST', MARK_TOPIC)) await next(asIago(app, request));
      return next(request);
    },
  },
  {
    what: 'an unknown topic answers a generic message',
    rule: 'mark-topic-as-read/unknown-channel-and-topic-each-run',
    mutate: async (request, next) => {
      const response = await next(request);
      return is(request, 'POST', MARK_TOPIC) ? mapJsonBody(response, (body) => typeof body.msg === 'string' && body.msg.startsWith('No such topic') && (body.msg = 'Invalid topic')) : response;
    },
  },
];

passesUnbroken('every sharp view, history and mark-read rule', VIEW_RULES, [415, 357, 200], 10);

eachBreakageFailsItsRule(BREAKAGES, 25);
