/**
 * The sharp realm rules (every value of the user-settings defaults, every visibility-policy
 * transition, linkifier events and refusals) prove their power: against deliberately broken
 * variants of our server the named rule fails; against the unbroken server every one of them
 * passes at several feature levels. Navigation views, edit history and mark-topic-as-read are in
 * conformance-power-realm-views.test.ts.
 */
import { type Mutation } from './support/conformance.js';
import { badRequestAnswer, type Breakage, caller, eachBreakageFailsItsRule, formOf, is, mapAnswers, mapEvents, passesUnbroken, refuseValue, rewriteParam, SUCCESS, withForm } from './support/power-mutations.js';

const REALM_RULES = [
  'user-settings-defaults/every-enum-value-applied',
  'user-settings-defaults/value-outside-list-refused',
  'user-settings-defaults/home-view-names-at-level',
  'user-topics/every-transition-with-event',
  'user-topics/policy-values-at-level',
  'linkifiers/event-after-each-change',
  'linkifiers/delete-twice-second-refused',
  'linkifiers/pattern-is-re2',
];

const DEFAULTS = /^\/realm\/user_settings_defaults$/;
const USER_TOPICS = /^\/user_topics$/;
const FILTER = /^\/realm\/filters\/\d+$/;
const FILTERS = /^\/realm\/filters$/;

/** A default's value refused as if it were not in the list. */
const defaultRefused = (name: string, value: string): Mutation => refuseValue('PATCH', DEFAULTS, name, value, badRequestAnswer(`Invalid ${name}: Value error, Not in the list of possible values`));
/** A default's value replaced by another before the server sees it. */
const defaultRewritten = (name: string, from: string, to: string | undefined): Mutation => rewriteParam('PATCH', DEFAULTS, name, (value) => (value === from ? to : value));

