/**
 * The edit and move rules prove their power: against deliberately broken variants of our server
 * (propagate modes off by one, notices missing or unasked, rights not enforced or wrongly
 * enforced for a role, time limits ignored, limits off by one) the named rule fails; against the
 * unbroken server every edit, move and deletion rule passes at levels on both sides of the
 * dated behaviours.
 */
import { ROLE } from '../lib/entities/user.js';
import type { Mutation } from './support/conformance.js';
import { asAdministratorWhen, asSenderWhen, isMember, MESSAGE, messageOf, olderThanAWeek, realmLimitsLifted, realmSettingOpened, refuseRole } from './support/power-edit-mutations.js';
import { type Breakage, changeForm, codePoints, eachBreakageFailsItsRule, formOf, is, mapAnswers, passesUnbroken, refuseWhen, rewriteParam } from './support/power-mutations.js';

const SLICE = ['message-edit*', 'message-move*', 'message-delete*'];

/** Rewrites `propagate_mode` of edits whose form `when` selects. */
const propagate = (change: (mode: string) => string, when: (form: URLSearchParams) => boolean = () => true): Mutation => (request, next, app) =>
  is(request, 'PATCH', MESSAGE) && when(formOf(request))
    ? rewriteParam('PATCH', MESSAGE, 'propagate_mode', change)(request, next, app)
    : next(request);

/** A change_later move starts one message early (the path names the previous message). */
const changeLaterOneEarly: Mutation = (request, next) => {
  if (!is(request, 'PATCH', MESSAGE) || formOf(request).get('propagate_mode') !== 'change_later') return next(request);
  return next({ ...request, path: request.path.replace(/\/(\d+)$/, (_m, id: string) => `/${Number(id) - 1}`) });
};

/** Content edits with the content rewritten. */
const content = (change: (value: string) => string | undefined): Mutation => rewriteParam('PATCH', MESSAGE, 'content', change);

