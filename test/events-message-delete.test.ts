import t from 'tap';
import { checkEventsConvergeFor, MODERN_CAPABILITIES } from './support/apply-events.js';
import { CORDELIA, HAMLET, IAGO, OTHELLO } from './support/channels.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer, withoutSeededMessages, type TestServer } from './support/harness.js';

const DELETIONS = {
  fetchEventTypes: ['message', 'update_message_flags', 'subscription', 'user_topic'],
  eventTypes: ['message', 'update_message_flags', 'subscription', 'stream', 'user_topic', 'delete_message'],
} as const;

async function send(s: TestServer, to: string, topic: string, from = HAMLET): Promise<number> {
  const reply = await s.as(from).post('/messages', { type: 'stream', to, topic, content: 'hi @**Cordelia, Lear\'s daughter**' });
  if (reply.status !== 200) throw new Error(reply.text);
  return reply.body.id as number;
}

for (const [label, capabilities] of [
  ['clients with bulk_message_deletion', { ...MODERN_CAPABILITIES, bulk_message_deletion: true }],
  ['clients without bulk_message_deletion (one event per message)', MODERN_CAPABILITIES],
] as const) {
  t.test(`${label}: deleting unread messages, a channel's first message and a topic keep everyone converged`, async (t) => {
    const s = testServer({ fixture: withoutSeededMessages() });
    const first = await send(s, 'Verona', 'lunch');
    await send(s, 'Verona', 'lunch', OTHELLO);
    await send(s, 'Verona', 'dinner');
    await s.as(CORDELIA).post('/user_topics', { stream_id: s.streamId('Verona'), topic: 'dinner', visibility_policy: 1 });
    const dm = (await s.as(HAMLET).post('/messages', { type: 'direct', to: [s.id(CORDELIA)], content: 'psst' })).body.id as number;
    const results = await checkEventsConvergeFor(t, [s.as(CORDELIA), s.as(HAMLET)], {
      ...DELETIONS,
      registerParams: { client_capabilities: capabilities },
      // A fresh register lowers max_message_id when the newest messages go; the event does not say
      // what the new value is (the real server's own apply_event re-reads it from its database),
      // and clients use it only to number local echoes.
      setAside: (state) => {
        delete state.max_message_id;
      },
      action: async () => {
        await s.as(HAMLET).delete(`/messages/${first}`);
        await s.as(HAMLET).delete(`/messages/${dm}`);
        await s.as(IAGO).post(`/streams/${s.streamId('Verona')}/delete_topic`, { topic_name: 'dinner' });
      },
    });
    for (const events of results) checkEventShapes(t, events);
    const cordelia = results[0] ?? [];
    t.ok(cordelia.some((e) => e.type === 'stream' && e.property === 'first_message_id'), 'the first message moved');
    t.ok(cordelia.some((e) => e.type === 'user_topic' && e.visibility_policy === 0), 'the deleted topic lost its policy');
  });
}