const BREAKAGES: readonly Breakage[] = [
  { what: 'color_scheme 3 (light) is stored as 1', rule: 'user-settings-defaults/every-enum-value-applied', mutate: defaultRewritten('color_scheme', '3', '1') },
  { what: "web_home_view 'all_messages' is dropped", rule: 'user-settings-defaults/every-enum-value-applied', mutate: defaultRewritten('web_home_view', 'all_messages', undefined) },
  { what: 'email_address_visibility 5 (moderators) is refused', rule: 'user-settings-defaults/every-enum-value-applied', mutate: defaultRefused('email_address_visibility', '5') },
  {
    what: 'a batching period of exactly one week is refused',
    rule: 'user-settings-defaults/every-enum-value-applied',
    mutate: refuseValue('PATCH', DEFAULTS, 'email_notifications_batching_period_seconds', '604800', badRequestAnswer('Invalid email batching period: 604800 seconds')),
  },
  { what: "notification_sound 'none' is refused", rule: 'user-settings-defaults/every-enum-value-applied', mutate: refuseValue('PATCH', DEFAULTS, 'notification_sound', 'none', badRequestAnswer("Invalid notification sound 'none'")) },
  { what: 'user_list_style 4 is accepted as 3', rule: 'user-settings-defaults/value-outside-list-refused', mutate: defaultRewritten('user_list_style', '4', '3') },
  {
    what: 'refusals carry a generic message',
    rule: 'user-settings-defaults/value-outside-list-refused',
    mutate: mapAnswers('PATCH', DEFAULTS, (body) => body.result === 'error' && (body.msg = 'Invalid parameter')),
  },
  { what: 'a batching period of one week and a second is accepted', rule: 'user-settings-defaults/value-outside-list-refused', mutate: defaultRewritten('email_notifications_batching_period_seconds', '604801', '604800') },
  { what: 'web_channel_default_view 4 is accepted before level 401', rule: 'user-settings-defaults/value-outside-list-refused', mutate: defaultRewritten('web_channel_default_view', '4', '2'), level: 300 },
  { what: 'default_view is still accepted from level 219', rule: 'user-settings-defaults/home-view-names-at-level', mutate: rewriteParam('PATCH', DEFAULTS, 'default_view', () => undefined) },
  {
    what: 'the old home-view names are dropped before level 219',
    rule: 'user-settings-defaults/home-view-names-at-level',
    mutate: rewriteParam('PATCH', DEFAULTS, 'escape_navigates_to_default_view', () => undefined),
    level: 200,
  },
  { what: 'the user_topic event reports followed (3) as muted (1)', rule: 'user-topics/every-transition-with-event', mutate: mapEvents('user_topic', (event) => event.visibility_policy === 3 && (event.visibility_policy = 1)) },
  { what: 'the user_topic event of a removal repeats a policy', rule: 'user-topics/every-transition-with-event', mutate: mapEvents('user_topic', (event) => event.visibility_policy === 0 && (event.visibility_policy = 2)) },
  {
    what: 'setting the current policy again announces its removal',
    rule: 'user-topics/every-transition-with-event',
    mutate: async (request, next, app) => {
      const form = formOf(request);
      const [streamId, topic, policy] = [Number(form.get('stream_id')), (form.get('topic') ?? '').toLowerCase(), Number(form.get('visibility_policy'))];
      const user = is(request, 'POST', USER_TOPICS) ? caller(app, request) : undefined;
      const row = user && [...(app.world.userTopics.get(user.id)?.values() ?? [])].find((entry) => entry.streamId === streamId && entry.topicName.toLowerCase() === topic);
      const unchanged = row !== undefined && row.visibilityPolicy === policy;
      const response = await next(request);
      if (user && row && unchanged && response.status === 200) app.world.events.send({ type: 'user_topic', stream_id: streamId, topic_name: row.topicName, last_updated: row.lastUpdated, visibility_policy: 0 }, [user.id]);
      return response;
    },
  },
  { what: 'policy 3 is taken as 2 before level 219', rule: 'user-topics/policy-values-at-level', mutate: rewriteParam('POST', USER_TOPICS, 'visibility_policy', (value) => (value === '3' ? '2' : value)), level: 200 },
  { what: 'policy 4 is taken as followed', rule: 'user-topics/policy-values-at-level', mutate: rewriteParam('POST', USER_TOPICS, 'visibility_policy', (value) => (value === '4' ? '3' : value)) },
  { what: 'realm_linkifiers events list the linkifiers newest first', rule: 'linkifiers/event-after-each-change', mutate: mapEvents('realm_linkifiers', (event) => (event.realm_linkifiers as unknown[]).reverse()) },
  {
    what: 'realm_linkifiers events name the template url_format',
    rule: 'linkifiers/event-after-each-change',
    mutate: mapEvents('realm_linkifiers', (event) => {
      for (const entry of event.realm_linkifiers as Array<Record<string, unknown>>) [entry.url_format, entry.url_template] = [entry.url_template, undefined];
    }),
  },
  {
    what: 'deleting a deleted linkifier succeeds',
    rule: 'linkifiers/delete-twice-second-refused',
    mutate: async (request, next) => {
      const response = await next(request);
      return is(request, 'DELETE', FILTER) && response.status === 400 ? SUCCESS : response;
    },
  },
  { what: "a missing linkifier is 'Filter not found'", rule: 'linkifiers/delete-twice-second-refused', mutate: mapAnswers('DELETE', FILTER, (body) => body.result === 'error' && (body.msg = 'Filter not found')) },
  {
    what: 'lookahead is accepted (a backtracking engine)',
    rule: 'linkifiers/pattern-is-re2',
    mutate: (request, next) => {
      const form = formOf(request);
      const pattern = form.get('pattern');
      if (!is(request, 'POST', FILTERS) || pattern === null || !pattern.includes('(?=')) return next(request);
      form.set('pattern', pattern.replace(/\(\?=[^)]*\)/, ''));
      return next(withForm(request, form));
    },
  },
  {
    what: 'patterns are limited to 500 characters',
    rule: 'linkifiers/pattern-is-re2',
    mutate: (request, next) => ((formOf(request).get('pattern') ?? '').length > 500 && is(request, 'POST', FILTERS) ? Promise.resolve(badRequestAnswer('Pattern is too long')) : next(request)),
  },
];

passesUnbroken('every sharp realm rule', REALM_RULES, [415, 300, 200], 10);

eachBreakageFailsItsRule(BREAKAGES, 25);
