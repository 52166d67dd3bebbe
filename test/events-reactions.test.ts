import t from 'tap';
import { checkEventsConvergeFor } from './support/apply-events.js';
import { CORDELIA, HAMLET, OTHELLO, sortedIds } from './support/channels.js';
import { checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer, type TestServer } from './support/harness.js';

const REACTIONS = { fetchEventTypes: ['message', 'update_message_flags'], eventTypes: ['message', 'update_message_flags', 'reaction'] } as const;

async function send(s: TestServer, to = 'Verona'): Promise<number> {
  const reply = await s.as(HAMLET).post('/messages', { type: 'stream', to, topic: 'lunch', content: 'pizza?' });
  if (reply.status !== 200) throw new Error(reply.text);
  return reply.body.id as number;
}

const veronaSubscribers = (s: TestServer) =>
  sortedIds([...s.world.subscribersOf(s.streamId('Verona'))].filter(([, sub]) => sub.active).map(([id]) => id));

t.test('adding and removing a reaction reach every subscriber in the real shape, and their clients converge', async (t) => {
  const s = testServer();
  const id = await send(s);
  const everyone = listenAll(s);
  const [othello, hamlet] = await checkEventsConvergeFor(t, [s.as(OTHELLO), s.as(HAMLET)], {
    ...REACTIONS,
    action: async () => {
      await s.as(OTHELLO).post(`/messages/${id}/reactions`, { emoji_name: 'smile' });
      await s.as(OTHELLO).delete(`/messages/${id}/reactions`, { emoji_name: 'smile' });
    },
  });
  const reactions = [...(othello ?? []), ...(hamlet ?? [])].filter((e) => e.type === 'reaction');
  checkEventShapes(t, reactions);
  t.match(othello, [
    { type: 'reaction', op: 'add', message_id: id, user_id: s.id(OTHELLO), emoji_code: '1f642' },
    { type: 'reaction', op: 'remove', message_id: id, user_id: s.id(OTHELLO), emoji_code: '1f642' },
  ]);
  checkRecipients(t, everyone.received(), isEvent('reaction', 'add'), veronaSubscribers(s), 'the reaction');
});

t.test('a reaction by a non-subscriber gives them a historical row without changing their unread state', async (t) => {
  const s = testServer();
  const id = await send(s, 'Scotland');
  await checkEventsConvergeFor(t, [s.as(CORDELIA)], {
    ...REACTIONS,
    action: () => s.as(CORDELIA).post(`/messages/${id}/reactions`, { emoji_name: 'octopus' }),
    // max_message_id counts the user's rows, so the historical row raises it; no event says so
    // (the real server's apply_event leaves it too), and clients use it only for local IDs.
    setAside: (state) => {
      delete state.max_message_id;
    },
  });
});
