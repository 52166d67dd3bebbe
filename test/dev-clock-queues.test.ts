/**
 * `/__dev/clock` and `/__dev/queues` over HTTP: the clock is real time until advanced, and an
 * advance moves everything that reads the world's clock (reminders, edit limits, queue expiry);
 * queues are listed and expired (all, one user's, one), after which clients get
 * `BAD_EVENT_QUEUE_ID` as from the real server.
 */
import t from 'tap';
import { ManualClock, type RunningServer } from '../server/index.js';
import { api, dev, devServer, registerQueue, sendMessage } from './support/dev-http.js';

const HAMLET = 'hamlet@zulip.com';
const IAGO = 'iago@zulip.com';

const poll = (server: RunningServer, email: string, queueId: string) => api(server, email, 'GET', '/events', { queue_id: queueId, last_event_id: '-1', dont_block: 'true' });

t.test('the clock reads real time until it is advanced, then runs on from the advanced time', async (t) => {
  const server = await devServer(t);
  const before = await dev(server, 'GET', '/__dev/clock');
  t.match(before.body, { result: 'success', kind: 'real time', advanced_ms: 0, can_advance: true });
  t.ok(Math.abs((before.body.now_ms as number) - Date.now()) < 2000, 'real time');
  t.equal(new Date(before.body.now as string).getTime(), before.body.now_ms);
  const advanced = await dev(server, 'POST', '/__dev/clock/advance', { seconds: 3600.5 });
  t.match(advanced.body, { result: 'success', advanced_ms: 3_600_500 });
  t.ok(Math.abs((advanced.body.now_ms as number) - (Date.now() + 3_600_500)) < 2000, 'an hour ahead');
  t.ok(Math.abs(server.world.now() - (Date.now() + 3_600_500)) < 2000, 'the world reads the advanced time');
  for (const [body, message] of [
    [{}, /seconds is required/],
    [{ seconds: -1 }, /seconds must be a number from 0/],
    [{ seconds: '60' }, /seconds must be a number/],
    [{ seconds: 60, minutes: 1 }, /unknown field: minutes/],
  ] as const) {
    const refused = await dev(server, 'POST', '/__dev/clock/advance', body);
    t.equal(refused.status, 400, String(message));
    t.match(refused.body.msg, message);
  }
  t.equal((await dev(server, 'GET', '/__dev/clock')).body.advanced_ms, 3_600_500, 'refusals moved nothing');
});

t.test('advancing the clock delivers a due reminder and lets the edit time limit pass', async (t) => {
  const server = await devServer(t);
  const messageId = await sendMessage(server, HAMLET, 'remind me, and edit me later');
  const inAnHour = Math.floor(server.world.now() / 1000) + 3600;
  t.equal((await api(server, HAMLET, 'POST', '/reminders', { message_id: String(messageId), scheduled_delivery_timestamp: String(inAnHour) })).status, 200);
  t.equal((await api(server, HAMLET, 'PATCH', `/messages/${messageId}`, { content: 'edited in time' })).status, 200, 'editable within the limit');
  const messages = server.world.messages.size;
  await dev(server, 'POST', '/__dev/clock/advance', { seconds: 3601 });
  t.equal(server.world.messages.size, messages + 1, 'the reminder was delivered at once');
  const newest = server.world.messages.get(Math.max(...server.world.messages.ids))!;
  t.equal(server.world.users.get(newest.senderId)?.deliveryEmail, 'notification-bot@zulip.com');
  t.same((await api(server, HAMLET, 'GET', '/reminders')).body.reminders, [], 'no longer pending');
  const late = await api(server, HAMLET, 'PATCH', `/messages/${messageId}`, { content: 'edited too late' });
  t.same([late.status, late.body.msg], [400, 'The time limit for editing this message has passed']);
});

t.test('advancing the clock hours past a scheduled message sends it, as of its own time', async (t) => {
  const server = await devServer(t);
  const inAnHour = Math.floor(server.world.now() / 1000) + 3600;
  const scheduled = await api(server, HAMLET, 'POST', '/scheduled_messages', { type: 'stream', to: '3', topic: 'later', content: 'sent later', scheduled_delivery_timestamp: String(inAnHour) });
  t.equal(scheduled.status, 200);
  await dev(server, 'POST', '/__dev/clock/advance', { seconds: 5 * 3600 });
  const newest = server.world.messages.get(Math.max(...server.world.messages.ids))!;
  t.equal(newest.content, 'sent later', 'not refused as more than ten minutes late');
  // The clock runs on real time between the requests: a few milliseconds, never the five-hour jump.
  t.ok(newest.sentAt - inAnHour * 1000 < 60_000, `sent at its own time (${newest.sentAt - inAnHour * 1000} ms after it)`);
  t.same((await api(server, HAMLET, 'GET', '/scheduled_messages')).body.scheduled_messages, [], 'no longer pending');
});

