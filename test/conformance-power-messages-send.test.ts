/**
 * The `POST /messages` rules prove their power: forms of `to` refused, a recipient dropped, a
 * wrong id or visibility policy in the answer, type values at the wrong level, read_by_sender
 * ignored, topic and content limits off by one, empty content and topics accepted where they must
 * not be, posting rights not enforced, wrong error codes, message events missing, duplicated or
 * leaking, and the local echo lost or spread: each broken variant fails the rule that targets it.
 */
import { ROLE } from '../lib/entities/user.js';
import type { Mutation } from './support/conformance.js';
import { apiPath, asIago, type Breakage, caller, changeForm, codePoints, eachBreakageFailsItsRule, errorsSucceed, formOf, is, mapAnswers, passesUnbroken, refuseWhen, replaceEvents, rewriteParam } from './support/power-mutations.js';

const MESSAGES = /^\/messages$/;

const RULES = [
  'messages/channel-every-type-and-to-form',
  'messages/direct-every-type-and-to-form',
  'messages/type-values-by-level',
  'messages/read-by-sender',
  'messages/topic-length-limit',
  'messages/content-length-limit',
  'messages/empty-content-refused',
  'messages/channel-message-needs-topic',
  'messages/empty-topic-by-level',
  'messages/channel-posting-by-role',
  'messages/channel-access-for-non-subscribers',
  'messages/unknown-channel-or-recipient-refused',
  'messages/direct-message-by-role',
  'messages/message-event-to-every-recipient-only',
  'messages/local-id-echoed-to-sending-queue',
  'messages/credentials-required',
];

const isChannelType = (form: URLSearchParams): boolean => ['stream', 'channel'].includes(form.get('type') ?? '');
const topicParam = (change: (topic: string) => string | undefined): Mutation => rewriteParam('POST', MESSAGES, 'topic', change);
const contentParam = (change: (content: string) => string | undefined): Mutation => rewriteParam('POST', MESSAGES, 'content', change);
const typeParam = (from: string, to: string): Mutation => rewriteParam('POST', MESSAGES, 'type', (type) => (type === from ? to : type));

/** Whether the request's Basic credentials are a user's email and that user's API key. */
function validCredentials(app: Parameters<Mutation>[2], request: Parameters<Mutation>[0]): boolean {
  const header = request.headers.get('authorization') ?? '';
  const key = Buffer.from(header.replace(/^basic /i, ''), 'base64').toString().split(':')[1];
  const user = caller(app, request);
  return user !== undefined && key === user.apiKey;
}

/** Sends the caller's `POST /messages` as iago when the caller has `role`. */
const postAsIagoFor = (role: number): Mutation => (request, next, app) =>
  next(is(request, 'POST', MESSAGES) && caller(app, request)?.role === role ? asIago(app, request) : request);

/** Rewrites the message events that `GET /events` answers carry. */
const messageEvents = (change: (event: Record<string, unknown>) => Record<string, unknown> | undefined): Mutation => replaceEvents('message', change);

/** The events of `GET /events` answers, in place. */
const eventLists = (change: (events: Array<Record<string, unknown>>, request: Parameters<Mutation>[0], app: Parameters<Mutation>[2]) => Array<Record<string, unknown>>): Mutation => async (request, next, app) => {
  const response = await next(request);
  if (!is(request, 'GET', /^\/events$/) || !response.body.startsWith('{')) return response;
  const body = JSON.parse(response.body) as { events?: Array<Record<string, unknown>> };
  if (Array.isArray(body.events)) body.events = change(body.events, request, app);
  return { ...response, body: `${JSON.stringify(body)}\n` };
};

/** After each message the member sends, every user also gets a message event for it. */
const leakToEveryone: Mutation = async (request, next, app) => {
  const response = await next(request);
  const sender = caller(app, request);
  if (!is(request, 'POST', MESSAGES) || response.status !== 200 || sender?.deliveryEmail !== 'AARON@zulip.com') return response;
  const id = (JSON.parse(response.body) as { id: number }).id;
  app.world.events.send({ type: 'message', message: { id, sender_id: sender.id, type: 'private', content: '' }, flags: [] }, [...app.world.users.keys()]);
  return response;
};

