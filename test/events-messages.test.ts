import t from 'tap';
import { type ApiEvent, checkEventsConvergeFor } from './support/apply-events.js';
import { CORDELIA, HAMLET, IAGO, OTHELLO, sortedIds } from './support/channels.js';
import { checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer, type TestServer } from './support/harness.js';

const NOTIFICATION_BOT = 'notification-bot@zulip.com';
/** max_message_id, and the subscriptions whose first_message_id a client fills in from message events. */
const MESSAGES = { fetchEventTypes: ['message', 'subscription'], eventTypes: ['message', 'subscription', 'stream'] } as const;

const subscribers = (s: TestServer, name: string) =>
  sortedIds([...s.world.subscribersOf(s.streamId(name))].filter(([id, sub]) => sub.active && s.world.users.get(id)?.isActive).map(([id]) => id));
const all = (lists: Array<ApiEvent[] | undefined>) => lists.flatMap((l) => l ?? []);

async function send(s: TestServer, email: string, topic = 'events lunch', content = 'pizza?'): Promise<number> {
  const reply = await s.as(email).post('/messages', { type: 'stream', to: 'Verona', topic, content });
  if (reply.status !== 200) throw new Error(reply.text);
  return reply.body.id as number;
}

t.test('a channel message reaches every subscriber with their own flags; sender and reader converge', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  let id = 0;
  const [hamlet, othello] = await checkEventsConvergeFor(t, [s.as(HAMLET), s.as(OTHELLO)], {
    ...MESSAGES,
    action: async () => {
      id = await send(s, HAMLET, 'events lunch', 'hi @**Othello, the Moor of Venice**');
    },
  });
  checkEventShapes(t, all([hamlet, othello]));
  t.match(hamlet, [{ type: 'message', flags: ['read'], message: { id, sender_id: s.id(HAMLET), type: 'stream', subject: 'events lunch' } }]);
  t.match(othello, [{ type: 'message', flags: ['mentioned'], message: { id } }]);
  checkRecipients(t, everyone.received(), isEvent('message'), subscribers(s, 'Verona'), 'the message');
});

t.test('a report posts Notification Bot\'s notice to the moderation channel\'s subscribers only; they converge', async (t) => {
  const s = testServer();
  const moderation = s.streamId('core team');
  s.world.realm.moderationRequestChannelId = moderation;
  const reported = await send(s, OTHELLO);
  const [moderator] = subscribers(s, 'core team');
  const moderatorEmail = s.world.users.get(moderator as number)?.deliveryEmail as string;
  const everyone = listenAll(s);
  const [events] = await checkEventsConvergeFor(t, [s.as(moderatorEmail), s.as(HAMLET)], {
    ...MESSAGES,
    action: () => s.as(HAMLET).post(`/messages/${reported}/report`, { report_type: 'spam', description: 'ads' }),
  });
  checkEventShapes(t, events ?? []);
  t.match(events, [
    { type: 'message', flags: [], message: { type: 'stream', stream_id: moderation, subject: 'Othello, the Moor of Venice moderation', sender_id: s.id(NOTIFICATION_BOT) } },
  ]);
  checkRecipients(t, everyone.received(), isEvent('message'), subscribers(s, 'core team'), 'the report notice');
});

t.test('Notification Bot tells a user someone subscribed them, in a direct message to that user alone', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  const [cordelia] = await checkEventsConvergeFor(t, [s.as(CORDELIA)], {
    ...MESSAGES,
    action: () => s.as(IAGO).post('/users/me/subscriptions', { subscriptions: [{ name: 'Scotland' }], principals: [s.id(CORDELIA)] }),
  });
  const messages = (cordelia ?? []).filter(isEvent('message'));
  checkEventShapes(t, messages);
  t.match(messages, [{ type: 'message', flags: [], message: { type: 'private', sender_id: s.id(NOTIFICATION_BOT), display_recipient: [{ id: s.id(NOTIFICATION_BOT) }, { id: s.id(CORDELIA) }] } }]);
  t.match(messages[0]?.message, { content: /#\*\*Scotland\*\*/ });
  checkRecipients(t, everyone.received(), isEvent('message'), [s.id(CORDELIA)], 'the subscription notice');
});

t.test('update_message for a content edit reaches everyone who has the message, with their flags; all converge', async (t) => {
  const s = testServer();
  const id = await send(s, HAMLET);
  const everyone = listenAll(s);
  const [hamlet, othello] = await checkEventsConvergeFor(t, [s.as(HAMLET), s.as(OTHELLO)], {
    ...MESSAGES,
    eventTypes: ['message', 'update_message', 'subscription'],
    action: () => s.as(HAMLET).patch(`/messages/${id}`, { content: 'pasta!' }),
  });
  checkEventShapes(t, all([hamlet, othello]));
  t.match(hamlet, [
    {
      type: 'update_message',
      user_id: s.id(HAMLET),
      message_id: id,
      message_ids: [id],
      rendering_only: false,
      orig_content: 'pizza?',
      content: 'pasta!',
      rendered_content: '<p>pasta!</p>',
      flags: ['read'],
    },
  ]);
  t.match(othello, [{ type: 'update_message', message_id: id, flags: [] }]);
  checkRecipients(t, everyone.received(), isEvent('update_message'), subscribers(s, 'Verona'), 'update_message');
});

t.test('update_message for a topic rename carries the old and new topic, to the message\'s recipients', async (t) => {
  const s = testServer();
  const id = await send(s, HAMLET);
  const everyone = listenAll(s);
  const [othello] = await checkEventsConvergeFor(t, [s.as(OTHELLO)], {
    ...MESSAGES,
    eventTypes: ['message', 'update_message', 'subscription'],
    action: () => s.as(HAMLET).patch(`/messages/${id}`, { topic: 'dinner', propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false }),
  });
  checkEventShapes(t, othello ?? []);
  t.match(othello, [{ type: 'update_message', message_ids: [id], orig_subject: 'events lunch', subject: 'dinner', propagate_mode: 'change_all', stream_id: s.streamId('Verona') }]);
  checkRecipients(t, everyone.received(), isEvent('update_message'), subscribers(s, 'Verona'), 'update_message for a move');
});

t.test('mark_topic_as_read: update_message_flags to the reader alone, with the IDs that changed; nothing when nothing changed', async (t) => {
  const s = testServer();
  const first = await send(s, HAMLET);
  const second = await send(s, CORDELIA);
  await send(s, HAMLET, 'other topic');
  const everyone = listenAll(s);
  const [othello] = await checkEventsConvergeFor(t, [s.as(OTHELLO)], {
    fetchEventTypes: ['message'],
    eventTypes: ['update_message_flags'],
    action: () => s.as(OTHELLO).post('/mark_topic_as_read', { stream_id: s.streamId('Verona'), topic_name: 'events lunch' }),
  });
  checkEventShapes(t, othello ?? []);
  t.same(
    (othello ?? []).map(({ id: _id, ...e }) => e),
    [{ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [first, second], all: false }],
  );
  checkRecipients(t, everyone.received(), isEvent('update_message_flags'), [s.id(OTHELLO)], 'update_message_flags');
  const again = listenAll(s);
  t.equal((await s.as(OTHELLO).post('/mark_topic_as_read', { stream_id: s.streamId('Verona'), topic_name: 'events lunch' })).status, 200);
  t.same([...again.received().keys()], [], 'already read: no event');
});
