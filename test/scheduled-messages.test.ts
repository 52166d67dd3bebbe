/**
 * Scheduled messages over the in-process handler; cases follow zerver/tests/test_scheduled_messages.py
 * (test_schedule_message, test_scheduling_in_past, test_edit_schedule_message,
 * test_delete_scheduled_messages, test_successful_deliver_*, test_send_late_scheduled_message).
 */
import t from 'tap';
import { advanceThroughDueTasks } from '../lib/actions/scheduler.js';
import { recordEvents } from './support/events.js';
import { errorOf, testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const OTHELLO_ID = 12;
const VERONA_ID = 3;
const HOUR = 3600;

const nowSeconds = (s: TestServer): number => Math.floor(s.clock.now() / 1000);

async function schedule(s: TestServer, params: Record<string, unknown>, as = HAMLET): Promise<number> {
  const reply = await s.as(as).post('/scheduled_messages', params);
  if (reply.status !== 200) throw new Error(`scheduling failed: ${reply.text}`);
  return reply.body.scheduled_message_id as number;
}

const inAnHour = (s: TestServer, extra: Record<string, unknown> = {}) =>
  schedule(s, { type: 'stream', to: String(VERONA_ID), topic: 'later', content: 'Hello **later**', scheduled_delivery_timestamp: nowSeconds(s) + HOUR, ...extra });

t.test('scheduling returns an ID, lists the message and sends scheduled_messages add to the sender only', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  const at = nowSeconds(s) + HOUR;
  const id = await schedule(s, { type: 'channel', to: String(VERONA_ID), topic: 'later', content: 'Hello **later**', scheduled_delivery_timestamp: at });
  const item = {
    scheduled_message_id: id,
    type: 'stream',
    to: VERONA_ID,
    topic: 'later',
    content: 'Hello **later**',
    rendered_content: '<p>Hello <strong>later</strong></p>',
    scheduled_delivery_timestamp: at,
    failed: false,
  };
  t.same(events, [{ event: { type: 'scheduled_messages', op: 'add', scheduled_messages: [item] }, userIds: [10] }]);
  t.same((await s.as(HAMLET).get('/scheduled_messages')).body.scheduled_messages, [item]);
  t.same((await s.as('othello@zulip.com').get('/scheduled_messages')).body.scheduled_messages, [], 'only the sender sees it');
  const dm = await schedule(s, { type: 'direct', to: JSON.stringify([OTHELLO_ID]), content: 'psst', scheduled_delivery_timestamp: at + 1 });
  const listed = (await s.as(HAMLET).get('/scheduled_messages')).body.scheduled_messages as Array<Record<string, unknown>>;
  t.same(listed[1], { scheduled_message_id: dm, type: 'private', to: [OTHELLO_ID], content: 'psst', rendered_content: '<p>psst</p>', scheduled_delivery_timestamp: at + 1, failed: false });
});

t.test('scheduling refuses past times, bad recipients and what sending refuses, storing nothing', async (t) => {
  const s = testServer();
  const base = { type: 'stream', to: String(VERONA_ID), topic: 'x', content: 'c', scheduled_delivery_timestamp: nowSeconds(s) + HOUR };
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ scheduled_delivery_timestamp: nowSeconds(s) }, 'Scheduled delivery time must be in the future.'],
    [{ to: 'Verona' }, 'Invalid data type for channel ID'],
    [{ to: '99999' }, "Channel with ID '99999' does not exist"],
    [{ type: 'direct', to: '"hamlet@zulip.com"' }, 'Invalid data type for recipients'],
    [{ type: 'direct', to: '["othello@zulip.com"]' }, 'Recipient list may only contain user IDs'],
    [{ type: 'direct', to: '[]' }, 'Message must have recipients'],
    [{ content: '   ' }, 'Message must not be empty'],
  ];
  for (const [override, msg] of cases) {
    const reply = await s.as(HAMLET).post('/scheduled_messages', { ...base, ...override });
    t.same(errorOf(reply), { status: 400, code: reply.body.code, msg }, msg);
  }
  t.equal(s.world.scheduledMessages.size, 0);
});

