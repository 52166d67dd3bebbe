/**
 * The exact checks of reminders, push registration, reports and attachments prove their power:
 * against deliberately broken variants of our server the named rule fails; against the unbroken
 * server every one of them passes at several feature levels.
 */
import { ROLE } from '../lib/entities/user.js';
import { type Mutation } from './support/conformance.js';
import { badRequestAnswer, type Breakage, caller, codePoints, eachBreakageFailsItsRule, errorsSucceed, idIn, is, mapAnswers, passesUnbroken, refuseWhen, rewriteParam } from './support/power-mutations.js';

const SHARP_RULES = [
  'reminders/note-length-limit',
  'reminders/listed-as-created-then-deleted-once',
  'push/each-token-kind-passes-validation',
  'report-message/each-type-and-exact-description-limit',
  'report-message/any-role-own-message-and-again',
  'attachments/delete-twice-bad-request',
  'attachments/messages-lists-linking-messages',
];

const REMINDERS = /^\/reminders$/;
const REPORT = /^\/messages\/\d+\/report$/;
const ATTACHMENT = /^\/attachments\/\d+$/;

/** The note as the real server measures it: trailing whitespace and leading newlines removed. */
const strippedNote = (form: URLSearchParams): string => (form.get('note') ?? '').trimEnd().replace(/^\n+/, '');

/** The second report of a message by the same user is refused (the server remembers who reported what). */
function secondReportRefused(): Mutation {
  const reported = new Set<string>();
  return async (request, next, app) => {
    if (!is(request, 'POST', REPORT)) return next(request);
    const key = `${caller(app, request)?.id}:${idIn(request)}`;
    if (reported.has(key)) return badRequestAnswer('You have already reported this message.');
    const response = await next(request);
    if (response.status === 200) reported.add(key);
    return response;
  };
}

const BREAKAGES: readonly Breakage[] = [
  {
    what: 'the note limit counts UTF-16 units',
    rule: 'reminders/note-length-limit',
    mutate: refuseWhen('POST', REMINDERS, (form) => strippedNote(form).length > 1000, 'Maximum reminder note length: 1000 characters'),
  },
  {
    what: 'the note limit applies before stripping',
    rule: 'reminders/note-length-limit',
    mutate: refuseWhen('POST', REMINDERS, (form) => codePoints(form.get('note') ?? '') > 1000, 'Maximum reminder note length: 1000 characters'),
  },
  {
    what: 'notes over the limit are cut instead of refused',
    rule: 'reminders/note-length-limit',
    mutate: rewriteParam('POST', REMINDERS, 'note', (note) => [...note.trimEnd().replace(/^\n+/, '')].slice(0, 1000).join('')),
  },
  {
    what: 'delivery times are listed rounded down to the minute',
    rule: 'reminders/listed-as-created-then-deleted-once',
    mutate: mapAnswers('GET', REMINDERS, (body) => {
      for (const reminder of body.reminders as Array<{ scheduled_delivery_timestamp: number }>) reminder.scheduled_delivery_timestamp -= reminder.scheduled_delivery_timestamp % 60;
    }),
  },
  {
    what: 'reminders are listed as sent to nobody',
    rule: 'reminders/listed-as-created-then-deleted-once',
    mutate: mapAnswers('GET', REMINDERS, (body) => {
      for (const reminder of body.reminders as Array<{ to: number[] }>) reminder.to = [];
    }),
  },
  {
    what: 'deleting a deleted reminder answers success',
    rule: 'reminders/listed-as-created-then-deleted-once',
    mutate: errorsSucceed('DELETE', /^\/reminders\/\d+$/),
  },
  {
    what: "token_kind 'apns' is refused",
    rule: 'push/each-token-kind-passes-validation',
    mutate: refuseWhen('POST', /^\/mobile_push\/register$/, (form) => form.get('token_kind') === 'apns', 'Invalid token_kind: Value error, Not in the list of possible values'),
  },
  {
    what: "report_type 'norms' is refused",
    rule: 'report-message/each-type-and-exact-description-limit',
    mutate: refuseWhen('POST', REPORT, (form) => form.get('report_type') === 'norms', 'Invalid report_type: Value error, Not in the list of possible values'),
  },
  {
    what: 'the description limit is 1001 characters',
    rule: 'report-message/each-type-and-exact-description-limit',
    mutate: rewriteParam('POST', REPORT, 'description', (text) => (codePoints(text) === 1001 ? [...text].slice(0, 1000).join('') : text)),
  },
  {
    what: 'descriptions are stripped before they are checked',
    rule: 'report-message/each-type-and-exact-description-limit',
    mutate: rewriteParam('POST', REPORT, 'description', (text) => text.trim()),
  },
  {
    what: 'a user cannot report its own message',
    rule: 'report-message/any-role-own-message-and-again',
    mutate: refuseWhen('POST', REPORT, (_form, request, app) => app.world.messages.get(idIn(request))?.senderId === caller(app, request)?.id, "You can't report this message."),
  },
  {
    what: 'a second report of the same message is refused',
    rule: 'report-message/any-role-own-message-and-again',
    mutate: secondReportRefused(),
  },
  {
    what: 'guests cannot report messages',
    rule: 'report-message/any-role-own-message-and-again',
    mutate: refuseWhen('POST', REPORT, (_form, request, app) => caller(app, request)?.role === ROLE.GUEST, "You can't report this message."),
  },
  {
    what: 'deleting a deleted attachment answers success',
    rule: 'attachments/delete-twice-bad-request',
    mutate: errorsSucceed('DELETE', ATTACHMENT),
  },
  {
    what: 'the listing never names the messages that link a file',
    rule: 'attachments/messages-lists-linking-messages',
    mutate: mapAnswers('GET', /^\/attachments$/, (body) => {
      for (const attachment of body.attachments as Array<{ messages: unknown[] }>) attachment.messages = [];
    }),
  },
  {
    what: 'the listing names each linking message twice',
    rule: 'attachments/messages-lists-linking-messages',
    mutate: mapAnswers('GET', /^\/attachments$/, (body) => {
      for (const attachment of body.attachments as Array<{ messages: unknown[] }>) attachment.messages = [...attachment.messages, ...attachment.messages];
    }),
  },
];

passesUnbroken('every exact content rule', SHARP_RULES, [415, 400, 100], 3);

eachBreakageFailsItsRule(BREAKAGES, 3);
