/**
 * The event, deletion and edit-typing rules prove their power: against deliberately broken
 * variants of our server (an `update_message` or `delete_message` event missing, duplicated,
 * leaking to users who cannot read the message, or wrong in one field; a deleted message still
 * readable; deletion rights not enforced) the named rule fails.
 */
import { ROLE } from '../lib/entities/user.js';
import type { Mutation } from './support/conformance.js';
import { asAdministratorWhen, asSenderWhen, EDIT_TYPING, isMember, leakEvents, MESSAGE, refuseRole } from './support/power-edit-mutations.js';
import { type Breakage, caller, eachBreakageFailsItsRule, errorsSucceed, is, mapAnswers, mapEvents, replaceEvents, SUCCESS } from './support/power-mutations.js';

/** Every event of `type` that polls return is delivered twice. */
const duplicated = (type: string): Mutation =>
  mapAnswers('GET', /^\/events$/, (body) => {
    if (Array.isArray(body.events)) body.events = (body.events as Array<{ type: string }>).flatMap((event) => (event.type === type ? [event, { ...event }] : [event]));
  });

/** Drops `delete_message` events from the administrator's polls only. */
const deleterNotTold: Mutation = async (request, next, app) => {
  const response = await next(request);
  if (!is(request, 'GET', /^\/events$/) || caller(app, request)?.role !== ROLE.ADMINISTRATOR) return response;
  return mapAnswers('GET', /^\/events$/, (body) => {
    if (Array.isArray(body.events)) body.events = (body.events as Array<{ type: string }>).filter((event) => event.type !== 'delete_message');
  })(request, () => Promise.resolve(response), app);
};

const recipientOf = (event: Record<string, unknown>) => event.recipient as Record<string, unknown>;

