import t from 'tap';
import { checkEventsConverge } from './support/apply-events.js';
import { checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const HOUR = 3600;
const NOTIFICATION_BOT = 'notification-bot@zulip.com';

const nowSeconds = (s: TestServer): number => Math.floor(s.clock.now() / 1000);

async function channelMessage(s: TestServer): Promise<number> {
  const reply = await s.as('othello@zulip.com').post('/messages', { type: 'stream', to: 'Verona', topic: 'plans', content: 'meet at noon' });
  return reply.body.id as number;
}

const remind = (s: TestServer, messageId: number) =>
  s.as(HAMLET).post('/reminders', { message_id: messageId, scheduled_delivery_timestamp: nowSeconds(s) + HOUR });

t.test('reminders add: the owner alone gets the pending reminder, and the state converges', async (t) => {
  const s = testServer();
  const messageId = await channelMessage(s);
  const everyone = listenAll(s);
  let reminderId = 0;
  const events = await checkEventsConverge(t, s.as(HAMLET), {
    fetchEventTypes: ['reminders'],
    action: async () => {
      reminderId = (await remind(s, messageId)).body.reminder_id;
    },
  });
  checkEventShapes(t, events);
  const stored = s.world.reminders.get(reminderId);
  t.same(
    events.map(({ id: _id, ...e }) => e),
    [
      {
        type: 'reminders',
        op: 'add',
        reminders: [
          {
            reminder_id: reminderId,
            type: 'private',
            to: [s.id(HAMLET)],
            content: stored?.content,
            rendered_content: stored?.renderedContent,
            scheduled_delivery_timestamp: nowSeconds(s) + HOUR,
            failed: false,
            reminder_target_message_id: messageId,
          },
        ],
      },
    ],
  );
  checkRecipients(t, everyone.received(), isEvent('reminders'), [s.id(HAMLET)], 'reminders/add');
});

t.test('reminders remove: the owner alone gets the removed ID, and the state converges', async (t) => {
  const s = testServer();
  const reminderId = (await remind(s, await channelMessage(s))).body.reminder_id as number;
  const everyone = listenAll(s);
  const events = await checkEventsConverge(t, s.as(HAMLET), { fetchEventTypes: ['reminders'], action: () => s.as(HAMLET).delete(`/reminders/${reminderId}`) });
  checkEventShapes(t, events);
  t.same(
    events.map(({ id: _id, ...e }) => e),
    [{ type: 'reminders', op: 'remove', reminder_id: reminderId }],
  );
  checkRecipients(t, everyone.received(), isEvent('reminders'), [s.id(HAMLET)], 'reminders/remove');
});

t.test('delivery: the owner gets the Notification Bot message and the reminder leaves the pending list', async (t) => {
  const s = testServer();
  const reminderId = (await remind(s, await channelMessage(s))).body.reminder_id as number;
  const everyone = listenAll(s);
  const events = await checkEventsConverge(t, s.as(HAMLET), {
    fetchEventTypes: ['reminders', 'message'],
    // The queue must outlive the hour (idle queues expire after 10 minutes).
    registerParams: { queue_lifespan_secs: 2 * HOUR },
    action: async () => s.clock.advance(HOUR * 1000),
  });
  checkEventShapes(t, events);
  t.same(
    events.map((e) => e.type),
    ['message', 'reminders'],
    'the message first, then the removal (send_reminder then notify_remove_reminder)',
  );
  const [message, removal] = events;
  t.match(message, {
    flags: [],
    message: {
      type: 'private',
      sender_id: s.id(NOTIFICATION_BOT),
      display_recipient: [{ id: s.id(NOTIFICATION_BOT) }, { id: s.id(HAMLET) }],
      content: s.world.reminders.get(reminderId)?.content,
      timestamp: nowSeconds(s),
    },
  });
  t.match(removal, { type: 'reminders', op: 'remove', reminder_id: reminderId });
  const received = everyone.received();
  checkRecipients(t, received, isEvent('message'), [s.id(HAMLET)], 'the reminder message');
  checkRecipients(t, received, isEvent('reminders', 'remove'), [s.id(HAMLET)], 'reminders/remove on delivery');
});

t.test('before level 399 reminders send no reminders events, on creation or on delivery', async (t) => {
  const s = testServer({ featureLevel: 398 });
  const messageId = await channelMessage(s);
  const everyone = listenAll(s);
  t.equal((await remind(s, messageId)).status, 200);
  s.clock.advance(HOUR * 1000);
  const received = everyone.received();
  checkRecipients(t, received, isEvent('reminders'), [], 'no reminders event');
  checkRecipients(t, received, isEvent('message'), [s.id(HAMLET)], 'the reminder message');
});
