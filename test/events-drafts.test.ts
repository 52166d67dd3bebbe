import t from 'tap';
import { checkEventsConverge } from './support/apply-events.js';
import { checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer, type TestServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';

const draft = (s: TestServer, extra: Record<string, unknown> = {}) => ({
  type: 'stream',
  to: [s.streamId('Verona')],
  topic: 'events',
  content: 'hello',
  timestamp: 1_700_000_000,
  ...extra,
});

async function ownDraftId(s: TestServer): Promise<number> {
  const reply = await s.as(IAGO).post('/drafts', { drafts: [draft(s)] });
  return reply.body.ids[0] as number;
}

t.test('drafts add: the owner alone gets the new drafts, and a client applying them converges', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  let ids: number[] = [];
  const events = await checkEventsConverge(t, s.as(IAGO), {
    fetchEventTypes: ['drafts'],
    action: async () => {
      ids = (await s.as(IAGO).post('/drafts', { drafts: [draft(s), draft(s, { type: 'private', to: [s.id('hamlet@zulip.com')], topic: '' })] })).body.ids;
    },
  });
  checkEventShapes(t, events);
  t.same(
    events.map(({ id: _id, ...e }) => e),
    [
      {
        type: 'drafts',
        op: 'add',
        drafts: [
          { id: ids[0], type: 'stream', to: [s.streamId('Verona')], topic: 'events', content: 'hello', timestamp: 1_700_000_000 },
          { id: ids[1], type: 'private', to: [s.id('hamlet@zulip.com')], topic: '', content: 'hello', timestamp: 1_700_000_000 },
        ],
      },
    ],
  );
  checkRecipients(t, everyone.received(), isEvent('drafts', 'add'), [s.id(IAGO)], 'drafts/add');
});

t.test('drafts update: the owner alone gets the whole edited draft, and the state converges', async (t) => {
  const s = testServer();
  const id = await ownDraftId(s);
  const everyone = listenAll(s);
  const events = await checkEventsConverge(t, s.as(IAGO), {
    fetchEventTypes: ['drafts'],
    action: () => s.as(IAGO).patch(`/drafts/${id}`, { draft: draft(s, { content: 'edited', timestamp: 1_800_000_000 }) }),
  });
  checkEventShapes(t, events);
  t.same(
    events.map(({ id: _id, ...e }) => e),
    [{ type: 'drafts', op: 'update', draft: { id, type: 'stream', to: [s.streamId('Verona')], topic: 'events', content: 'edited', timestamp: 1_800_000_000 } }],
  );
  checkRecipients(t, everyone.received(), isEvent('drafts', 'update'), [s.id(IAGO)], 'drafts/update');
});

t.test('drafts remove: the owner alone gets the removed draft ID, and the state converges', async (t) => {
  const s = testServer();
  const id = await ownDraftId(s);
  const everyone = listenAll(s);
  const events = await checkEventsConverge(t, s.as(IAGO), { fetchEventTypes: ['drafts'], action: () => s.as(IAGO).delete(`/drafts/${id}`) });
  checkEventShapes(t, events);
  t.same(
    events.map(({ id: _id, ...e }) => e),
    [{ type: 'drafts', op: 'remove', draft_id: id }],
  );
  checkRecipients(t, everyone.received(), isEvent('drafts', 'remove'), [s.id(IAGO)], 'drafts/remove');
});

t.test('a refused draft edit sends no event and leaves the state as it was', async (t) => {
  const s = testServer();
  const id = await ownDraftId(s);
  const events = await checkEventsConverge(t, s.as(IAGO), {
    fetchEventTypes: ['drafts'],
    expectEvents: false,
    action: () => s.as(IAGO).patch(`/drafts/${id}`, { draft: draft(s, { to: [999_999] }) }),
  });
  t.same(events, []);
});