t.test('an idle event queue expires when the clock passes its lifetime', async (t) => {
  const server = await devServer(t);
  const queueId = await registerQueue(server, HAMLET);
  await dev(server, 'POST', '/__dev/clock/advance', { seconds: 599 });
  t.equal((await poll(server, HAMLET, queueId)).status, 200, 'alive before 600 s');
  await dev(server, 'POST', '/__dev/clock/advance', { seconds: 601 });
  t.match((await poll(server, HAMLET, queueId)).body, { result: 'error', code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId });
});

t.test('a ManualClock given to startServer is advanced too; a clock that cannot move is refused with 400', async (t) => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1));
  const manual = await devServer(t, { clock });
  t.match((await dev(manual, 'GET', '/__dev/clock')).body, { kind: 'manual', now: '2030-01-01T00:00:00.000Z', advanced_ms: null });
  await dev(manual, 'POST', '/__dev/clock/advance', { seconds: 60 });
  t.equal(clock.now(), Date.UTC(2030, 0, 1, 0, 1));
  const fixed = await devServer(t, { clock: { now: () => Date.UTC(2030, 0, 1) } });
  t.match((await dev(fixed, 'GET', '/__dev/clock')).body, { kind: 'fixed by the library user', can_advance: false });
  const refused = await dev(fixed, 'POST', '/__dev/clock/advance', { seconds: 60 });
  t.same([refused.status, refused.body.code], [400, 'BAD_REQUEST']);
  t.match(refused.body.msg, /cannot be advanced/);
});

t.test('event queues are listed with their user, events and expiry', async (t) => {
  const server = await devServer(t);
  const queueId = await registerQueue(server, HAMLET, ['message', 'typing']);
  await sendMessage(server, IAGO, 'for the queue');
  const queues = (await dev(server, 'GET', '/__dev/queues')).body.queues as Array<Record<string, unknown>>;
  t.match(queues, [{ queue_id: queueId, user_id: server.world.usersByEmail.get(HAMLET)!.id, email: HAMLET, full_name: 'King Hamlet', event_types: ['message', 'typing'], pending_events: 1, polling: false, expires_in_seconds: 600 }]);
});

t.test('queues expire one at a time, one user at a time, or all; clients then get BAD_EVENT_QUEUE_ID', async (t) => {
  const server = await devServer(t);
  const [first, second, third] = [await registerQueue(server, HAMLET), await registerQueue(server, HAMLET), await registerQueue(server, IAGO)] as [string, string, string];
  t.same((await dev(server, 'POST', '/__dev/queues/expire', { queue_id: first })).body.expired, [first]);
  t.equal((await poll(server, HAMLET, first)).body.code, 'BAD_EVENT_QUEUE_ID');
  t.equal((await poll(server, HAMLET, second)).status, 200, 'the other queues live on');
  t.same((await dev(server, 'POST', '/__dev/queues/expire', { email: IAGO })).body.expired, [third]);
  t.equal((await poll(server, IAGO, third)).body.code, 'BAD_EVENT_QUEUE_ID');
  const fourth = await registerQueue(server, IAGO);
  t.same(new Set((await dev(server, 'POST', '/__dev/queues/expire', {})).body.expired as string[]), new Set([second, fourth]), 'an empty body expires every queue');
  t.equal((await poll(server, HAMLET, second)).body.code, 'BAD_EVENT_QUEUE_ID');
  t.same((await dev(server, 'GET', '/__dev/queues')).body.queues, []);
  t.equal((await dev(server, 'POST', '/__dev/queues/expire', { queue_id: 'no-such-queue' })).status, 404);
  t.equal((await dev(server, 'POST', '/__dev/queues/expire', { user_id: 999_999 })).status, 404);
  t.equal((await dev(server, 'POST', '/__dev/queues/expire', { user_id: 10, email: HAMLET })).status, 400);
});

t.test('expiring a queue answers the poll waiting on it, and the next poll gets BAD_EVENT_QUEUE_ID', async (t) => {
  const server = await devServer(t);
  const queueId = await registerQueue(server, HAMLET);
  const waiting = api(server, HAMLET, 'GET', '/events', { queue_id: queueId, last_event_id: '-1' });
  const user = server.world.usersByEmail.get(HAMLET)!.id;
  for (let tries = 0; tries < 100 && !(((await dev(server, 'GET', '/__dev/queues')).body.queues as Array<{ polling: boolean }>)[0]?.polling ?? false); tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  t.same((await dev(server, 'POST', '/__dev/queues/expire', { user_id: user })).body.expired, [queueId]);
  const answered = await waiting;
  t.same([answered.status, answered.body.events], [200, []], 'the held poll is answered with what the queue held');
  t.equal((await poll(server, HAMLET, queueId)).body.code, 'BAD_EVENT_QUEUE_ID');
});
