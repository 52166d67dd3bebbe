/**
 * The rules of `POST /messages/flags/narrow`, `mark_stream_as_read` and `mark_all_as_read` prove
 * their power: against deliberately broken variants of our server (counts off by one, the anchor
 * or its exclusion ignored, the wrong side of the window, `found_*` wrong, events missing or
 * doubled, other channels or other users marked read, fields of the level missing) the named
 * rule fails; against the unbroken server every one of them passes.
 */
import type { Mutation } from './support/conformance.js';
import { defaultWhenMissing, errorSucceeds, eventsPerCaller, FLAGS_NARROW, MARK_ALL, MARK_STREAM, noEventWhenUnchanged } from './support/power-flags.js';
import { type Breakage, caller, eachBreakageFailsItsRule, formOf, is, mapAnswers, passesUnbroken, replaceEvents, rewriteParam, withForm } from './support/power-mutations.js';

const RULES = [
  'message-flags-narrow/window-counts-and-flags-follow-model',
  'message-flags-narrow/bad-parameters-refused',
  'message-flags-narrow/unsubscribed-public-channel',
  'message-flags-narrow/no-credentials-unauthorized',
  'mark-stream-as-read/one-channel-for-the-caller',
  'mark-stream-as-read/unknown-or-inaccessible-channel-refused',
  'mark-topic-as-read/one-event-for-the-topic-none-when-nothing-left',
  'mark-all-as-read/reads-every-message-of-the-caller',
];

const MARK_TOPIC = /^\/mark_topic_as_read$/;
const TOPIC_SCOPE = 'mark-topic-as-read/one-event-for-the-topic-none-when-nothing-left';

const MODEL = 'message-flags-narrow/window-counts-and-flags-follow-model';

/** A numeric field of the narrow answer changed by `delta`. */
const shifted = (field: string, delta: number): Mutation => mapAnswers('POST', FLAGS_NARROW, (body) => typeof body[field] === 'number' && (body[field] = (body[field] as number) + delta));

/** Adds `read` for every row that `pick(messageChannelId, userId)` selects after each successful matching request. */
const alsoRead = (path: RegExp, pick: (streamId: number | undefined, userId: number, callerId: number, form: URLSearchParams) => boolean): Mutation => async (request, next, app) => {
  const response = await next(request);
  const callerId = caller(app, request)?.id ?? 0;
  if (!is(request, 'POST', path) || response.status !== 200) return response;
  for (const message of app.world.messages.values()) {
    const streamId = message.recipient.kind === 'stream' ? message.recipient.streamId : undefined;
    for (const [userId, flags] of message.flags) if (pick(streamId, userId, callerId, formOf(request))) flags.add('read');
  }
  return response;
};

/** `updated_count` leaves out the rows the request created (the messages the caller never received). */
const historicalNotCounted: Mutation = async (request, next, app) => {
  const user = caller(app, request);
  if (!is(request, 'POST', FLAGS_NARROW) || !user) return next(request);
  const without = new Set([...app.world.messages.values()].filter((m) => !m.flags.has(user.id)).map((m) => m.id));
  const response = await next(request);
  const created = [...without].filter((id) => app.world.messages.get(id)?.flags.has(user.id)).length;
  return mapAnswers('POST', FLAGS_NARROW, (body) => typeof body.updated_count === 'number' && (body.updated_count -= created))(request, async () => response, app);
};

/** `include_anchor=false` with both sides is read as true. */
const exclusionIgnored: Mutation = (request, next) => {
  const form = formOf(request);
  if (!is(request, 'POST', FLAGS_NARROW) || Number(form.get('num_before')) === 0 || Number(form.get('num_after')) === 0) return next(request);
  form.set('include_anchor', 'true');
  return next(withForm(request, form));
};

