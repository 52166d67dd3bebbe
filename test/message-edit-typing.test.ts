import t from 'tap';
import { checkEventsConverge } from './support/apply-events.js';
import { CORDELIA, HAMLET, OTHELLO, recordEvents, sortedIds } from './support/channels.js';
import { checkEventShapes } from './support/event-schema.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

async function send(s: TestServer, to = 'Verona', from = HAMLET): Promise<number> {
  const reply = await s.as(from).post('/messages', { type: 'stream', to, topic: 'Lunch', content: 'x' });
  if (reply.status !== 200) throw new Error(reply.text);
  return reply.body.id as number;
}

const typing = (s: TestServer, email: string, id: number, op: string) => s.as(email).post(`/messages/${id}/typing`, { op });
const subscribers = (s: TestServer, name: string) =>
  sortedIds([...s.world.subscribersOf(s.streamId(name))].filter(([id, sub]) => sub.active && s.world.users.get(id)?.isActive).map(([id]) => id));

t.test('editing a channel message tells its subscribers, with the channel and topic', async (t) => {
  const s = testServer();
  const id = await send(s);
  const events = recordEvents(s);
  t.same((await typing(s, HAMLET, id, 'start')).body, { result: 'success', msg: '' });
  t.same(events, [
    {
      event: { type: 'typing_edit_message', op: 'start', sender_id: s.id(HAMLET), message_id: id, recipient: { type: 'channel', channel_id: s.streamId('Verona'), topic: 'Lunch' } },
      userIds: subscribers(s, 'Verona'),
    },
  ]);
});

t.test('editing a direct message tells the participants who receive typing notifications', async (t) => {
  const s = testServer();
  const id = (await s.as(HAMLET).post('/messages', { type: 'direct', to: [s.id(CORDELIA)], content: 'x' })).body.id as number;
  const group = (await s.as(HAMLET).post('/messages', { type: 'direct', to: [s.id(CORDELIA), s.id(OTHELLO)], content: 'x' })).body.id as number;
  await s.as(OTHELLO).patch('/settings', { receives_typing_notifications: false });
  const events = recordEvents(s);
  await typing(s, HAMLET, id, 'stop');
  await typing(s, HAMLET, group, 'start');
  t.same(events.map((e) => [e.event.recipient, e.userIds]), [
    [{ type: 'direct', user_ids: [s.id(HAMLET), s.id(CORDELIA)] }, sortedIds([s.id(HAMLET), s.id(CORDELIA)])],
    [{ type: 'direct', user_ids: sortedIds([s.id(HAMLET), s.id(CORDELIA), s.id(OTHELLO)]) }, sortedIds([s.id(HAMLET), s.id(CORDELIA)])],
  ]);
});

t.test('only the sender may, within the edit limit, with the typing setting on; op must be start or stop', async (t) => {
  const s = testServer();
  const id = await send(s);
  t.same(errorOf(await typing(s, OTHELLO, id, 'start')), bad("You don't have permission to edit this message"));
  t.same(errorOf(await typing(s, HAMLET, id, 'go')), bad('Invalid op'));
  t.same(errorOf(await s.as(HAMLET).post(`/messages/${id}/typing`, {})), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'op' argument" });
  t.same(errorOf(await typing(s, HAMLET, 999_999, 'start')), bad('Invalid message(s)'));
  await s.as(HAMLET).patch('/settings', { send_stream_typing_notifications: false });
  t.same(errorOf(await typing(s, HAMLET, id, 'start')), bad('User has disabled typing notifications for channel messages'));
  s.world.realm.messageContentEditLimitSeconds = 60;
  const fresh = await send(s, 'Verona', OTHELLO);
  s.clock.advance(61_000);
  t.same(errorOf(await typing(s, OTHELLO, fresh, 'start')), bad('The time limit for editing this message has passed'), 'no grace period');
  s.world.realm.allowMessageEditing = false;
  t.same(errorOf(await typing(s, OTHELLO, fresh, 'start')), bad('Your organization has turned off message editing'));
});

t.test('POST /message_edit_typing from level 351, renamed to /messages/{id}/typing at 361', async (t) => {
  for (const [level, legacy, modern] of [[350, 404, 404], [351, 200, 404], [360, 200, 404], [361, 404, 200]] as const) {
    const s = testServer({ featureLevel: level });
    const id = await send(s);
    t.equal((await s.as(HAMLET).post('/message_edit_typing', { op: 'start', message_id: id })).status, legacy, `legacy at ${level}`);
    t.equal((await typing(s, HAMLET, id, 'start')).status, modern, `path at ${level}`);
  }
});

t.test('typing_edit_message events have the real shape and leave clients converged', async (t) => {
  const s = testServer();
  const id = await send(s);
  const events = await checkEventsConverge(t, s.as(OTHELLO), {
    fetchEventTypes: ['message'],
    eventTypes: ['message', 'typing_edit_message'],
    action: async () => {
      await typing(s, HAMLET, id, 'start');
      await typing(s, HAMLET, id, 'stop');
    },
  });
  checkEventShapes(t, events);
  t.equal(events.filter((e) => e.type === 'typing_edit_message').length, 2);
});
