/**
 * The delivery delay makes our server behave like a production one, whose answers come before
 * their effects are visible: events and presence writes arrive later, in order, and the
 * conformance suite still passes against it.
 */
import t from 'tap';
import { runSuite } from '../conformance/index.js';
import { DeliveryPipeline } from '../lib/state/delivery-delay.js';
import { createApp, makeRequest } from '../server/index.js';
import { testServer } from './support/harness.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

t.test('delayed work runs later and in the order it was given, whatever the random delays', async (t) => {
  const delays = [0.9, 0.1, 0.5, 0, 0.7];
  const pipeline = new DeliveryPipeline(40, () => delays.shift() ?? 0);
  const ran: number[] = [];
  for (let i = 0; i < 5; i++) pipeline.run(() => ran.push(i));
  t.same(ran, [], 'nothing runs before the answer');
  await sleep(80);
  t.same(ran, [0, 1, 2, 3, 4]);
});

t.test('with a delay, a typing event reaches the queue after the answer, not in it', async (t) => {
  const s = testServer({ deliveryDelayMs: 30 });
  const othello = s.as('othello@zulip.com');
  const queue = await othello.post('/register', { event_types: ['typing'] });
  const poll = () => othello.get('/events', { queue_id: queue.body.queue_id, last_event_id: -1, dont_block: true });
  t.equal((await s.as('hamlet@zulip.com').post('/typing', { op: 'start', to: [s.id('othello@zulip.com')] })).status, 200);
  t.same((await poll()).body.events, [], 'not yet delivered when the request is answered');
  await sleep(60);
  t.same(((await poll()).body.events as Array<{ type: string }>).map((e) => e.type), ['typing']);
});

t.test('with a delay, a presence write becomes visible after the answer', async (t) => {
  const s = testServer({ deliveryDelayMs: 30 });
  const hamletId = s.id('hamlet@zulip.com');
  s.clock.advance(3_600_000); // an hour on, so the report changes the stored presence
  const before = s.world.presence.get(hamletId)?.lastUpdateId;
  t.equal((await s.as('hamlet@zulip.com').post('/users/me/presence', { status: 'active' })).status, 200);
  t.equal(s.world.presence.get(hamletId)?.lastUpdateId, before, 'not written yet');
  await sleep(60);
  t.not(s.world.presence.get(hamletId)?.lastUpdateId, before, 'written after the delay');
});

for (const level of [415, 207]) {
  t.test(`the suite passes against a server delivering up to 300 ms late, at level ${level}`, async (t) => {
    const app = createApp({ logger: () => undefined, featureLevel: level, deliveryDelayMs: 300 });
    try {
      const handler = async (r: { method: string; path: string; headers: Record<string, string>; body?: Uint8Array; signal?: AbortSignal }) =>
        app.handle(makeRequest(r.method, r.path, { headers: { ...r.headers }, body: r.body ?? new Uint8Array(), ...(r.signal ? { signal: r.signal } : {}) }));
      const result = await runSuite({ handler, numRuns: 3, seed: level });
      t.same(result.results.filter((r) => r.outcome === 'failed').map((r) => `${r.id}: ${r.failure?.message ?? ''}`), []);
    } finally {
      app.close();
    }
  });
}