/** Each run of the model rule is one random request: these get the rule's full twelve runs. */
const MODEL_BREAKAGES: readonly Breakage[] = [
  { what: 'updated_count is one too many', rule: MODEL, mutate: shifted('updated_count', 1) },
  { what: 'processed_count is one too many', rule: MODEL, mutate: shifted('processed_count', 1) },
  { what: 'include_anchor is ignored', rule: MODEL, mutate: rewriteParam('POST', FLAGS_NARROW, 'include_anchor', () => undefined) },
  { what: 'found_newest is always false', rule: MODEL, mutate: mapAnswers('POST', FLAGS_NARROW, (body) => (body.found_newest = false)) },
  { what: 'found_oldest is always true', rule: MODEL, mutate: mapAnswers('POST', FLAGS_NARROW, (body) => (body.found_oldest = true)) },
  { what: 'first_unread anchors at newest', rule: MODEL, mutate: rewriteParam('POST', FLAGS_NARROW, 'anchor', (anchor) => (anchor === 'first_unread' ? 'newest' : anchor)) },
  { what: 'one message too many is processed before the anchor', rule: MODEL, mutate: rewriteParam('POST', FLAGS_NARROW, 'num_before', (n) => (Number(n) > 0 ? String(Number(n) + 1) : n)) },
  { what: 'the window ends one message early after the anchor', rule: MODEL, mutate: rewriteParam('POST', FLAGS_NARROW, 'num_after', (n) => (Number(n) > 0 ? String(Number(n) - 1) : n)) },
  {
    what: 'no event is sent when nothing changed',
    rule: MODEL,
    mutate: noEventWhenUnchanged,
  },
];

const BREAKAGES: readonly Breakage[] = [
  { what: 'an anchor excluded between both sides is accepted', rule: 'message-flags-narrow/bad-parameters-refused', mutate: exclusionIgnored },
  {
    what: 'a missing narrow means every message',
    rule: 'message-flags-narrow/bad-parameters-refused',
    mutate: defaultWhenMissing('POST', FLAGS_NARROW, 'narrow', '[]'),
  },
  {
    what: 'skipped unsubscribed channels are not listed',
    rule: 'message-flags-narrow/unsubscribed-public-channel',
    mutate: mapAnswers('POST', FLAGS_NARROW, (body) => delete body.ignored_because_not_subscribed_channels),
  },
  { what: 'updated_count leaves out the historical rows created', rule: 'message-flags-narrow/unsubscribed-public-channel', mutate: historicalNotCounted },
  {
    what: "mark_stream_as_read reads the caller's messages in every channel",
    rule: 'mark-stream-as-read/one-channel-for-the-caller',
    mutate: alsoRead(MARK_STREAM, (streamId, userId, callerId) => streamId !== undefined && userId === callerId),
  },
  {
    what: 'mark_stream_as_read reads the channel for every subscriber',
    rule: 'mark-stream-as-read/one-channel-for-the-caller',
    mutate: alsoRead(MARK_STREAM, (streamId, _userId, _callerId, form) => streamId === Number(form.get('stream_id'))),
  },
  {
    what: 'the read event of mark_stream_as_read is delivered twice',
    rule: 'mark-stream-as-read/one-channel-for-the-caller',
    mutate: eventsPerCaller('update_message_flags', (event) => (event.flag === 'read' && event.all === false ? [event, { ...event }] : [event])),
  },
  {
    what: 'an unknown or private channel is marked read without complaint',
    rule: 'mark-stream-as-read/unknown-or-inaccessible-channel-refused',
    mutate: errorSucceeds('POST', MARK_STREAM, (body) => body.code === 'BAD_REQUEST'),
  },
  {
    what: 'mark_topic_as_read reads the whole channel',
    rule: TOPIC_SCOPE,
    mutate: (request, next) => {
      if (!is(request, 'POST', MARK_TOPIC)) return next(request);
      const form = formOf(request);
      form.delete('topic_name');
      return next(withForm({ ...request, path: request.path.replace('/mark_topic_as_read', '/mark_stream_as_read') }, form));
    },
  },
  {
    what: 'mark_topic_as_read also sends an empty read event',
    rule: TOPIC_SCOPE,
    mutate: async (request, next, app) => {
      const response = await next(request);
      const user = caller(app, request);
      if (is(request, 'POST', MARK_TOPIC) && user && response.status === 200) app.world.events.send({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [], all: false }, [user.id]);
      return response;
    },
  },
  { what: 'mark_all_as_read answers without complete at level 415', rule: 'mark-all-as-read/reads-every-message-of-the-caller', mutate: mapAnswers('POST', MARK_ALL, (body) => delete body.complete) },
  {
    what: 'the mark_all_as_read event says all: false',
    rule: 'mark-all-as-read/reads-every-message-of-the-caller',
    mutate: replaceEvents('update_message_flags', (event) => (event.all === true ? { ...event, all: false } : event)),
  },
  {
    what: "mark_all_as_read reads every user's messages",
    rule: 'mark-all-as-read/reads-every-message-of-the-caller',
    mutate: alsoRead(MARK_ALL, () => true),
  },
];

passesUnbroken('every narrow and mark-as-read flag rule', RULES, [415, 289, 207], 3, RULES.length);

eachBreakageFailsItsRule(MODEL_BREAKAGES, 12);

eachBreakageFailsItsRule(BREAKAGES, 3);
