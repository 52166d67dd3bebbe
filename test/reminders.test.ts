import t from 'tap';
import type { Clock } from '../lib/state/clock.js';
import { createApp } from '../server/index.js';
import { recordEvents } from './support/events.js';
import { basic, Client, errorOf, testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const HOUR = 3600;

const nowSeconds = (s: TestServer): number => Math.floor(s.clock.now() / 1000);

async function post(s: TestServer, params: Record<string, unknown>, as = HAMLET): Promise<number> {
  const reply = await s.as(as).post('/messages', params);
  if (reply.status !== 200) throw new Error(`send failed: ${reply.text}`);
  return reply.body.id as number;
}

const channelMessage = (s: TestServer, content = 'Test message') => post(s, { type: 'stream', to: 'Verona', topic: 'test', content });

async function remind(s: TestServer, messageId: number, inSeconds: number, extra: Record<string, unknown> = {}, as = HAMLET) {
  return s.as(as).post('/reminders', { message_id: messageId, scheduled_delivery_timestamp: nowSeconds(s) + inSeconds, ...extra });
}

const channelContent = (id: number, content: string, note = '') =>
  `You requested a reminder for the following message.${note === '' ? '' : ` Note:\n > ${note}`}\n\n` +
  `@_**King Hamlet|10** [said](http://localhost:9991/#narrow/channel/3-Verona/topic/test/near/${id}) in #**Verona>test@${id}**:\n` +
  `\`\`\`quote\n${content}\n\`\`\``;

t.test('creating a reminder returns its id, stores the generated content and sends reminders add', async (t) => {
  const s = testServer();
  const id = await channelMessage(s);
  const events = recordEvents(s);
  const at = nowSeconds(s) + HOUR;
  const reply = await s.as(HAMLET).post('/reminders', { message_id: id, scheduled_delivery_timestamp: at });
  t.same(Object.keys(reply.body).sort(), ['msg', 'reminder_id', 'result']);
  const reminderId = reply.body.reminder_id as number;
  const item = {
    reminder_id: reminderId,
    type: 'private',
    to: [10],
    content: channelContent(id, 'Test message'),
    rendered_content: s.world.reminders.get(reminderId)?.renderedContent,
    scheduled_delivery_timestamp: at,
    failed: false,
    reminder_target_message_id: id,
  };
  t.match(item.rendered_content, /^<p>You requested a reminder for the following message.<\/p>/);
  t.same(events, [{ event: { type: 'reminders', op: 'add', reminders: [item] }, userIds: [10] }]);
  t.same((await s.as(HAMLET).get('/reminders')).body, { result: 'success', msg: '', reminders: [item] });
});

t.test('both message_id and scheduled_delivery_timestamp are required', async (t) => {
  const s = testServer();
  const id = await channelMessage(s);
  t.same(errorOf(await s.as(HAMLET).post('/reminders', { scheduled_delivery_timestamp: nowSeconds(s) + HOUR })), {
    status: 400,
    code: 'REQUEST_VARIABLE_MISSING',
    msg: "Missing 'message_id' argument",
  });
  t.same(errorOf(await s.as(HAMLET).post('/reminders', { message_id: id })), {
    status: 400,
    code: 'REQUEST_VARIABLE_MISSING',
    msg: "Missing 'scheduled_delivery_timestamp' argument",
  });
});

t.test('the delivery time must be strictly in the future, checked before the message', async (t) => {
  const s = testServer();
  const id = await channelMessage(s);
  const past = { status: 400, code: 'BAD_REQUEST', msg: 'Scheduled delivery time must be in the future.' };
  t.same(errorOf(await remind(s, id, 0)), past);
  t.same(errorOf(await remind(s, id, -HOUR)), past);
  t.same(errorOf(await remind(s, 999, -1)), past);
  t.equal(s.world.reminders.size, 0);
});

t.test('the message must be readable by the caller', async (t) => {
  const s = testServer();
  const invalid = { status: 400, code: 'BAD_REQUEST', msg: 'Invalid message(s)' };
  t.same(errorOf(await remind(s, 999, HOUR)), invalid);
  const dm = await post(s, { type: 'direct', to: [12], content: 'secret' });
  t.same(errorOf(await remind(s, dm, HOUR, {}, 'iago@zulip.com')), invalid);
  t.equal(s.world.reminders.size, 0);
});

t.test('a note is added after the first line, literally, without trailing whitespace', async (t) => {
  const s = testServer();
  const id = await channelMessage(s);
  const reply = await remind(s, id, HOUR, { note: '\n{123} call back  \n' });
  t.equal(s.world.reminders.get(reply.body.reminder_id)?.content, channelContent(id, 'Test message', '{123} call back'));
  t.same(errorOf(await remind(s, id, HOUR, { note: 'n'.repeat(1001) })), {
    status: 400,
    code: 'BAD_REQUEST',
    msg: 'Maximum reminder note length: 1000 characters',
  });
  t.equal((await remind(s, id, HOUR, { note: 'n'.repeat(1000) })).status, 200);
  const blank = await remind(s, id, HOUR, { note: '   ' });
  t.equal(s.world.reminders.get(blank.body.reminder_id)?.content, channelContent(id, 'Test message'));
});

t.test('note does not exist before level 415', async (t) => {
  const s = testServer({ featureLevel: 414 });
  const id = await channelMessage(s);
  const reply = await remind(s, id, HOUR, { note: 'hello' });
  t.same(reply.body.ignored_parameters_unsupported, ['note']);
  t.equal(s.world.reminders.get(reply.body.reminder_id)?.content, channelContent(id, 'Test message'));
});

t.test('reminders for direct messages and widgets have their own wording', async (t) => {
  const s = testServer();
  const dm = await post(s, { type: 'direct', to: [12], content: 'Test message' });
  const a = await remind(s, dm, HOUR);
  t.equal(
    s.world.reminders.get(a.body.reminder_id)?.content,
    'You requested a reminder for the following direct message.\n\n' +
      `@_**King Hamlet|10** [said](http://localhost:9991/#narrow/dm/10,12/near/${dm}) to @_**Othello, the Moor of Venice|12**:\n` +
      '```quote\nTest message\n```',
  );
  const poll = await post(s, { type: 'direct', to: [12], content: '/poll What is your favorite color?' });
  const b = await remind(s, poll, HOUR);
  t.equal(
    s.world.reminders.get(b.body.reminder_id)?.content,
    'You requested a reminder for the following direct message.\n\n' +
      `@_**King Hamlet|10** [sent](http://localhost:9991/#narrow/dm/10,12/near/${poll}) a poll to @_**Othello, the Moor of Venice|12**.`,
  );
});

t.test('the quoted content is cut so the reminder fits 10000 characters', async (t) => {
  const s = testServer();
  const id = await channelMessage(s, 'x'.repeat(10000));
  const reply = await remind(s, id, HOUR);
  const content = s.world.reminders.get(reply.body.reminder_id)?.content ?? '';
  t.equal([...content].length, 10000);
  t.ok(content.endsWith('x\n[message truncated]\n```'));
});

t.test('GET lists undelivered reminders by delivery time, failed ones included', async (t) => {
  const s = testServer();
  const id = await channelMessage(s);
  const late = (await remind(s, id, 3 * HOUR)).body.reminder_id;
  const soon = (await remind(s, id, HOUR)).body.reminder_id;
  const failed = (await remind(s, id, 2 * HOUR)).body.reminder_id;
  const reminder = s.world.reminders.get(failed);
  if (reminder) reminder.failed = true;
  const listed = (await s.as(HAMLET).get('/reminders')).body.reminders as Array<{ reminder_id: number; failed: boolean }>;
  t.same(listed.map((r) => [r.reminder_id, r.failed]), [[soon, false], [failed, true], [late, false]]);
  t.same((await s.as('iago@zulip.com').get('/reminders')).body.reminders, [], 'only the caller\'s own');
});

t.test('DELETE removes the caller\'s reminder; anything else is 404 Reminder does not exist', async (t) => {
  const s = testServer();
  const id = await channelMessage(s);
  const reminderId = (await remind(s, id, HOUR)).body.reminder_id as number;
  const missing = { status: 404, code: 'BAD_REQUEST', msg: 'Reminder does not exist' };
  t.same(errorOf(await s.as('cordelia@zulip.com').delete(`/reminders/${reminderId}`)), missing);
  t.ok(s.world.reminders.has(reminderId));
  const events = recordEvents(s);
  t.same((await s.as(HAMLET).delete(`/reminders/${reminderId}`)).body, { result: 'success', msg: '' });
  t.same(events, [{ event: { type: 'reminders', op: 'remove', reminder_id: reminderId }, userIds: [10] }]);
  t.same((await s.as(HAMLET).get('/reminders')).body.reminders, []);
  t.same(errorOf(await s.as(HAMLET).delete(`/reminders/${reminderId}`)), missing);
  t.same(errorOf(await s.as(HAMLET).delete('/reminders/999')), missing);
});

t.test('advancing the clock delivers the reminder as a Notification Bot DM, regenerated', async (t) => {
  const s = testServer();
  const id = await channelMessage(s, 'first version');
  const reminderId = (await remind(s, id, HOUR, { note: 'look again' })).body.reminder_id as number;
  await s.as(HAMLET).patch(`/messages/${id}`, { content: 'second version' });
  const before = s.world.messages.size;
  s.clock.advance(HOUR * 1000 - 1000);
  t.equal(s.world.messages.size, before, 'nothing before the time');
  const events = recordEvents(s);
  s.clock.advance(1000);
  const reminder = s.world.reminders.get(reminderId);
  t.equal(reminder?.delivered, true);
  const delivered = s.world.messages.get(reminder?.deliveredMessageId ?? -1);
  t.equal(delivered?.senderId, 4);
  t.same(delivered?.recipient, { kind: 'direct', userIds: [4, 10] });
  t.equal(delivered?.content, channelContent(id, 'second version', 'look again'));
  t.equal(delivered?.sentAt, s.clock.now());
  t.same([...(delivered?.flags.get(10) ?? [])], [], 'unread for the user');
  t.same(events.filter((e) => e.event.type === 'message').flatMap((e) => e.userIds), [10]);
  t.same((await s.as(HAMLET).get('/reminders')).body.reminders, [], 'delivered reminders are not listed');
  s.clock.advance(HOUR * 1000);
  t.equal([...s.world.messages.values()].filter((m) => m.senderId === 4).length, 1, 'delivered once');
});

t.test('an inaccessible message keeps the stored content; a deactivated user makes the reminder fail', async (t) => {
  const s = testServer();
  const id = await channelMessage(s, 'original');
  const kept = (await remind(s, id, HOUR)).body.reminder_id as number;
  const failing = (await remind(s, id, HOUR, {}, 'othello@zulip.com')).body.reminder_id as number;
  s.world.messages.delete(id);
  const othello = s.world.users.get(12);
  if (othello) othello.isActive = false;
  s.clock.advance(HOUR * 1000);
  const delivered = s.world.messages.get(s.world.reminders.get(kept)?.deliveredMessageId ?? -1);
  t.equal(delivered?.content, channelContent(id, 'original'));
  t.same([s.world.reminders.get(failing)?.failed, s.world.reminders.get(failing)?.delivered], [true, false]);
});

t.test('due reminders are delivered before the next request on any clock', async (t) => {
  let now = Date.UTC(2025, 5, 1, 12, 0, 0);
  const clock: Clock = { now: () => now };
  const app = createApp({ clock, logger: () => undefined });
  const hamlet = app.world.usersByEmail.get(HAMLET);
  if (!hamlet) throw new Error('no hamlet');
  const client = new Client(app, basic(hamlet.deliveryEmail, hamlet.apiKey));
  const sent = await client.post('/messages', { type: 'stream', to: 'Verona', topic: 'test', content: 'x' });
  const reply = await client.post('/reminders', { message_id: sent.body.id, scheduled_delivery_timestamp: now / 1000 + 60 });
  now += 60_000;
  t.equal(app.world.reminders.get(reply.body.reminder_id)?.delivered, false, 'time alone does nothing');
  const listed = await client.get('/reminders');
  t.same(listed.body.reminders, [], 'delivered before the request ran');
  app.close();
});

t.test('on real time a timer delivers the reminder, and close() cancels it', async (t) => {
  const deliver = async (closeFirst: boolean): Promise<boolean> => {
    const app = createApp({ logger: () => undefined });
    const hamlet = app.world.usersByEmail.get(HAMLET);
    if (!hamlet) throw new Error('no hamlet');
    const client = new Client(app, basic(hamlet.deliveryEmail, hamlet.apiKey));
    const sent = await client.post('/messages', { type: 'stream', to: 'Verona', topic: 'test', content: 'x' });
    const at = Math.floor(Date.now() / 1000) + 1;
    const reply = await client.post('/reminders', { message_id: sent.body.id, scheduled_delivery_timestamp: at });
    if (closeFirst) app.close();
    await new Promise((resolve) => setTimeout(resolve, at * 1000 - Date.now() + 100));
    const delivered = app.world.reminders.get(reply.body.reminder_id)?.delivered === true;
    app.close();
    return delivered;
  };
  t.equal(await deliver(false), true);
  t.equal(await deliver(true), false);
});

t.test('POST exists from level 381; GET, DELETE and the events from 399', async (t) => {
  const old = testServer({ featureLevel: 380 });
  const id1 = await channelMessage(old);
  t.equal((await remind(old, id1, HOUR)).status, 404);
  const mid = testServer({ featureLevel: 398 });
  const id2 = await channelMessage(mid);
  const events = recordEvents(mid);
  t.equal((await remind(mid, id2, HOUR)).status, 200);
  t.same(events, [], 'no reminders event before 399');
  t.equal((await mid.as(HAMLET).get('/reminders')).status, 405);
  t.equal((await mid.as(HAMLET).delete('/reminders/1')).status, 404);
});