const BREAKAGES: readonly Breakage[] = [
  { what: 'channel names in to are refused', rule: 'messages/channel-every-type-and-to-form', mutate: refuseWhen('POST', MESSAGES, (form) => isChannelType(form) && !/^\[?\d+\]?$/.test(form.get('to') ?? '')) },
  { what: "the answer's id is off by one", rule: 'messages/channel-every-type-and-to-form', mutate: mapAnswers('POST', MESSAGES, (body) => void (typeof body.id === 'number' && (body.id += 1))) },
  { what: 'the answer reports automatic_new_visibility_policy 1', rule: 'messages/channel-every-type-and-to-form', mutate: mapAnswers('POST', MESSAGES, (body) => void (typeof body.id === 'number' && (body.automatic_new_visibility_policy = 1))) },
  { what: 'the answer reports a visibility policy before level 218', rule: 'messages/channel-every-type-and-to-form', level: 217, mutate: mapAnswers('POST', MESSAGES, (body) => void (typeof body.id === 'number' && (body.automatic_new_visibility_policy = 3))) },
  { what: "type 'channel' is refused", rule: 'messages/type-values-by-level', mutate: refuseWhen('POST', MESSAGES, (form) => form.get('type') === 'channel', 'Invalid type') },
  { what: "type 'direct' is accepted before level 174", rule: 'messages/type-values-by-level', level: 173, mutate: typeParam('direct', 'private') },
  { what: "type 'Stream' is accepted", rule: 'messages/type-values-by-level', mutate: typeParam('Stream', 'stream') },
  {
    what: 'a group direct message loses its last recipient',
    rule: 'messages/direct-every-type-and-to-form',
    mutate: rewriteParam('POST', MESSAGES, 'to', (to) => {
      const list = to.startsWith('[') ? (JSON.parse(to) as unknown[]) : to.split(',');
      if (list.length < 2) return to;
      return to.startsWith('[') ? JSON.stringify(list.slice(0, -1)) : list.slice(0, -1).join(',');
    }),
  },
  { what: 'recipients named by email are refused', rule: 'messages/direct-every-type-and-to-form', mutate: refuseWhen('POST', MESSAGES, (form) => !isChannelType(form) && (form.get('to') ?? '').includes('@'), "Invalid email ''") },
  { what: 'read_by_sender is ignored', rule: 'messages/read-by-sender', mutate: rewriteParam('POST', MESSAGES, 'read_by_sender', () => undefined) },
  {
    what: "an API client's own message starts read",
    rule: 'messages/read-by-sender',
    mutate: (request, next) => next(is(request, 'POST', MESSAGES) ? changeForm(request, (form) => form.has('read_by_sender') || form.set('read_by_sender', 'true')) : request),
  },
  { what: 'a topic one over the limit is cut without the ellipsis', rule: 'messages/topic-length-limit', mutate: topicParam((topic) => (codePoints(topic.trim()) > 60 ? [...topic.trim()].slice(0, 60).join('') : topic)) },
  { what: 'topics are counted in UTF-16 units', rule: 'messages/topic-length-limit', mutate: topicParam((topic) => (topic.trim().length > 60 ? `${topic.trim().slice(0, 57)}...` : topic)) },
  { what: 'topics are not stripped', rule: 'messages/topic-length-limit', mutate: topicParam((topic) => topic.replace(/^\s+|\s+$/g, (space) => '_'.repeat(space.length))) },
  { what: 'content of exactly the limit is truncated', rule: 'messages/content-length-limit', mutate: contentParam((content) => (codePoints(content) === 10000 ? `${[...content].slice(0, 9980).join('')}\n[message truncated]` : content)) },
  { what: 'content over the limit is refused', rule: 'messages/content-length-limit', mutate: refuseWhen('POST', MESSAGES, (form) => codePoints(form.get('content') ?? '') > 10000, 'Message too long') },
  { what: 'content of white space is accepted', rule: 'messages/empty-content-refused', mutate: contentParam((content) => (content.trim() === '' ? 'x' : content)) },
  { what: 'a NUL character in content is accepted', rule: 'messages/empty-content-refused', mutate: contentParam((content) => content.replace('\u0000', ' ')) },
  {
    what: 'a channel message without topic is accepted',
    rule: 'messages/channel-message-needs-topic',
    mutate: (request, next) => next(is(request, 'POST', MESSAGES) && isChannelType(formOf(request)) ? changeForm(request, (form) => form.has('topic') || form.set('topic', 'default')) : request),
  },
  { what: 'the empty topic is accepted before level 334', rule: 'messages/empty-topic-by-level', level: 300, mutate: topicParam((topic) => (topic.trim() === '' ? 'empty' : topic)) },
  { what: "'general chat' is an ordinary topic", rule: 'messages/empty-topic-by-level', mutate: topicParam((topic) => (topic === 'general chat' ? 'General chat' : topic)) },
  { what: "'(no topic)' is the empty topic before level 370", rule: 'messages/empty-topic-by-level', level: 369, mutate: topicParam((topic) => (topic === '(no topic)' ? '' : topic)) },
  { what: 'posting rights are not enforced', rule: 'messages/channel-posting-by-role', mutate: errorsSucceed('POST', MESSAGES) },
  { what: 'moderators post as administrators', rule: 'messages/channel-posting-by-role', mutate: postAsIagoFor(ROLE.MODERATOR) },
  { what: 'a guest posts to a public channel it is not subscribed to', rule: 'messages/channel-access-for-non-subscribers', mutate: postAsIagoFor(ROLE.GUEST) },
  { what: 'an owner posts to a private channel it is not subscribed to', rule: 'messages/channel-access-for-non-subscribers', mutate: postAsIagoFor(ROLE.OWNER) },
  { what: 'an unknown channel is a BAD_REQUEST', rule: 'messages/unknown-channel-or-recipient-refused', mutate: mapAnswers('POST', MESSAGES, (body) => void (body.code === 'STREAM_DOES_NOT_EXIST' && (body.code = 'BAD_REQUEST'))) },
  { what: 'the unknown channel error does not name it', rule: 'messages/unknown-channel-or-recipient-refused', mutate: mapAnswers('POST', MESSAGES, (body) => void delete body.stream) },
  {
    what: 'a list mixing IDs and emails keeps the IDs',
    rule: 'messages/unknown-channel-or-recipient-refused',
    mutate: rewriteParam('POST', MESSAGES, 'to', (to) => (to.startsWith('[') && to.includes('@') && /\d,/.test(to) ? JSON.stringify((JSON.parse(to) as unknown[]).filter((x) => typeof x === 'number')) : to)),
  },
  { what: 'a guest may not send direct messages', rule: 'messages/direct-message-by-role', mutate: refuseWhen('POST', MESSAGES, (form, request, app) => form.get('type') === 'private' && caller(app, request)?.role === ROLE.GUEST, 'Direct messages are disabled') },
  {
    what: 'a recipient misses the message events of others',
    rule: 'messages/message-event-to-every-recipient-only',
    mutate: eventLists((events, request, app) => {
      const me = caller(app, request);
      return me?.deliveryEmail !== 'cordelia@zulip.com' ? events : events.filter((event) => event.type !== 'message' || (event.message as { sender_id?: number }).sender_id === me.id);
    }),
  },
  { what: 'message events come twice', rule: 'messages/message-event-to-every-recipient-only', mutate: eventLists((events) => events.flatMap((event) => (event.type === 'message' ? [event, { ...event }] : [event]))) },
  { what: 'message events reach users who do not receive the message', rule: 'messages/message-event-to-every-recipient-only', mutate: leakToEveryone },
  { what: "the sender's event lacks the read flag", rule: 'messages/message-event-to-every-recipient-only', mutate: messageEvents((event) => ({ ...event, flags: [] })) },
  { what: 'local_message_id is lost', rule: 'messages/local-id-echoed-to-sending-queue', mutate: messageEvents(({ local_message_id: _local, ...event }) => event) },
  { what: "local_message_id reaches every queue", rule: 'messages/local-id-echoed-to-sending-queue', mutate: messageEvents((event) => ({ local_message_id: '1024.01', ...event })) },
  {
    what: 'the message endpoints answer requests without valid credentials',
    rule: 'messages/credentials-required',
    mutate: (request, next, app) => next(/^\/messages/.test(apiPath(request)) && !validCredentials(app, request) ? asIago(app, request) : request),
  },
];

passesUnbroken('every POST /messages rule', RULES, [415, 289, 207], 3, 12);

eachBreakageFailsItsRule(BREAKAGES, 3);
