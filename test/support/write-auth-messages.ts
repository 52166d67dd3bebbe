/**
 * Who may write messages, their flags and reactions (test/support/write-auth.ts), as the real
 * server's zerver/views/message_send.py, message_edit.py, message_flags.py, reactions.py and
 * zerver/lib/message.py decide: only messages the caller can read, content edits only by the
 * sender, deletion of others' messages by administrators, private channels only for subscribers.
 */
import { ALL, below, bad, refuse, refuseOn, type WriteRule } from './write-auth.js';

const INVALID_MESSAGE = bad('Invalid message(s)');
const NOT_FOUND = bad('Invalid channel ID');

export const MESSAGE_RULES: readonly WriteRule[] = [
  {
    route: 'POST /messages',
    targets: {
      'a private channel': () => ({ path: '/messages', params: { type: 'stream', to: 'secret', topic: 't', content: 'let me in' } }),
      'a public channel the guest is not in': () => ({ path: '/messages', params: { type: 'stream', to: 'Denmark', topic: 't', content: 'hello' } }),
      'an archived channel': () => ({ path: '/messages', params: { type: 'stream', to: 'archived', topic: 't', content: 'hello' } }),
      'a deactivated user': (sc) => ({ path: '/messages', params: { type: 'direct', to: [sc.deactivated], content: 'hello' } }),
      'a channel only administrators post to': () => ({ path: '/messages', params: { type: 'stream', to: 'announce', topic: 't', content: 'news' } }),
    },
    refused: [
      // The bot posts with its owner's rights (the owner here), as the real server's can_send_message_group check allows.
      refuse(['moderator', 'member', 'guest'], 'a channel only administrators post to', bad('You do not have permission to post in this channel.')),
      refuse(ALL.filter((role) => role !== 'bot'), 'a private channel', bad("Not authorized to send to channel 'secret'")),
      refuse('bot', 'a private channel', bad("Not authorized to send to channel 'secret'")),
      refuse('guest', 'a public channel the guest is not in', bad("Not authorized to send to channel 'Denmark'")),
      refuse(ALL, 'an archived channel', bad("Not authorized to send to channel 'archived'")),
      refuse(ALL, 'a deactivated user', bad(/^'user\d+@zulipdev\.com' is no longer using Zulip\.$/)),
    ],
  },
  {
    route: 'PATCH /messages/{message_id:int}',
    targets: {
      "another user's content": (sc) => ({ path: `/messages/${sc.message}`, params: { content: 'rewritten' } }),
      'a private channel': (sc) => ({ path: `/messages/${sc.secretMessage}`, params: { topic: 'moved away' } }),
      "others' direct message": (sc) => ({ path: `/messages/${sc.directMessage}`, params: { content: 'rewritten' } }),
      'a private channel as destination': (sc) => ({ path: `/messages/${sc.message}`, params: { stream_id: sc.secret } }),
      'an archived channel as destination': (sc) => ({ path: `/messages/${sc.message}`, params: { stream_id: sc.archived } }),
    },
    refused: [
      ...refuseOn(ALL, ['a private channel as destination', 'an archived channel as destination'], NOT_FOUND),
      refuse(ALL, "another user's content", bad("You don't have permission to edit this message")),
      refuse(ALL, 'a private channel', INVALID_MESSAGE),
      refuse(ALL, "others' direct message", INVALID_MESSAGE),
    ],
  },
  {
    route: 'DELETE /messages/{message_id:int}',
    targets: {
      "another user's message": (sc) => ({ path: `/messages/${sc.message}` }),
      'a private channel': (sc) => ({ path: `/messages/${sc.secretMessage}` }),
      "others' direct message": (sc) => ({ path: `/messages/${sc.directMessage}` }),
    },
    refused: [
      refuse(below('administrator'), "another user's message", bad("You don't have permission to delete this message")),
      refuse(below('administrator'), 'a private channel', INVALID_MESSAGE),
      refuse(below('administrator'), "others' direct message", INVALID_MESSAGE),
    ],
  },
  {
    route: 'POST /messages/{message_id:int}/report',
    targets: {
      "another user's message": (sc) => ({ path: `/messages/${sc.message}/report`, params: { report_type: 'spam' } }),
      'a private channel': (sc) => ({ path: `/messages/${sc.secretMessage}/report`, params: { report_type: 'spam' } }),
    },
    refused: [refuse(ALL, 'a private channel', INVALID_MESSAGE)],
  },
  {
    route: 'POST /messages/{message_id:int}/reactions',
    targets: {
      'a private channel': (sc) => ({ path: `/messages/${sc.secretMessage}/reactions`, params: { emoji_name: 'smile' } }),
      "others' direct message": (sc) => ({ path: `/messages/${sc.directMessage}/reactions`, params: { emoji_name: 'smile' } }),
    },
    refused: [refuse(ALL, 'a private channel', INVALID_MESSAGE), refuse(ALL, "others' direct message", INVALID_MESSAGE)],
  },
  {
    route: 'DELETE /messages/{message_id:int}/reactions',
    targets: {
      "another user's reaction": (sc) => ({ path: `/messages/${sc.message}/reactions`, params: { emoji_name: 'octopus' } }),
      'a private channel': (sc) => ({ path: `/messages/${sc.secretMessage}/reactions`, params: { emoji_name: 'octopus' } }),
    },
    refused: [refuse(ALL, "another user's reaction", { status: 400, code: 'REACTION_DOES_NOT_EXIST', msg: "Reaction doesn't exist." }), refuse(ALL, 'a private channel', INVALID_MESSAGE)],
  },
  {
    route: 'POST /messages/flags',
    targets: {
      'a private channel': (sc) => ({ path: '/messages/flags', params: { messages: [sc.secretMessage], op: 'add', flag: 'starred' } }),
      "others' direct message": (sc) => ({ path: '/messages/flags', params: { messages: [sc.directMessage], op: 'add', flag: 'starred' } }),
    },
    refused: [refuse(ALL, 'a private channel', INVALID_MESSAGE), refuse(ALL, "others' direct message", INVALID_MESSAGE)],
  },
  {
    route: 'POST /messages/flags/narrow',
    targets: {},
    refused: [],
    open: 'acts on the caller\'s own flags of the messages the caller can read; others in the narrow are skipped, not refused',
  },
  {
    route: 'POST /mark_all_as_read',
    targets: {},
    refused: [],
    open: "acts on the caller's own flags",
  },
  {
    route: 'POST /mark_stream_as_read',
    targets: { 'a private channel': (sc) => ({ path: '/mark_stream_as_read', params: { stream_id: sc.secret } }) },
    refused: [refuse(ALL, 'a private channel', NOT_FOUND)],
  },
  {
    route: 'POST /mark_topic_as_read',
    targets: { 'a private channel': (sc) => ({ path: '/mark_topic_as_read', params: { stream_id: sc.secret, topic_name: 'hidden' } }) },
    refused: [refuse(ALL, 'a private channel', NOT_FOUND)],
  },
  {
    route: 'POST /message_edit_typing',
    targets: {},
    refused: [],
    open: 'served only at levels 351 to 360 (the scene is at 415); POST /messages/{message_id}/typing, which replaced it, is checked',
  },
  {
    route: 'POST /messages/{message_id:int}/typing',
    targets: { 'a private channel': (sc) => ({ path: `/messages/${sc.secretMessage}/typing`, params: { op: 'start' } }) },
    refused: [refuse(ALL, 'a private channel', INVALID_MESSAGE)],
  },
  {
    route: 'POST /typing',
    targets: {
      'a private channel': (sc) => ({ path: '/typing', params: { type: 'stream', stream_id: sc.secret, topic: 'hidden', op: 'start' } }),
    },
    refused: [refuse(ALL, 'a private channel', NOT_FOUND)],
  },
  {
    route: 'POST /messages/render',
    targets: {},
    refused: [],
    open: 'renders Markdown and stores nothing',
  },
  {
    route: 'POST /reminders',
    targets: { 'a private channel': (sc) => ({ path: '/reminders', params: { message_id: sc.secretMessage, scheduled_delivery_timestamp: Math.floor(sc.s.clock.now() / 1000) + 3600 } }) },
    refused: [refuse(ALL, 'a private channel', INVALID_MESSAGE)],
  },
  {
    route: 'DELETE /reminders/{reminder_id:int}',
    targets: { "another user's reminder": (sc) => ({ path: `/reminders/${sc.reminder}` }) },
    refused: [refuse(ALL, "another user's reminder", bad('Reminder does not exist', 404))],
  },
  {
    route: 'POST /scheduled_messages',
    targets: { 'a private channel': (sc) => ({ path: '/scheduled_messages', params: { type: 'stream', to: String(sc.secret), topic: 't', content: 'later', scheduled_delivery_timestamp: Math.floor(sc.s.clock.now() / 1000) + 3600 } }) },
    refused: [refuse(ALL, 'a private channel', bad("Not authorized to send to channel 'secret'"))],
  },
  {
    route: 'PATCH /scheduled_messages/{scheduled_message_id:int}',
    targets: { "another user's scheduled message": (sc) => ({ path: `/scheduled_messages/${sc.scheduledMessage}`, params: { content: 'rewritten' } }) },
    refused: [refuse(ALL, "another user's scheduled message", bad('Scheduled message does not exist', 404))],
  },
  {
    route: 'DELETE /scheduled_messages/{scheduled_message_id:int}',
    targets: { "another user's scheduled message": (sc) => ({ path: `/scheduled_messages/${sc.scheduledMessage}` }) },
    refused: [refuse(ALL, "another user's scheduled message", bad('Scheduled message does not exist', 404))],
  },
];