const BREAKAGES: readonly Breakage[] = [
  { what: 'propagate_mode is ignored (every move is change_one)', rule: 'message-move/propagate-mode-within-channel', mutate: propagate(() => 'change_one') },
  { what: 'change_later starts one message early', rule: 'message-move/propagate-mode-within-channel', mutate: changeLaterOneEarly },
  { what: 'change_later moves the whole topic', rule: 'message-move/propagate-mode-within-channel', mutate: propagate((mode) => (mode === 'change_later' ? 'change_all' : mode)) },
  { what: 'moves to another channel ignore propagate_mode', rule: 'message-move/propagate-mode-between-channels', mutate: propagate(() => 'change_one', (form) => form.has('stream_id')) },
  { what: 'send_notification_to_old_thread is ignored', rule: 'message-move/notices-follow-notification-flags', mutate: rewriteParam('PATCH', MESSAGE, 'send_notification_to_old_thread', () => 'false') },
  { what: 'send_notification_to_new_thread=false is ignored', rule: 'message-move/notices-follow-notification-flags', mutate: rewriteParam('PATCH', MESSAGE, 'send_notification_to_new_thread', () => 'true') },
  {
    what: 'send_notification_to_old_thread defaults to true (as before level 152)',
    rule: 'message-move/notices-follow-notification-flags',
    mutate: (request, next) => next(is(request, 'PATCH', MESSAGE) ? changeForm(request, (form) => form.has('send_notification_to_old_thread') || form.set('send_notification_to_old_thread', 'true')) : request),
  },
  {
    what: 'the resolve notice is never posted (hidden from every fetch)',
    rule: 'message-move/resolve-and-unresolve-topic',
    mutate: mapAnswers('GET', /^\/messages$/, (body) => {
      if (Array.isArray(body.messages)) body.messages = (body.messages as Array<{ content?: string }>).filter((m) => !String(m.content).includes('has marked this topic as'));
    }),
  },
  {
    what: 'unresolving moves only the target message',
    rule: 'message-move/resolve-and-unresolve-topic',
    mutate: (request, next, app) => {
      const recipient = messageOf(app, request)?.recipient;
      return recipient?.kind === 'stream' && recipient.topic.startsWith('✔') ? propagate(() => 'change_one')(request, next, app) : next(request);
    },
  },
  { what: 'guests may not rename topics', rule: 'message-move/topic-move-per-role', mutate: refuseRole('PATCH', MESSAGE, ROLE.GUEST, (form) => form.has('topic')) },
  { what: 'moderators may not rename topics', rule: 'message-move/topic-move-per-role', mutate: refuseRole('PATCH', MESSAGE, ROLE.MODERATOR, (form) => form.has('topic')) },
  { what: 'guests may move messages between channels', rule: 'message-move/channel-move-per-role', mutate: asAdministratorWhen('PATCH', MESSAGE, (role, _m, form) => role === ROLE.GUEST && form.has('stream_id')) },
  { what: 'moderators may not move messages between channels', rule: 'message-move/channel-move-per-role', mutate: refuseRole('PATCH', MESSAGE, ROLE.MODERATOR, (form) => form.has('stream_id')) },
  { what: 'guests may not resolve topics', rule: 'message-move/resolve-per-role', mutate: refuseRole('PATCH', MESSAGE, ROLE.GUEST, (form) => (form.get('topic') ?? '').startsWith('✔')) },
  {
    what: 'administrators may resolve topics whatever can_resolve_topics_group says',
    rule: 'message-move/rights-with-realm-settings-narrowed-to-nobody',
    mutate: realmSettingOpened('can_resolve_topics_group', (role, form) => role === ROLE.ADMINISTRATOR && (form.get('topic') ?? '').startsWith('✔')),
  },
  { what: 'administrators may not move messages out of a channel once the realm setting says nobody', rule: 'message-move/rights-with-realm-settings-narrowed-to-nobody', mutate: refuseRole('PATCH', MESSAGE, ROLE.ADMINISTRATOR, (form) => form.has('stream_id')) },
  { what: 'members may move topics whatever the realm setting says', rule: 'message-move/rights-with-realm-settings-narrowed-to-nobody', mutate: realmSettingOpened('can_move_messages_between_topics_group', (role, form) => isMember(role) && form.has('topic')) },
  {
    what: 'the topic move time limit is not enforced for members',
    rule: 'message-move/topic-move-time-limit-for-members',
    mutate: (request, next, app) => asAdministratorWhen('PATCH', MESSAGE, (role, message, form) => isMember(role) && form.has('topic') && olderThanAWeek(app, message))(request, next, app),
  },
  { what: 'the content edit time limit is not enforced', rule: 'message-edit/content-edit-time-limit', mutate: realmLimitsLifted((_message, form) => form.has('content')) },
  { what: 'allow_message_editing false does not stop content edits', rule: 'message-edit/editing-disabled-refuses-content', mutate: realmLimitsLifted((_message, form) => form.has('content')) },
  { what: "administrators may edit others' content", rule: 'message-edit/only-sender-edits-content', mutate: asSenderWhen('PATCH', MESSAGE, (role) => role === ROLE.ADMINISTRATOR) },
  { what: "guests may edit others' content", rule: 'message-edit/only-sender-edits-content', mutate: asSenderWhen('PATCH', MESSAGE, (role) => role === ROLE.GUEST) },
  { what: 'blank content is refused instead of becoming (deleted)', rule: 'message-edit/content-stored-as-normalised', mutate: refuseWhen('PATCH', MESSAGE, (form) => form.has('content') && form.get('content')!.trim() === '', 'Message must not be empty') },
  { what: 'content of exactly max_message_length loses its last character', rule: 'message-edit/content-stored-as-normalised', mutate: content((value) => (codePoints(value) === 10_000 ? [...value].slice(0, -1).join('') : value)) },
  { what: 'content length is counted in UTF-16 units', rule: 'message-edit/content-stored-as-normalised', mutate: content((value) => (value.length > 10_000 ? `${value.slice(0, 9_980)}\n[message truncated]` : value)) },
  { what: 'null bytes in content are stripped instead of refused', rule: 'message-edit/content-stored-as-normalised', mutate: content((value) => value.replace(/\0/g, '')) },
  { what: 'topics of exactly max_topic_length are cut', rule: 'message-move/topic-stored-as-normalised', mutate: rewriteParam('PATCH', MESSAGE, 'topic', (topic) => (codePoints(topic) === 60 ? `${[...topic].slice(0, 57).join('')}...` : topic)) },
  { what: 'topics over max_topic_length are refused instead of cut', rule: 'message-move/topic-stored-as-normalised', mutate: refuseWhen('PATCH', MESSAGE, (form) => codePoints(form.get('topic') ?? '') > 60, 'Topic too long') },
  { what: 'the empty topic is refused at level 415', rule: 'message-move/topic-stored-as-normalised', mutate: refuseWhen('PATCH', MESSAGE, (form) => form.get('topic') === '', "Topic can't be empty!") },
  {
    what: 'a content edit with propagate_mode change_all is accepted',
    rule: 'message-edit/malformed-requests-bad-request',
    mutate: (request, next) => next(is(request, 'PATCH', MESSAGE) ? changeForm(request, (form) => form.has('content') && !form.has('topic') && form.delete('propagate_mode')) : request),
  },
  { what: 'prev_content_sha256 is ignored', rule: 'message-edit/prev-content-sha256-guards-the-edit', mutate: rewriteParam('PATCH', MESSAGE, 'prev_content_sha256', () => undefined) },
  { what: 'prev_content_sha256 is checked at level 378', rule: 'message-edit/prev-content-sha256-unknown-before-379', level: 378, mutate: refuseWhen('PATCH', MESSAGE, (form) => form.has('prev_content_sha256'), "'prev_content_sha256' value does not match the expected value.") },
  { what: 'unknown edit parameters are not reported', rule: 'message-edit/unknown-parameters-reported', mutate: mapAnswers('PATCH', MESSAGE, (body) => delete body.ignored_parameters_unsupported) },
];

passesUnbroken('every edit, move and deletion rule', SLICE, [415, 361, 351, 334, 289, 207, 151], 3, 15);

eachBreakageFailsItsRule(BREAKAGES, 3);
