/**
 * The `POST /messages/flags` rules prove their power: against deliberately broken variants of our
 * server (flags the server alone sets accepted, operations misread, flags not read back or
 * changed for everybody, malformed lists accepted, events missing, leaking, listing the wrong
 * messages or lacking their details, historical rows hidden, requests half applied) the named
 * rule fails; against the unbroken server every one of them passes at levels on both sides of
 * the dated behaviours.
 */
import { canReadMessage } from '../lib/queries/messages/messages.js';
import type { Mutation } from './support/conformance.js';
import { alsoToEveryone, defaultWhenMissing, errorSucceeds, eventsPerCaller, FLAGS, MESSAGE, MESSAGES, noEventWhenUnchanged, REGISTER, requestedIds } from './support/power-flags.js';
import { type Breakage, caller, eachBreakageFailsItsRule, formOf, is, mapAnswers, passesUnbroken, replaceEvents, rewriteParam, withForm } from './support/power-mutations.js';

const RULES = [
  'message-flags/editable-flags-added-removed-read-back',
  'message-flags/server-flags-and-unknown-refused',
  'message-flags/missing-or-malformed-parameters-refused',
  'message-flags/one-event-per-request-to-the-caller',
  'message-flags/historical-row-unsubscribed-skipped-unreadable-refused',
  'message-flags/no-credentials-unauthorized',
];

/** The flags of `GET /messages/{id}` answers without `flag`. */
const flagHidden = (flag: string): Mutation =>
  mapAnswers('GET', MESSAGE, (body) => {
    const message = body.message as { flags?: string[] } | undefined;
    if (message?.flags) message.flags = message.flags.filter((name) => name !== flag);
  });

/** Every user's flags change with the caller's. */
const everybodysFlags: Mutation = async (request, next, app) => {
  const response = await next(request);
  if (!is(request, 'POST', FLAGS) || response.status !== 200) return response;
  const form = formOf(request);
  const [flag, adding] = [form.get('flag') ?? '', form.get('op') === 'add'];
  for (const id of requestedIds(request)) {
    for (const flags of app.world.messages.get(id)?.flags.values() ?? []) {
      if (adding) flags.add(flag);
      else flags.delete(flag);
    }
  }
  return response;
};

/** Flag events list the requested messages (as before level 155), in request order per caller. */
function eventsListRequested(): Mutation {
  const pending = new Map<number, number[][]>();
  const rewrite = eventsPerCaller('update_message_flags', (event, callerId) => [{ ...event, messages: pending.get(callerId)?.shift() ?? event.messages }]);
  return (request, next, app) => {
    const user = caller(app, request);
    if (is(request, 'POST', FLAGS) && user) pending.set(user.id, [...(pending.get(user.id) ?? []), requestedIds(request)]);
    return rewrite(request, next, app);
  };
}

/** The messages the caller cannot read are dropped from the request (the rest is applied). */
const readableOnly: Mutation = (request, next, app) => {
  const user = caller(app, request);
  if (!is(request, 'POST', FLAGS) || !user) return next(request);
  const form = formOf(request);
  const readable = requestedIds(request).filter((id) => {
    const message = app.world.messages.get(id);
    return message !== undefined && canReadMessage(app.world, user, message);
  });
  form.set('messages', JSON.stringify(readable));
  return next(withForm(request, form));
};

/** `messages` that is one ID (a number or a string of digits) is read as a list of it. */
const bareIdAccepted = rewriteParam('POST', FLAGS, 'messages', (value) => {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'number' || (typeof parsed === 'string' && /^\d+$/.test(parsed)) ? `[${Number(parsed)}]` : value;
  } catch {
    return value;
  }
});