const BREAKAGES: readonly Breakage[] = [
  { what: 'update_message events lack orig_rendered_content', rule: 'message-edit/content-edit-event-per-reader', mutate: mapEvents('update_message', (event) => delete event.orig_rendered_content) },
  { what: 'update_message events are delivered twice', rule: 'message-edit/content-edit-event-per-reader', mutate: duplicated('update_message') },
  { what: 'update_message events reach users who cannot read the message', rule: 'message-edit/content-edit-event-per-reader', mutate: leakEvents('update_message') },
  { what: 'edit_timestamp is a second late', rule: 'message-edit/content-edit-event-per-reader', mutate: mapEvents('update_message', (event) => (event.edit_timestamp = (event.edit_timestamp as number) + 1)) },
  { what: 'content edit events carry propagate_mode', rule: 'message-edit/content-edit-event-per-reader', mutate: mapEvents('update_message', (event) => 'content' in event && (event.propagate_mode = 'change_one')) },
  { what: 'is_me_message is always false', rule: 'message-edit/me-message-flag-in-event', mutate: mapEvents('update_message', (event) => 'is_me_message' in event && (event.is_me_message = false)) },
  { what: 'topic move events list only the target message', rule: 'message-move/topic-move-event-per-reader', mutate: mapEvents('update_message', (event) => 'propagate_mode' in event && (event.message_ids = [event.message_id])) },
  { what: 'topic move events carry orig_content', rule: 'message-move/topic-move-event-per-reader', mutate: mapEvents('update_message', (event) => 'subject' in event && (event.orig_content = '')) },
  { what: 'topic move events lose orig_subject', rule: 'message-move/topic-move-event-per-reader', mutate: mapEvents('update_message', (event) => delete event.orig_subject) },
  {
    what: 'the empty topic reaches clients without empty_topic_name as ""',
    rule: 'message-move/empty-topic-in-move-events',
    mutate: mapEvents('update_message', (event) => {
      for (const key of ['subject', 'orig_subject']) if (event[key] === 'general chat') event[key] = '';
    }),
  },
  { what: 'channel move events lack new_stream_id', rule: 'message-move/channel-move-events-per-access', mutate: mapEvents('update_message', (event) => delete event.new_stream_id) },
  { what: 'users who lose access to moved messages get no delete_message', rule: 'message-move/channel-move-events-per-access', mutate: replaceEvents('delete_message', () => undefined) },
  { what: 'users who lose access to moved messages also get update_message', rule: 'message-move/channel-move-events-per-access', mutate: leakEvents('update_message') },
  {
    what: 'bulk_message_deletion clients get the legacy message_id form',
    rule: 'message-delete/delete-message-event-per-queue',
    mutate: mapEvents('delete_message', (event) => {
      if (!Array.isArray(event.message_ids)) return;
      event.message_id = event.message_ids[0];
      delete event.message_ids;
    }),
  },
  { what: 'delete_message events reach users who could not read the message', rule: 'message-delete/delete-message-event-per-queue', mutate: leakEvents('delete_message') },
  { what: 'delete_message events carry the wrong stream_id', rule: 'message-delete/delete-message-event-per-queue', mutate: mapEvents('delete_message', (event) => 'stream_id' in event && (event.stream_id = (event.stream_id as number) + 1)) },
  { what: 'delete_message events are delivered twice', rule: 'message-delete/delete-message-event-per-queue', mutate: duplicated('delete_message') },
  { what: 'an unsubscribed deleter is not told (level 415)', rule: 'message-delete/event-reaches-unsubscribed-deleter', mutate: deleterNotTold },
  { what: 'an unsubscribed deleter is told before level 274', rule: 'message-delete/event-reaches-unsubscribed-deleter', level: 273, mutate: leakEvents('delete_message') },
  { what: 'a deletion answers success without deleting', rule: 'message-delete/gone-for-every-reader', mutate: (request, next) => (is(request, 'DELETE', MESSAGE) ? Promise.resolve(SUCCESS) : next(request)) },
  { what: 'deleting a deleted message answers success', rule: 'message-delete/gone-for-every-reader', mutate: errorsSucceed('DELETE', MESSAGE) },
  { what: "members may delete others' messages", rule: 'message-delete/who-may-delete-per-role', mutate: asAdministratorWhen('DELETE', MESSAGE, (role) => isMember(role)) },
  { what: 'moderators may not delete their own messages', rule: 'message-delete/who-may-delete-per-role', mutate: refuseRole('DELETE', MESSAGE, ROLE.MODERATOR) },
  { what: 'messages of private channels can be deleted by outsiders', rule: 'message-delete/unknown-or-inaccessible-message-bad-request', mutate: asAdministratorWhen('DELETE', MESSAGE, (role) => isMember(role)) },
  { what: 'typing_edit_message events reach users outside the channel', rule: 'message-edit-typing/channel-event-to-subscribers', mutate: leakEvents('typing_edit_message') },
  { what: 'typing_edit_message events name the wrong channel', rule: 'message-edit-typing/channel-event-to-subscribers', mutate: mapEvents('typing_edit_message', (event) => recipientOf(event).type === 'channel' && (recipientOf(event).channel_id = 0)) },
  { what: 'stop is delivered as start', rule: 'message-edit-typing/channel-event-to-subscribers', mutate: mapEvents('typing_edit_message', (event) => (event.op = 'start')) },
  { what: 'direct typing_edit_message events leave out the editor (level 415)', rule: 'message-edit-typing/direct-event-to-participants', mutate: mapEvents('typing_edit_message', (event) => recipientOf(event).type === 'direct' && (recipientOf(event).user_ids = (recipientOf(event).user_ids as number[]).filter((id) => id !== event.sender_id))) },
  { what: 'anyone may send edit typing notifications for a message', rule: 'message-edit-typing/only-sender-may-signal', mutate: asSenderWhen('POST', EDIT_TYPING, () => true) },
];

eachBreakageFailsItsRule(BREAKAGES, 3);
