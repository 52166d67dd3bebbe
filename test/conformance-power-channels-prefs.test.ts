/**
 * The rules on personal channel settings, legacy topic muting, default channels and topics prove
 * their power: a property not stored or not inverted, invalid values accepted, events missing a
 * property or reaching other users, muting by name ignored, default channels announced wrongly or
 * managed by moderators, topic lists out of order, and delete_topic leaving messages. Each
 * deliberately broken variant of our server is caught, and by the rule that targets it.
 */
import { ROLE } from '../lib/entities/user.js';
import type { Mutation } from './support/conformance.js';
import {
  asUser,
  badRequestAnswer,
  type Breakage,
  caller,
  changeForm,
  eachBreakageFailsItsRule,
  formOf,
  is,
  jsonParam,
  mapAnswers,
  mapEvents,
  on,
  passesUnbroken,
  SUCCESS,
  userOfRole,
} from './support/power-mutations.js';

const PROPERTIES = '/users/me/subscriptions/properties';
const MUTED_TOPICS = '/users/me/subscriptions/muted_topics';
const TOPICS = /^\/users\/me\/\d+\/topics$/;
const DELETE_TOPIC = /^\/streams\/\d+\/delete_topic$/;

type Item = { stream_id: number; property: string; value: unknown };

/** Rewrites the `subscription_data` items of property requests. */
const rewriteItems = (change: (items: Item[]) => Item[]): Mutation =>
  on('POST', PROPERTIES, (request, next) => next(changeForm(request, (form) => form.has('subscription_data') && form.set('subscription_data', JSON.stringify(change(jsonParam<Item[]>(form, 'subscription_data') ?? []))))));

/** Answers property requests with success, unchecked, when one of their items matches `bad`. */
const acceptItems = (bad: (item: Item) => boolean): Mutation =>
  on('POST', PROPERTIES, (request, next) => ((jsonParam<Item[]>(formOf(request), 'subscription_data') ?? []).some(bad) ? Promise.resolve(SUCCESS) : next(request)));

/** Sends requests of callers of role `from` as the first user of role `to`. */
const actAs = (method: string, path: RegExp, from: number, to: number): Mutation => (request, next, app) =>
  is(request, method, path) && caller(app, request)?.role === from ? next(asUser(request, userOfRole(app, to))) : next(request);

/** Refuses an `op=add` of the legacy muting endpoint naming a topic already added through this mutation (the pre-170 behaviour). */
function refuseRepeatedAdds(): Mutation {
  const added = new Set<string>();
  return on('PATCH', MUTED_TOPICS, (request, next) => {
    const form = formOf(request);
    const key = JSON.stringify([form.get('stream_id'), form.get('stream'), form.get('topic')]);
    if (form.get('op') !== 'add') return next(request);
    if (added.has(key)) return Promise.resolve(badRequestAnswer('Topic already muted'));
    added.add(key);
    return next(request);
  });
}