t.test('editing changes the given parts, checks them like a send, and sends scheduled_messages update', async (t) => {
  const s = testServer();
  const id = await inAnHour(s);
  const patch = (params: Record<string, unknown>, as = HAMLET) => s.as(as).patch(`/scheduled_messages/${id}`, params);
  const refusals: Array<[Record<string, unknown>, string, number]> = [
    [{}, 'Nothing to change', 400],
    [{ type: 'direct' }, 'Recipient required when updating type of scheduled message.', 400],
    [{ type: 'stream', to: String(VERONA_ID) }, 'Topic required when updating scheduled message type to stream.', 400],
    [{ scheduled_delivery_timestamp: nowSeconds(s) - 1 }, 'Scheduled delivery time must be in the future.', 400],
  ];
  for (const [params, msg, status] of refusals) t.same(errorOf(await patch(params)), { status, code: 'BAD_REQUEST', msg }, msg);
  t.same(errorOf(await patch({ content: 'x' }, 'othello@zulip.com')), { status: 404, code: 'BAD_REQUEST', msg: 'Scheduled message does not exist' });
  const events = recordEvents(s);
  t.equal((await patch({ topic: 'renamed' })).status, 200);
  t.equal((await patch({ type: 'direct', to: JSON.stringify([OTHELLO_ID]), content: 'now a DM' })).status, 200);
  const item = s.world.scheduledMessages.get(id);
  t.same([item?.recipient, item?.content], [{ kind: 'direct', userIds: [10, OTHELLO_ID] }, 'now a DM']);
  t.same(events.map((e) => [e.event.op, (e.event.scheduled_message as Record<string, unknown>).topic ?? null, e.userIds]), [
    ['update', 'renamed', [10]],
    ['update', null, [10]],
  ]);
});

t.test('deleting removes the message, sends scheduled_messages remove, and a second delete is a 404', async (t) => {
  const s = testServer();
  const id = await inAnHour(s);
  const missing = { status: 404, code: 'BAD_REQUEST', msg: 'Scheduled message does not exist' };
  t.same(errorOf(await s.as('othello@zulip.com').delete(`/scheduled_messages/${id}`)), missing);
  const events = recordEvents(s);
  t.equal((await s.as(HAMLET).delete(`/scheduled_messages/${id}`)).status, 200);
  t.same(events, [{ event: { type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }, userIds: [10] }]);
  t.same(errorOf(await s.as(HAMLET).delete(`/scheduled_messages/${id}`)), missing);
});

t.test('at its time the message is sent as the sender and leaves the list with a remove event', async (t) => {
  const s = testServer();
  const id = await inAnHour(s, { read_by_sender: false });
  s.clock.advance(HOUR * 1000 - 1000);
  t.equal(s.world.scheduledMessages.get(id)?.delivered, false, 'nothing before the time');
  const events = recordEvents(s);
  s.clock.advance(1000);
  const scheduled = s.world.scheduledMessages.get(id);
  const sent = s.world.messages.get(scheduled?.deliveredMessageId ?? -1);
  t.same([sent?.senderId, sent?.recipient, sent?.content], [10, { kind: 'stream', streamId: VERONA_ID, topic: 'later' }, 'Hello **later**']);
  t.same([...(sent?.flags.get(10) ?? [])], [], 'read_by_sender false leaves it unread');
  t.ok(events.some((e) => e.event.type === 'scheduled_messages' && e.event.op === 'remove' && e.event.scheduled_message_id === id));
  t.same((await s.as(HAMLET).get('/scheduled_messages')).body.scheduled_messages, []);
  t.same(errorOf(await s.as(HAMLET).patch(`/scheduled_messages/${id}`, { content: 'too late' })), { status: 400, code: 'BAD_REQUEST', msg: 'Scheduled message was already sent' });
});

t.test('a send refused at delivery marks it failed, notifies the sender, and editing the time revives it', async (t) => {
  const s = testServer();
  // 2100-01-01 00:00:07 UTC, so the notice's time text is known.
  const at = 4_102_444_807;
  const id = await schedule(s, { type: 'direct', to: JSON.stringify([OTHELLO_ID]), content: 'hi', scheduled_delivery_timestamp: at });
  const othello = s.world.users.get(OTHELLO_ID);
  if (othello) othello.isActive = false;
  const events = recordEvents(s);
  s.clock.advance((at - nowSeconds(s)) * 1000);
  const item = s.world.scheduledMessages.get(id);
  t.same([item?.failed, item?.delivered], [true, false]);
  t.match(item?.failureMessage, /is no longer using Zulip\.$/);
  const update = events.find((e) => e.event.type === 'scheduled_messages');
  t.same([update?.event.op, (update?.event.scheduled_message as Record<string, unknown>).failed], ['update', true]);
  const notice = [...s.world.messages.values()].find((m) => m.senderId === 4);
  // send_failed_scheduled_message_notification: `str()` of the UTC datetime, then a space of its own.
  t.equal(
    notice?.content,
    `The message you scheduled for <time:2100-01-01 00:00:07+00:00>  was not sent because of the following error:\n\n> ${item?.failureMessage}\n\n[View scheduled messages](#scheduled)`,
  );
  t.same((await s.as(HAMLET).get('/scheduled_messages')).body.scheduled_messages.length, 1, 'failed ones stay listed');
  t.same(errorOf(await s.as(HAMLET).patch(`/scheduled_messages/${id}`, { content: 'retry' })), { status: 400, code: 'BAD_REQUEST', msg: 'Scheduled delivery time must be in the future.' });
  if (othello) othello.isActive = true;
  t.equal((await s.as(HAMLET).patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: nowSeconds(s) + 60 })).status, 200);
  t.equal(s.world.scheduledMessages.get(id)?.failed, false);
  s.clock.advance(60_000);
  t.equal(s.world.scheduledMessages.get(id)?.delivered, true);
});

