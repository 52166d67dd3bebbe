/**
 * `scheduled_messages` events: the sender alone gets add, update and remove (by request and by
 * delivery), each matches the real server's event schema, and a client applying them converges
 * with a fresh `/register`.
 */
import t from 'tap';
import { checkEventsConverge } from './support/apply-events.js';
import { checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
// Within an idle event queue's lifespan (600 s), so the delivery case's queue outlives the clock jump.
const AHEAD = 300;

const nowSeconds = (s: TestServer): number => Math.floor(s.clock.now() / 1000);

const schedule = async (s: TestServer, inSeconds = AHEAD): Promise<number> =>
  (await s.as(HAMLET).post('/scheduled_messages', { type: 'stream', to: '3', topic: 'later', content: 'see you', scheduled_delivery_timestamp: nowSeconds(s) + inSeconds })).body
    .scheduled_message_id as number;

const CASES: ReadonlyArray<{ readonly what: string; readonly op: string; readonly action: (s: TestServer, id: number) => Promise<unknown> }> = [
  { what: 'a second message scheduled earlier', op: 'add', action: (s) => schedule(s, 60) },
  { what: 'an edit of content and time', op: 'update', action: (s, id) => s.as(HAMLET).patch(`/scheduled_messages/${id}`, { content: 'moved', scheduled_delivery_timestamp: nowSeconds(s) + 30 }) },
  { what: 'a delete', op: 'remove', action: (s, id) => s.as(HAMLET).delete(`/scheduled_messages/${id}`) },
  { what: 'delivery at the scheduled time', op: 'remove', action: async (s) => s.clock.advance(AHEAD * 1000) },
];

for (const { what, op, action } of CASES) {
  t.test(`scheduled_messages ${op} after ${what}: only the sender gets it, in the real schema, and the state converges`, async (t) => {
    const s = testServer();
    const id = await schedule(s);
    const everyone = listenAll(s);
    const events = await checkEventsConverge(t, s.as(HAMLET), { fetchEventTypes: ['scheduled_messages'], action: () => action(s, id) });
    const own = events.filter((e) => e.type === 'scheduled_messages');
    checkEventShapes(t, own);
    t.same(own.map((e) => e.op), [op]);
    checkRecipients(t, everyone.received(), isEvent('scheduled_messages'), [s.id(HAMLET)], `scheduled_messages/${op}`);
  });
}
