/**
 * Event queues under many registrations: queues with the same options share one copy of each
 * event, and a user's queues are bounded (`maxQueuesPerUser`), the least recently polled idle
 * queue going first.
 */
import t from 'tap';
import { eventQueues } from '../lib/events/queues.js';
import { errorOf, testServer, type TestServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';

async function register(s: TestServer, email: string, params: Record<string, unknown> = {}): Promise<string> {
  const reply = await s.as(email).post('/register', { fetch_event_types: [], ...params });
  if (reply.status !== 200) throw new Error(reply.text);
  return reply.body.queue_id as string;
}

t.test('queues registered with the same options hold one shared copy of each message event', async (t) => {
  const s = testServer();
  const same = [await register(s, IAGO), await register(s, IAGO), await register(s, HAMLET)];
  const rendered = await register(s, IAGO, { apply_markdown: true });
  await s.as(HAMLET).post('/messages', { type: 'stream', to: 'Verona', topic: 'lunch', content: 'hi' });
  const held = (email: string, id: string) => eventQueues(s.world).get(s.id(email), id).heldEvents();
  const [a, b, c] = [held(IAGO, same[0] as string), held(IAGO, same[1] as string), held(HAMLET, same[2] as string)];
  t.equal(a.length, 1);
  t.equal(a[0], b[0], 'two queues of one user share the event');
  t.not(a[0], c[0], "the sender's copy differs (its flags)");
  t.not(held(IAGO, rendered)[0], a[0], 'other options get their own form');
  const polled = await s.as(IAGO).get('/events', { queue_id: same[0], last_event_id: -1, dont_block: true });
  t.match(polled.body.events, [{ id: 0, type: 'message', message: { content: 'hi' } }], 'each queue still gives its own ids');
  t.notOk('id' in (a[0] as object), 'the shared event is never given a queue id');
});

t.test('a user past maxQueuesPerUser loses their least recently polled idle queue', async (t) => {
  const s = testServer({ events: { maxQueuesPerUser: 3 } });
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    ids.push(await register(s, IAGO));
    s.clock.advance(1000);
  }
  const hamlet = await register(s, HAMLET);
  const poll = (id: string, email = IAGO) => s.as(email).get('/events', { queue_id: id, last_event_id: -1, dont_block: true });
  for (const id of ids.slice(0, 2)) {
    t.same(errorOf(await poll(id)), { status: 400, code: 'BAD_EVENT_QUEUE_ID', msg: `Bad event queue ID: ${id}` }, 'an old queue is gone');
  }
  for (const id of ids.slice(2)) t.equal((await poll(id)).status, 200, 'the newest three remain');
  t.equal((await poll(hamlet, HAMLET)).status, 200, "another user's queues do not count");
  t.equal([...eventQueues(s.world).forUser(s.id(IAGO))].length, 3);
});

t.test('queue_lifespan_secs is capped at 7 days, as on the real server', async (t) => {
  const s = testServer();
  const id = await register(s, IAGO, { queue_lifespan_secs: 30 * 24 * 3600 });
  t.equal(eventQueues(s.world).get(s.id(IAGO), id).timeoutMs, 7 * 24 * 3600 * 1000);
});
