import t from 'tap';
import { checkEventsConverge, MODERN_CAPABILITIES } from './support/apply-events.js';
import { CORDELIA, HAMLET, IAGO, OTHELLO } from './support/channels.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer, withoutSeededMessages, type TestServer } from './support/harness.js';

/** unread_msgs needs both types; subscriptions and user topics give the client the mute state for `count`. */
const UNREAD = {
  fetchEventTypes: ['message', 'update_message_flags', 'subscription', 'user_topic', 'starred_messages'],
  eventTypes: ['message', 'update_message_flags', 'subscription', 'user_topic', 'delete_message', 'update_message'],
} as const;

async function ok(reply: Promise<{ status: number; text: string; body: { id?: number } }>): Promise<number> {
  const r = await reply;
  if (r.status !== 200) throw new Error(r.text);
  return r.body.id ?? 0;
}

/** Unread traffic for Cordelia: a mention, the empty topic (before level 334 another one), a direct message and a group message. */
async function traffic(s: TestServer, emptyTopic = ''): Promise<number[]> {
  const hamlet = s.as(HAMLET);
  return [
    await ok(hamlet.post('/messages', { type: 'stream', to: 'Verona', topic: 'lunch', content: 'hi @**Cordelia, Lear\'s daughter**' })),
    await ok(hamlet.post('/messages', { type: 'stream', to: 'Verona', topic: emptyTopic, content: 'general' })),
    await ok(hamlet.post('/messages', { type: 'stream', to: 'Verona', topic: 'Lunch', content: 'same topic, other case' })),
    await ok(hamlet.post('/messages', { type: 'private', to: [s.id(CORDELIA)], content: 'dm' })),
    await ok(hamlet.post('/messages', { type: 'private', to: [s.id(CORDELIA), s.id(OTHELLO)], content: 'group' })),
  ];
}

for (const [label, capabilities] of [
  ['a modern client', MODERN_CAPABILITIES],
  ['a client without empty_topic_name', { notification_settings_null: true }],
] as const) {
  t.test(`${label}: new messages, reading, marking unread, channel and global read keep unread_msgs converged`, async (t) => {
    const s = testServer({ fixture: withoutSeededMessages() });
    let ids: number[] = [];
    const events = await checkEventsConverge(t, s.as(CORDELIA), {
      ...UNREAD,
      registerParams: { client_capabilities: capabilities },
      action: async () => {
        ids = await traffic(s);
        const cordelia = s.as(CORDELIA);
        await ok(cordelia.post('/messages/flags', { messages: [ids[0], ids[3]], op: 'add', flag: 'read' }));
        await ok(cordelia.post('/messages/flags', { messages: [ids[0], ids[3]], op: 'remove', flag: 'read' }));
        await ok(cordelia.post('/messages/flags', { messages: [ids[1], ids[2]], op: 'add', flag: 'starred' }));
        await ok(cordelia.post('/messages/flags', { messages: [ids[2]], op: 'remove', flag: 'starred' }));
        await ok(cordelia.post('/mark_stream_as_read', { stream_id: s.streamId('Verona') }));
      },
    });
    checkEventShapes(t, events);
    t.ok(events.some((e) => e.type === 'update_message_flags' && e.op === 'remove' && e.message_details !== undefined));
  });
}

t.test('mark_all_as_read and muting keep unread_msgs and its count converged', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  await traffic(s);
  await checkEventsConverge(t, s.as(CORDELIA), {
    ...UNREAD,
    action: async () => {
      await ok(s.as(CORDELIA).post('/user_topics', { stream_id: s.streamId('Verona'), topic: 'lunch', visibility_policy: 1 }));
      await ok(s.as(HAMLET).post('/messages', { type: 'stream', to: 'Verona', topic: 'lunch', content: 'muted now' }));
    },
  });
  await checkEventsConverge(t, s.as(CORDELIA), { ...UNREAD, action: () => ok(s.as(CORDELIA).post('/mark_all_as_read')) });
});

t.test('leaving a channel drops its unread messages; an old client (level 118) keeps sender_id only', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  await traffic(s);
  await checkEventsConverge(t, s.as(CORDELIA), {
    ...UNREAD,
    action: () => ok(s.as(CORDELIA).delete('/users/me/subscriptions', { subscriptions: ['Verona'] })),
  });
  const old = testServer({ fixture: withoutSeededMessages(), featureLevel: 118 });
  await checkEventsConverge(t, old.as(CORDELIA), { ...UNREAD, action: () => traffic(old, 'dinner') });
  const registered = await old.as(CORDELIA).post('/register', { fetch_event_types: ['message', 'update_message_flags'] });
  t.same(registered.body.unread_msgs.pms, [{ sender_id: old.id(HAMLET), unread_message_ids: [4] }]);
  t.notOk('sender_ids' in registered.body.unread_msgs.streams[0], 'sender_ids left at level 90');
});

t.test('moving unread messages to another topic, or to a channel the user is not in, keeps unread_msgs converged', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const [mention, , other] = await traffic(s);
  await checkEventsConverge(t, s.as(CORDELIA), {
    ...UNREAD,
    action: async () => {
      await ok(s.as(IAGO).patch(`/messages/${mention}`, { topic: 'brunch', propagate_mode: 'change_one', send_notification_to_old_thread: false, send_notification_to_new_thread: false }));
      await ok(s.as(IAGO).patch(`/messages/${other}`, { stream_id: s.streamId('Scotland'), propagate_mode: 'change_one', send_notification_to_old_thread: false, send_notification_to_new_thread: false }));
    },
  });
});