t.test('a message jumped over by more than ten minutes fails as too late', async (t) => {
  const s = testServer();
  const id = await inAnHour(s);
  s.clock.advance((HOUR + 601) * 1000);
  t.equal(s.world.scheduledMessages.get(id)?.failureMessage, 'Message could not be sent at the scheduled time.');
});

t.test('advancing the clock through the due-task runner (as /__dev/clock/advance does) sends a jumped-over message at its own time', async (t) => {
  const s = testServer();
  const id = await inAnHour(s);
  const at = (nowSeconds(s) + HOUR) * 1000;
  advanceThroughDueTasks(s.world, s.clock, 5 * HOUR * 1000);
  const sent = s.world.messages.get(s.world.scheduledMessages.get(id)?.deliveredMessageId ?? -1);
  t.equal(sent?.sentAt, at, 'sent at its scheduled time, not at the end of the jump');
  t.equal(s.clock.now(), at + 4 * HOUR * 1000, 'the clock ends where it was asked to');
});

t.test("type 'channel' is refused before level 248, and '(no topic)' is the empty topic from 370", async (t) => {
  const old = testServer({ featureLevel: 247 });
  const reply = await old.as(HAMLET).post('/scheduled_messages', { type: 'channel', to: '3', topic: 't', content: 'c', scheduled_delivery_timestamp: nowSeconds(old) + HOUR });
  t.same(errorOf(reply), { status: 400, code: 'BAD_REQUEST', msg: 'Invalid type' });
  const s = testServer();
  const id = await inAnHour(s, { topic: '(no topic)' });
  const listed = (await s.as(HAMLET).get('/scheduled_messages')).body.scheduled_messages as Array<Record<string, unknown>>;
  t.same(listed.map((m) => [m.scheduled_message_id, m.topic]), [[id, '']]);
});

t.test('the endpoints follow their levels: list and delete from 173, scheduling from 179, editing from 184 (405 below, the path existing)', async (t) => {
  for (const [level, statuses] of [[172, [404, 404, 404]], [178, [200, 405, 405]], [183, [200, 400, 405]]] as const) {
    const s = testServer({ featureLevel: level });
    const got = [
      (await s.as(HAMLET).get('/scheduled_messages')).status,
      (await s.as(HAMLET).post('/scheduled_messages', { type: 'stream', to: '3', topic: 't', content: 'c', scheduled_delivery_timestamp: nowSeconds(s) - 1 })).status,
      (await s.as(HAMLET).patch('/scheduled_messages/1', { content: 'c' })).status,
    ];
    t.same(got, statuses, `level ${level}`);
  }
});

t.test('reminders and scheduled messages draw their IDs from one sequence, as rows of one table do on the real server', async (t) => {
  const s = testServer();
  const first = await inAnHour(s);
  const sent = await s.as(HAMLET).post('/messages', { type: 'stream', to: 'Verona', topic: 'ids', content: 'remind me' });
  const reminder = await s.as(HAMLET).post('/reminders', { message_id: sent.body.id, scheduled_delivery_timestamp: nowSeconds(s) + HOUR });
  const second = await inAnHour(s);
  t.same([reminder.body.reminder_id, second], [first + 1, first + 2]);
  t.same(errorOf(await s.as(HAMLET).delete(`/reminders/${first}`)), { status: 404, code: 'BAD_REQUEST', msg: 'Reminder does not exist' }, 'a scheduled message is not a reminder');
});