const BREAKAGES: readonly Breakage[] = [
  {
    what: 'flags only the server sets may be changed',
    rule: 'message-flags/server-flags-and-unknown-refused',
    mutate: errorSucceeds('POST', FLAGS, (body) => String(body.msg).startsWith('Flag not editable')),
  },
  {
    what: 'an unknown operation is read as add',
    rule: 'message-flags/server-flags-and-unknown-refused',
    mutate: rewriteParam('POST', FLAGS, 'op', (op) => (op === 'remove' ? op : 'add')),
  },
  {
    what: 'flag names are matched without case',
    rule: 'message-flags/server-flags-and-unknown-refused',
    mutate: rewriteParam('POST', FLAGS, 'flag', (flag) => flag.toLowerCase()),
  },
  {
    what: 'starred is not shown in the flags of fetched messages',
    rule: 'message-flags/editable-flags-added-removed-read-back',
    mutate: mapAnswers('GET', MESSAGES, (body) => {
      for (const message of (body.messages ?? []) as Array<{ flags: string[] }>) message.flags = message.flags.filter((flag) => flag !== 'starred');
    }),
  },
  {
    what: 'the is:starred narrow finds nothing',
    rule: 'message-flags/editable-flags-added-removed-read-back',
    mutate: (request, next, app) =>
      request.query.some(([name, value]) => name === 'narrow' && value.includes('starred')) ? mapAnswers('GET', MESSAGES, (body) => (body.messages = []))(request, next, app) : next(request),
  },
  {
    what: 'starred_messages in register is always empty',
    rule: 'message-flags/editable-flags-added-removed-read-back',
    mutate: mapAnswers('POST', REGISTER, (body) => Array.isArray(body.starred_messages) && (body.starred_messages = [])),
  },
  {
    what: 'the answer lists no messages',
    rule: 'message-flags/editable-flags-added-removed-read-back',
    mutate: mapAnswers('POST', FLAGS, (body) => (body.messages = [])),
  },
  {
    what: "a flag change applies to every user's flags",
    rule: 'message-flags/editable-flags-added-removed-read-back',
    mutate: everybodysFlags,
  },
  {
    what: 'a single ID is accepted as the messages list',
    rule: 'message-flags/missing-or-malformed-parameters-refused',
    mutate: bareIdAccepted,
  },
  {
    what: 'a missing op defaults to add',
    rule: 'message-flags/missing-or-malformed-parameters-refused',
    mutate: defaultWhenMissing('POST', FLAGS, 'op', 'add'),
  },
  {
    what: 'no event is sent when nothing changed',
    rule: 'message-flags/one-event-per-request-to-the-caller',
    mutate: noEventWhenUnchanged,
  },
  {
    what: 'flag events list the requested messages at level 415',
    rule: 'message-flags/one-event-per-request-to-the-caller',
    mutate: eventsListRequested(),
  },
  {
    what: 'message_details leave out mentioned',
    rule: 'message-flags/one-event-per-request-to-the-caller',
    mutate: replaceEvents('update_message_flags', (event) => {
      for (const details of Object.values((event.message_details ?? {}) as Record<string, Record<string, unknown>>)) delete details.mentioned;
      return event;
    }),
  },
  {
    what: 'events that mark messages unread carry no message_details',
    rule: 'message-flags/one-event-per-request-to-the-caller',
    mutate: replaceEvents('update_message_flags', ({ message_details: _details, ...event }) => event),
  },
  {
    what: 'flag events lack op at level 100',
    rule: 'message-flags/one-event-per-request-to-the-caller',
    level: 100,
    mutate: replaceEvents('update_message_flags', ({ op: _op, ...event }) => event),
  },
  {
    what: 'flag events go to every user of the realm',
    rule: 'message-flags/one-event-per-request-to-the-caller',
    mutate: alsoToEveryone('POST', FLAGS, (request) => {
      const form = formOf(request);
      return { type: 'update_message_flags', op: form.get('op'), operation: form.get('op'), flag: form.get('flag'), messages: requestedIds(request), all: false };
    }),
  },
  {
    what: 'the historical flag is not shown',
    rule: 'message-flags/historical-row-unsubscribed-skipped-unreadable-refused',
    mutate: flagHidden('historical'),
  },
  {
    what: 'skipped unsubscribed channels are not listed',
    rule: 'message-flags/historical-row-unsubscribed-skipped-unreadable-refused',
    mutate: mapAnswers('POST', FLAGS, (body) => Array.isArray(body.ignored_because_not_subscribed_channels) && (body.ignored_because_not_subscribed_channels = [])),
  },
  {
    what: 'a request naming an unreadable message changes the readable ones',
    rule: 'message-flags/historical-row-unsubscribed-skipped-unreadable-refused',
    mutate: readableOnly,
  },
];

passesUnbroken('every message-flags rule', RULES, [415, 289, 207, 150, 100], 3, 2);

eachBreakageFailsItsRule(BREAKAGES, 3);
