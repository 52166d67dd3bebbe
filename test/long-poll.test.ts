import t, { type Test } from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '../lib/state/clock.js';
import { eventQueues } from '../lib/events/queues.js';
import { type EventQueueOptions, type RunningServer, startServer, waitForEvent } from '../server/index.js';
import { basic, encodeParams, type Params } from './support/harness.js';

const IAGO = 'iago@zulip.com';

interface Served {
  readonly server: RunningServer;
  readonly clock: ManualClock;
  call(method: string, path: string, params?: Params, signal?: AbortSignal): Promise<{ status: number; body: any }>;
  register(params?: Params): Promise<string>;
  poll(queueId: string, lastEventId: number, extra?: Params, signal?: AbortSignal): Promise<{ status: number; body: any }>;
  /** Resolves once the server holds a poll on the queue (checked on each turn of the event loop). */
  untilWaiting(queueId: string): Promise<void>;
  emitTo(email: string, event: { type: string; [key: string]: unknown }): void;
}

async function serve(t: Test, events: EventQueueOptions = {}): Promise<Served> {
  const clock = new ManualClock(Date.UTC(2025, 5, 1));
  const server = await startServer({ clock, logger: () => undefined, events: { heartbeatMs: 30_000, heartbeatJitterMs: 0, ...events } });
  t.teardown(() => server.close());
  const user = (email: string) => server.world.usersByEmail.get(email)!;
  const auth = basic(IAGO, user(IAGO).apiKey);
  const call: Served['call'] = async (method, path, params = {}, signal) => {
    const form = encodeParams(params).toString();
    const inQuery = method === 'GET';
    const url = `${server.url}/api/v1${path}${inQuery && form ? `?${form}` : ''}`;
    const response = await fetch(url, {
      method,
      headers: { authorization: auth, ...(inQuery ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
      ...(inQuery ? {} : { body: form }),
      ...(signal ? { signal } : {}),
    });
    return { status: response.status, body: await response.json() };
  };
  return {
    server,
    clock,
    call,
    async register(params = {}) {
      const reply = await call('POST', '/register', { fetch_event_types: [], ...params });
      return reply.body.queue_id;
    },
    poll: (queueId, lastEventId, extra = {}, signal) => call('GET', '/events', { queue_id: queueId, last_event_id: lastEventId, ...extra }, signal),
    async untilWaiting(queueId) {
      const queue = eventQueues(server.world).get(user(IAGO).id, queueId);
      for (let i = 0; i < 2000 && !queue.isWaiting; i++) await new Promise((resolve) => setImmediate(resolve));
      if (!queue.isWaiting) throw new Error('the poll never started waiting');
    },
    emitTo(email, event) {
      server.world.events.send(event, [user(email).id]);
    },
  };
}

const NOTE = { type: 'realm_user_settings_defaults', op: 'update', property: 'enter_sends', value: false };

t.test('an event wakes a held poll promptly; the answer has queue_id and no ignored parameters', async (t) => {
  const s = await serve(t);
  const q = await s.register();
  const started = Date.now();
  const pending = s.poll(q, -1, { unknown_param: 'x' });
  await s.untilWaiting(q);
  s.emitTo(IAGO, NOTE);
  const reply = await pending;
  t.ok(Date.now() - started < 1000, 'answered well before any heartbeat');
  t.same(reply.body, { result: 'success', msg: '', events: [{ ...NOTE, id: 0 }], queue_id: q });
});

t.test('an idle poll gets a heartbeat after the heartbeat interval, whatever its event_types', async (t) => {
  const s = await serve(t, { heartbeatMs: 150 });
  const q = await s.register({ event_types: [] });
  const started = Date.now();
  const reply = await s.poll(q, -1);
  const waited = Date.now() - started;
  t.same(reply.body.events, [{ type: 'heartbeat', id: 0 }]);
  t.ok(waited >= 140, `waited ${waited} ms for the heartbeat`);
  t.equal(reply.body.queue_id, q);
});

t.test('a second poll on the same queue finishes the first one with the current events', async (t) => {
  const s = await serve(t);
  const q = await s.register();
  const first = s.poll(q, -1);
  await s.untilWaiting(q);
  const second = s.poll(q, -1);
  const superseded = await first;
  t.same(superseded.body, { result: 'success', msg: '', events: [], queue_id: q });
  await s.untilWaiting(q);
  s.emitTo(IAGO, NOTE);
  t.same((await second).body.events, [{ ...NOTE, id: 0 }], 'the newer poll receives the event');
});

t.test('a client that disconnects releases its wait; the queue survives', async (t) => {
  const s = await serve(t);
  const q = await s.register();
  const aborter = new AbortController();
  const abandoned = s.poll(q, -1, {}, aborter.signal).catch((error: unknown) => error);
  await s.untilWaiting(q);
  aborter.abort();
  t.type(await abandoned, Error, 'the client side sees its own abort');
  const queue = eventQueues(s.server.world).get(s.server.world.usersByEmail.get(IAGO)!.id, q);
  for (let i = 0; i < 2000 && queue.isWaiting; i++) await new Promise((resolve) => setImmediate(resolve));
  t.notOk(queue.isWaiting, 'the server forgot the wait');
  s.emitTo(IAGO, NOTE);
  t.same((await s.poll(q, -1)).body.events, [{ ...NOTE, id: 0 }], 'the event is kept for the next poll');
});

t.test('DELETE /events finishes a waiting poll before removing the queue', async (t) => {
  const s = await serve(t);
  const q = await s.register();
  const waiting = s.poll(q, -1);
  await s.untilWaiting(q);
  const deleted = await s.call('DELETE', '/events', { queue_id: q });
  t.same(deleted.body, { result: 'success', msg: '' });
  t.same((await waiting).body, { result: 'success', msg: '', events: [], queue_id: q });
  t.equal((await s.poll(q, -1)).body.code, 'BAD_EVENT_QUEUE_ID');
});

t.test('an idle queue expires once the clock passes its lifespan; waiting keeps it alive', async (t) => {
  const s = await serve(t);
  const idle = await s.register();
  const custom = await s.register({ queue_lifespan_secs: 1200 });
  const busy = await s.register();
  const held = s.poll(busy, -1);
  await s.untilWaiting(busy);
  s.clock.advance(599_000);
  t.equal((await s.poll(idle, -1, { dont_block: true })).status, 200, 'alive before 600 s');
  s.clock.advance(1_000);
  t.same((await s.poll(idle, -1, { dont_block: true })).body, {
    result: 'error',
    msg: `Bad event queue ID: ${idle}`,
    queue_id: idle,
    code: 'BAD_EVENT_QUEUE_ID',
  });
  t.equal((await s.poll(custom, -1, { dont_block: true })).status, 200, 'queue_lifespan_secs 1200 outlives 600 s');
  s.emitTo(IAGO, NOTE);
  t.same((await held).body.events, [{ ...NOTE, id: 0 }], 'the waiting queue was not swept');
  s.clock.advance(600_000);
  t.equal((await s.poll(custom, -1, { dont_block: true })).body.code, 'BAD_EVENT_QUEUE_ID', 'custom lifespan ends too');
});

t.test('the queue timeout is an app option', async (t) => {
  const s = await serve(t, { queueTimeoutSecs: 5, sweepIntervalMs: 1000 });
  const q = await s.register();
  s.clock.advance(4_000);
  t.equal((await s.poll(q, -1, { dont_block: true })).status, 200);
  s.clock.advance(1_000);
  t.equal((await s.poll(q, -1, { dont_block: true })).body.code, 'BAD_EVENT_QUEUE_ID');
});

t.test('closing the server answers held polls promptly', async (t) => {
  const s = await serve(t);
  const q = await s.register();
  const held = s.poll(q, -1).then(
    (reply) => reply.status,
    () => 'connection closed',
  );
  await s.untilWaiting(q);
  const started = Date.now();
  await s.server.close();
  const outcome = await Promise.race([held, sleep(2000).then(() => 'still waiting')]);
  t.equal(outcome, 200, 'the held poll is answered (with its current events) before the connection closes');
  t.ok(Date.now() - started < 2000);
});

t.test('waitForEvent resolves when a matching event is emitted, and times out otherwise', async (t) => {
  const s = await serve(t);
  const app = s.server.app;
  const iago = s.server.world.usersByEmail.get(IAGO)!.id;
  const q = await s.register();
  const heard = waitForEvent(app, iago, (e) => e.type === NOTE.type, { timeoutMs: 1000 });
  const queued = waitForEvent(app, iago, () => true, { timeoutMs: 1000, queueId: q });
  s.emitTo(IAGO, NOTE);
  t.same(await heard, NOTE, 'the dedicated listener hears the event as emitted');
  t.same(await queued, { ...NOTE, id: 0 }, 'with queueId, the event as the queue received it');
  await t.rejects(waitForEvent(app, iago, () => false, { timeoutMs: 30 }), { name: 'EventWaitTimeout' });
});
