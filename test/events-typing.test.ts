import t from 'tap';
import { apiEmail } from '../lib/queries/users/users.js';
import { checkEventsConvergeFor, MODERN_CAPABILITIES, pollEvents } from './support/apply-events.js';
import { addSubscribedMembers, userOf } from './support/channels.js';
import { checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { type Client, testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const OTHELLO = 'othello@zulip.com';
const CORDELIA = 'cordelia@zulip.com';
const WITH_STREAM_TYPING = { client_capabilities: { ...MODERN_CAPABILITIES, stream_typing_notifications: true } };

// The API email: synthetic, since the dev realm shows real emails to administrators only.
const person = (s: TestServer, email: string) => ({ user_id: s.id(email), email: apiEmail(s.world, userOf(s, email)) });
const subscribers = (s: TestServer, name: string) =>
  [...s.world.subscribersOf(s.streamId(name))].filter(([id, sub]) => sub.active && s.world.users.get(id)?.isActive).map(([id]) => id);

async function queueOf(client: Client, capabilities: Record<string, boolean>): Promise<string> {
  return (await client.post('/register', { event_types: ['typing'], fetch_event_types: [], client_capabilities: capabilities })).body.queue_id as string;
}

t.test('direct typing: every participant, the typist included, gets the event with the sender appended to the recipients', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  const [hamlet, othello] = await checkEventsConvergeFor(t, [s.as(HAMLET), s.as(OTHELLO)], {
    fetchEventTypes: ['typing'],
    action: () => s.as(HAMLET).post('/typing', { op: 'start', to: [s.id(OTHELLO), s.id(CORDELIA)] }),
  });
  const expected = {
    type: 'typing',
    message_type: 'direct',
    op: 'start',
    sender: person(s, HAMLET),
    recipients: [person(s, OTHELLO), person(s, CORDELIA), person(s, HAMLET)],
  };
  for (const events of [hamlet ?? [], othello ?? []]) {
    checkEventShapes(t, events);
    t.same(
      events.map(({ id: _id, ...e }) => e),
      [expected],
    );
  }
  checkRecipients(t, everyone.received(), isEvent('typing'), [s.id(HAMLET), s.id(OTHELLO), s.id(CORDELIA)], 'direct typing');
});

t.test('direct typing skips recipients with receives_typing_notifications off, but still lists them', async (t) => {
  const s = testServer();
  userOf(s, OTHELLO).settings.set('receives_typing_notifications', false);
  const everyone = listenAll(s);
  await s.as(HAMLET).post('/typing', { op: 'stop', to: [s.id(OTHELLO), s.id(CORDELIA)] });
  const received = everyone.received();
  checkRecipients(t, received, isEvent('typing', 'stop'), [s.id(HAMLET), s.id(CORDELIA)], 'direct typing stop');
  t.same((received.get(s.id(CORDELIA))?.[0]?.recipients as unknown[]).length, 3, 'othello is still a listed recipient');
});

t.test('channel typing goes to the channel\'s subscribers, and only to queues with stream_typing_notifications', async (t) => {
  const s = testServer();
  const verona = s.streamId('Verona');
  t.ok(subscribers(s, 'Verona').includes(s.id(OTHELLO)), 'othello is subscribed to Verona');
  const without = await queueOf(s.as(OTHELLO), MODERN_CAPABILITIES);
  const everyone = listenAll(s);
  const [events] = await checkEventsConvergeFor(t, [s.as(OTHELLO)], {
    fetchEventTypes: ['typing'],
    registerParams: WITH_STREAM_TYPING,
    action: () => s.as(HAMLET).post('/typing', { op: 'start', type: 'channel', stream_id: verona, topic: 'lunch' }),
  });
  checkEventShapes(t, events ?? []);
  t.same(
    (events ?? []).map(({ id: _id, ...e }) => e),
    [{ type: 'typing', message_type: 'stream', op: 'start', sender: person(s, HAMLET), stream_id: verona, topic: 'lunch' }],
  );
  t.same(await pollEvents(s.as(OTHELLO), without), [], 'a queue without the capability gets nothing');
  checkRecipients(t, everyone.received(), isEvent('typing'), subscribers(s, 'Verona'), 'channel typing');
});

t.test('channel typing in the empty topic is "general chat" for queues without empty_topic_name', async (t) => {
  const s = testServer();
  const legacy = await queueOf(s.as(OTHELLO), { stream_typing_notifications: true });
  const modern = await queueOf(s.as(OTHELLO), { stream_typing_notifications: true, empty_topic_name: true });
  await s.as(HAMLET).post('/typing', { op: 'start', type: 'stream', stream_id: s.streamId('Verona'), topic: '' });
  t.match(await pollEvents(s.as(OTHELLO), legacy), [{ type: 'typing', topic: 'general chat' }]);
  t.match(await pollEvents(s.as(OTHELLO), modern), [{ type: 'typing', topic: '' }]);
});

t.test('channel typing skips subscribers with receives_typing_notifications off', async (t) => {
  const s = testServer();
  userOf(s, OTHELLO).settings.set('receives_typing_notifications', false);
  const everyone = listenAll(s);
  await s.as(HAMLET).post('/typing', { op: 'start', type: 'stream', stream_id: s.streamId('Verona'), topic: 'x' });
  checkRecipients(t, everyone.received(), isEvent('typing'), subscribers(s, 'Verona').filter((id) => id !== s.id(OTHELLO)), 'channel typing');
});

t.test('a channel with more than 100 active subscribers gets no typing event at all', async (t) => {
  const s = testServer();
  const denmark = s.streamId('Denmark');
  addSubscribedMembers(s, denmark, 101 - subscribers(s, 'Denmark').length);
  const queue = await queueOf(s.as(HAMLET), { stream_typing_notifications: true });
  const everyone = listenAll(s);
  t.equal((await s.as(HAMLET).post('/typing', { op: 'start', type: 'stream', stream_id: denmark, topic: 'x' })).status, 200);
  t.same([...everyone.received().keys()], [], 'nobody');
  t.same(await pollEvents(s.as(HAMLET), queue), []);
});