const BREAKAGES: readonly Breakage[] = [
  { what: 'pin_to_top is answered but not stored', rule: 'stream-preferences/properties-read-back', mutate: rewriteItems((items) => items.filter((item) => item.property !== 'pin_to_top')) },
  { what: 'in_home_view is stored as is_muted without inverting it', rule: 'stream-preferences/properties-read-back', mutate: rewriteItems((items) => items.map((item) => (item.property === 'in_home_view' ? { ...item, property: 'is_muted' } : item))) },
  { what: 'wildcard_mentions_notify is an unknown property', rule: 'stream-preferences/properties-read-back', mutate: acceptItems((item) => item.property === 'wildcard_mentions_notify') },
  { what: 'unknown properties are accepted', rule: 'stream-preferences/invalid-changes-refused', mutate: acceptItems((item) => item.property === 'bogus_property') },
  { what: 'colors are not validated', rule: 'stream-preferences/invalid-changes-refused', mutate: acceptItems((item) => item.property === 'color' && !/^#[0-9a-f]{6}$/i.test(String(item.value))) },
  { what: 'the text "true" is taken for a boolean', rule: 'stream-preferences/invalid-changes-refused', mutate: rewriteItems((items) => items.map((item) => (item.value === 'true' ? { ...item, value: true } : item))) },
  { what: 'the is_muted update event is not sent at level 415', rule: 'stream-preferences/update-events-to-the-user', mutate: mapEvents('subscription', (event) => void (event.property === 'is_muted' && (event.property = 'muted'))) },
  {
    what: "property updates also reach the channel's other subscribers",
    rule: 'stream-preferences/update-events-to-the-user',
    mutate: async (request, next, app) => {
      const response = await next(request);
      if (is(request, 'POST', /^\/users\/me\/subscriptions\/properties$/) && response.status === 200) {
        for (const item of jsonParam<Item[]>(formOf(request), 'subscription_data') ?? []) {
          const others = [...(app.world.subscriptions.get(item.stream_id)?.keys() ?? [])];
          app.world.events.send({ type: 'subscription', op: 'update', property: item.property, value: item.value, stream_id: item.stream_id }, others);
        }
      }
      return response;
    },
  },
  { what: 'muting by channel name is answered but not done', rule: 'muted-topics/mute-unmute-read-back', mutate: on('PATCH', MUTED_TOPICS, (request, next) => (formOf(request).has('stream') ? Promise.resolve(SUCCESS) : next(request))) },
  { what: 'a repeated add is refused at level 415', rule: 'muted-topics/mute-unmute-read-back', mutate: refuseRepeatedAdds() },
  { what: 'both stream_id and stream are accepted', rule: 'muted-topics/malformed-refused', mutate: on('PATCH', MUTED_TOPICS, (request, next) => next(changeForm(request, (form) => form.has('stream_id') && form.delete('stream')))) },
  { what: 'the default_streams event lists channel objects at level 415', rule: 'default-streams/add-remove-read-back-and-events', mutate: mapEvents('default_streams', (event) => void (event.default_streams = (event.default_streams as number[]).map((id) => ({ stream_id: id })))) },
  {
    what: 'a private channel is made default',
    rule: 'default-streams/add-remove-read-back-and-events',
    mutate: on('POST', '/default_streams', (request, next, app) => {
      const stream = app.world.streams.get(Number(formOf(request).get('stream_id')));
      if (!stream?.inviteOnly) return next(request);
      app.world.defaultStreamIds.add(stream.id);
      return Promise.resolve(SUCCESS);
    }),
  },
  { what: 'DELETE /default_streams is answered but not done', rule: 'default-streams/add-remove-read-back-and-events', mutate: on('DELETE', '/default_streams', () => Promise.resolve(SUCCESS)) },
  { what: 'moderators manage default channels', rule: 'default-streams/administrators-only', mutate: actAs('POST', /^\/default_streams$/, ROLE.MODERATOR, ROLE.ADMINISTRATOR) },
  { what: 'the topic list is oldest first', rule: 'topics/list-order-and-max-ids', mutate: mapAnswers('GET', TOPICS, (body) => void (body.topics as unknown[]).reverse()) },
  { what: "each topic's max_id is one less than its latest message", rule: 'topics/list-order-and-max-ids', mutate: mapAnswers('GET', TOPICS, (body) => (body.topics as Array<{ max_id: number }>).forEach((topic) => (topic.max_id -= 1))) },
  {
    what: 'case variants of a topic are listed apart',
    rule: 'topics/list-order-and-max-ids',
    mutate: mapAnswers('GET', TOPICS, (body) => {
      const topics = body.topics as Array<{ name: string; max_id: number }>;
      const upper = topics.find((topic) => /[A-Z]{4}/.test(topic.name));
      if (upper) topics.push({ name: upper.name.toLowerCase(), max_id: upper.max_id - 1 });
    }),
  },
  { what: 'protected history is ignored in the topic list', rule: 'topics/access-and-protected-history', mutate: actAs('GET', TOPICS, ROLE.MEMBER, ROLE.ADMINISTRATOR) },
  { what: 'delete_topic answers success and leaves the messages', rule: 'topics/delete-topic-administrators', mutate: on('POST', DELETE_TOPIC, () => Promise.resolve({ ...SUCCESS, body: '{"result":"success","msg":"","complete":true}\n' })) },
  { what: 'moderators delete topics', rule: 'topics/delete-topic-administrators', mutate: actAs('POST', DELETE_TOPIC, ROLE.MODERATOR, ROLE.ADMINISTRATOR) },
  { what: 'delete_topic never reports complete', rule: 'topics/delete-topic-administrators', mutate: mapAnswers('POST', DELETE_TOPIC, (body) => void (body.complete = false)) },
];

passesUnbroken('every rule on channel preferences, default channels and topics', [...new Set(BREAKAGES.map((breakage) => breakage.rule))], [415, 289, 207], 3, 9);
eachBreakageFailsItsRule(BREAKAGES, 3);
