import t from 'tap';
import type { ChatEvent } from '../lib/state/event-hub.js';
import { errorOf, type Client, type Params, testServer, type TestServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';

async function register(client: Client, params: Params = {}): Promise<string> {
  const reply = await client.post('/register', { fetch_event_types: [], ...params });
  if (reply.status !== 200) throw new Error(`register failed: ${reply.text}`);
  return reply.body.queue_id as string;
}

/** Events the queue holds after acknowledging `lastEventId` (never blocks). */
async function drain(client: Client, queueId: string, lastEventId = -1): Promise<Array<Record<string, unknown>>> {
  const reply = await client.get('/events', { queue_id: queueId, last_event_id: lastEventId, dont_block: true });
  if (reply.status !== 200) throw new Error(`poll failed: ${reply.text}`);
  return reply.body.events;
}

const emit = (s: TestServer, event: ChatEvent, ...emails: string[]) => s.world.events.send(event, emails.map((e) => s.id(e)));
const note = (n: number): ChatEvent => ({ type: 'realm_user_settings_defaults', op: 'update', property: 'enter_sends', value: n % 2 === 0 });

t.test('event ids start at 0 and increase by one per event', async (t) => {
  const s = testServer();
  const q = await register(s.as(IAGO));
  for (let i = 0; i < 3; i++) emit(s, note(i), IAGO);
  const events = await drain(s.as(IAGO), q);
  t.same(events.map((e) => e.id), [0, 1, 2]);
  t.equal(events[0]?.type, 'realm_user_settings_defaults');
});

t.test('unacknowledged events are sent again; acknowledged ones are discarded', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  const q = await register(c);
  for (let i = 0; i < 3; i++) emit(s, note(i), IAGO);
  t.same((await drain(c, q)).map((e) => e.id), [0, 1, 2], 'nothing acknowledged yet');
  t.same((await drain(c, q)).map((e) => e.id), [0, 1, 2], 'sent again');
  t.same((await drain(c, q, 1)).map((e) => e.id), [2], 'events up to 1 are discarded');
  t.same(await drain(c, q, 2), [], 'all acknowledged');
});

t.test('last_event_id -1 is always valid on a fresh queue', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  const q = await register(c);
  t.same(await drain(c, q, -1), []);
});

t.test('a future last_event_id is refused after discarding what it covers', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  const q = await register(c);
  emit(s, note(0), IAGO);
  emit(s, note(1), IAGO);
  const reply = await c.get('/events', { queue_id: q, last_event_id: 5, dont_block: true });
  t.same(errorOf(reply), { status: 400, code: 'BAD_REQUEST', msg: 'Event 5 was not in this queue' });
  t.notOk('var_name' in reply.body);
  emit(s, note(2), IAGO);
  t.same((await drain(c, q, 1)).map((e) => e.id), [2], 'events 0 and 1 were discarded by the refused call');
});

t.test('an id older than the newest discarded one is refused as pruned', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  const q = await register(c);
  for (let i = 0; i < 3; i++) emit(s, note(i), IAGO);
  await drain(c, q, 1);
  const reply = await c.get('/events', { queue_id: q, last_event_id: 0, dont_block: true });
  t.same(errorOf(reply), { status: 400, code: 'BAD_REQUEST', msg: 'An event newer than 0 has already been pruned!' });
  t.same((await drain(c, q, 1)).map((e) => e.id), [2], 'the queue is unchanged');
});

t.test('an unknown queue, or another user\'s, is BAD_EVENT_QUEUE_ID with queue_id', async (t) => {
  const s = testServer();
  const q = await register(s.as(IAGO));
  for (const [client, id] of [
    [s.as(IAGO), 'no-such-queue'],
    [s.as(HAMLET), q],
  ] as const) {
    const reply = await client.get('/events', { queue_id: id, last_event_id: -1 });
    t.same(reply.body, { result: 'error', msg: `Bad event queue ID: ${id}`, queue_id: id, code: 'BAD_EVENT_QUEUE_ID' });
    t.equal(reply.status, 400);
  }
  const deleted = await s.as(HAMLET).delete('/events', { queue_id: q });
  t.equal(deleted.body.code, 'BAD_EVENT_QUEUE_ID', 'another user cannot delete it either');
  t.same(await drain(s.as(IAGO), q), [], 'the owner still can use it');
});

t.test('GET /events needs queue_id unless it creates a queue with dont_block', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  const missing = await c.get('/events', { last_event_id: -1 });
  t.same(missing.body, { result: 'error', msg: "Missing 'queue_id' argument", code: 'BAD_REQUEST' });
  const created = await c.get('/events', { dont_block: true, event_types: ['realm_user_settings_defaults'], zzz: 1 });
  t.equal(created.status, 200);
  t.same(created.body.events, []);
  t.type(created.body.queue_id, 'string');
  t.same(created.body.ignored_parameters_unsupported, ['zzz']);
  emit(s, note(0), IAGO);
  emit(s, { type: 'drafts', op: 'remove', draft_id: 1 }, IAGO);
  t.same((await drain(c, created.body.queue_id)).map((e) => e.type), ['realm_user_settings_defaults'], 'its event_types filter applies');
  const noLast = await c.get('/events', { queue_id: created.body.queue_id });
  t.same(errorOf(noLast), { status: 400, code: 'BAD_REQUEST', msg: "Missing 'last_event_id' argument" });
});

t.test('an immediate answer reports ignored parameters and omits queue_id', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  const q = await register(c);
  const reply = await c.get('/events', { queue_id: q, last_event_id: -1, dont_block: true, bogus: 'x' });
  t.same(reply.body, { result: 'success', msg: '', events: [], ignored_parameters_unsupported: ['bogus'] });
});

t.test('DELETE /events removes the queue; a missing queue_id is REQUEST_VARIABLE_MISSING', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  const q = await register(c);
  const missing = await c.delete('/events', {});
  t.same(missing.body, { result: 'error', msg: "Missing 'queue_id' argument", var_name: 'queue_id', code: 'REQUEST_VARIABLE_MISSING' });
  t.same((await c.delete('/events', { queue_id: q })).body, { result: 'success', msg: '' });
  t.equal((await c.get('/events', { queue_id: q, last_event_id: -1 })).body.code, 'BAD_EVENT_QUEUE_ID');
});

t.test('event_types filters events; muted_topics is dropped when user_topic is listed', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  const both = await register(c, { event_types: ['user_topic', 'muted_topics'] });
  const legacy = await register(c, { event_types: ['muted_topics'] });
  const all = await register(c);
  emit(s, { type: 'muted_topics', muted_topics: [] }, IAGO);
  emit(s, { type: 'user_topic', stream_id: 3, topic_name: 'x', last_updated: 1, visibility_policy: 1 }, IAGO);
  t.same((await drain(c, both)).map((e) => e.type), ['user_topic']);
  t.same((await drain(c, legacy)).map((e) => e.type), ['muted_topics']);
  t.same((await drain(c, all)).map((e) => e.type), ['muted_topics', 'user_topic'], 'no filter: both');
});

t.test('channel typing events reach only queues with stream_typing_notifications', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  const capable = await register(c, { client_capabilities: { notification_settings_null: false, stream_typing_notifications: true } });
  const plain = await register(c);
  const sender = { user_id: s.id(HAMLET), email: HAMLET };
  emit(s, { type: 'typing', op: 'start', message_type: 'stream', sender, stream_id: 3, topic: 'lunch' }, IAGO);
  emit(s, { type: 'typing', op: 'start', message_type: 'direct', sender, recipients: [sender] }, IAGO);
  t.same((await drain(c, capable)).map((e) => e.message_type), ['stream', 'direct']);
  t.same((await drain(c, plain)).map((e) => e.message_type), ['direct'], 'direct typing is always delivered');
});

t.test('the empty topic becomes "general chat" for clients without empty_topic_name', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  const caps = { notification_settings_null: false, stream_typing_notifications: true, bulk_message_deletion: true };
  const modern = await register(c, { client_capabilities: { ...caps, empty_topic_name: true } });
  const old = await register(c, { client_capabilities: caps });
  const sender = { user_id: s.id(HAMLET), email: HAMLET };
  emit(s, { type: 'typing', op: 'start', message_type: 'stream', sender, stream_id: 3, topic: '' }, IAGO);
  emit(s, { type: 'user_topic', stream_id: 3, topic_name: '', last_updated: 1, visibility_policy: 1 }, IAGO);
  emit(s, { type: 'update_message', message_id: 1, orig_subject: '', subject: 'x', stream_id: 3 }, IAGO);
  emit(s, { type: 'delete_message', message_type: 'stream', stream_id: 3, topic: '', message_ids: [1] }, IAGO);
  emit(s, { type: 'update_message_flags', op: 'remove', flag: 'read', messages: [1], all: false, message_details: { 1: { type: 'stream', stream_id: 3, topic: '' } } }, IAGO);
  const topics = (events: Array<Record<string, unknown>>) => [
    events[0]?.topic,
    events[1]?.topic_name,
    events[2]?.orig_subject,
    events[3]?.topic,
    (events[4]?.message_details as Record<string, { topic: string }>)['1']?.topic,
  ];
  t.same(topics(await drain(c, old)), ['general chat', 'general chat', 'general chat', 'general chat', 'general chat']);
  t.same(topics(await drain(c, modern)), ['', '', '', '', '']);
});

t.test('message events follow apply_markdown, client_gravatar, the empty topic and the narrow', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  const html = await register(c, { apply_markdown: true, client_gravatar: false });
  const raw = await register(c, { apply_markdown: false, narrow: [['channel', 'verona'], ['topic', 'general chat']] });
  const other = await register(c, { narrow: [['channel', 'Denmark']] });
  const message = {
    id: 99,
    type: 'stream',
    stream_id: s.streamId('Verona'),
    display_recipient: 'Verona',
    subject: '',
    sender_id: s.id(HAMLET),
    sender_email: HAMLET,
    avatar_url: null,
    content: '**hi**',
    rendered_content: '<p><strong>hi</strong></p>',
  };
  emit(s, { type: 'message', message, flags: ['read'] }, IAGO);
  const [htmlEvent] = await drain(c, html);
  const shown = htmlEvent?.message as Record<string, unknown>;
  t.equal(shown.content, '<p><strong>hi</strong></p>');
  t.equal(shown.content_type, 'text/html');
  t.notOk('rendered_content' in shown);
  t.match(shown.avatar_url, /^https:\/\/secure\.gravatar\.com\//, 'a full avatar URL without client_gravatar');
  t.same(htmlEvent?.flags, ['read']);
  const [rawEvent] = await drain(c, raw);
  t.equal((rawEvent?.message as Record<string, unknown>).content, '**hi**');
  t.equal((rawEvent?.message as Record<string, unknown>).subject, 'general chat', 'the narrow sees the display name');
  t.same(await drain(c, other), [], 'a narrow on another channel filters the message out');
});

t.test('all_public_streams queues get public channel messages sent to others, with no flags', async (t) => {
  const s = testServer();
  const bot = await register(s.as(IAGO), { all_public_streams: true });
  const message = { id: 99_999, type: 'stream', stream_id: s.streamId('Verona'), display_recipient: 'Verona', subject: 'x', sender_email: HAMLET };
  emit(s, { type: 'message', message, flags: ['read'] }, HAMLET);
  const events = await drain(s.as(IAGO), bot);
  t.equal(events.length, 1);
  t.same(events[0]?.flags, []);
  const guest = await s.as('polonius@zulip.com').post('/register', { all_public_streams: true });
  t.same(errorOf(guest), { status: 400, code: 'BAD_REQUEST', msg: 'User not authorized for this query' });
});

t.test('realm_linkifiers events need linkifier_url_template; legacy settings events are dropped with user_settings_object', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  const modern = await register(c, { client_capabilities: { notification_settings_null: false, linkifier_url_template: true, user_settings_object: true } });
  const old = await register(c);
  emit(s, { type: 'realm_linkifiers', realm_linkifiers: [] }, IAGO);
  emit(s, { type: 'update_display_settings', setting_name: 'enter_sends', setting: true, user: IAGO }, IAGO);
  emit(s, { type: 'user_settings', op: 'update', property: 'enter_sends', value: true }, IAGO);
  t.same((await drain(c, modern)).map((e) => e.type), ['realm_linkifiers', 'user_settings']);
  t.same((await drain(c, old)).map((e) => e.type), ['update_display_settings', 'user_settings']);
});

t.test('presence events take the legacy, slim or simplified shape per queue', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  const legacy = await register(c);
  const slim = await register(c, { slim_presence: true });
  const simplified = await register(c, { client_capabilities: { notification_settings_null: false, simplified_presence_events: true } });
  const hamlet = s.id(HAMLET);
  const record = { client: 'website', status: 'active', timestamp: 1_700_000_000, pushable: false };
  emit(s, { type: 'presence', user_id: hamlet, email: HAMLET, server_timestamp: 1_700_000_000.5, presence: { website: record } }, IAGO);
  const [legacyEvent] = await drain(c, legacy);
  t.same(legacyEvent, { type: 'presence', user_id: hamlet, email: HAMLET, server_timestamp: 1_700_000_000.5, presence: { website: record }, id: 0 });
  const [slimEvent] = await drain(c, slim);
  t.notOk('email' in (slimEvent ?? {}), 'slim presence drops email');
  const [modernEvent] = await drain(c, simplified);
  t.same(Object.keys(modernEvent ?? {}).sort(), ['id', 'presences', 'type']);
  const entry = (modernEvent?.presences as Record<string, { active_timestamp: number; idle_timestamp: number }>)[String(hamlet)];
  t.type(entry?.active_timestamp, 'number');
  t.type(entry?.idle_timestamp, 'number');
  const given = { [String(hamlet)]: { active_timestamp: 5, idle_timestamp: 6 } };
  emit(s, { type: 'presence', user_id: hamlet, email: HAMLET, server_timestamp: 1, presence: { website: record }, presences: given }, IAGO);
  t.same((await drain(c, simplified, 0))[0]?.presences, given, 'an emitted presences map is used as it is');
  t.notOk('presences' in ((await drain(c, legacy, 0))[0] ?? {}), 'and stripped from the legacy shape');
});

t.test('clients without bulk_message_deletion get one delete_message event per message', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  const bulk = await register(c, { client_capabilities: { notification_settings_null: false, bulk_message_deletion: true } });
  const single = await register(c);
  emit(s, { type: 'delete_message', message_type: 'private', message_ids: [4, 7] }, IAGO);
  t.same((await drain(c, bulk)).map((e) => e.message_ids), [[4, 7]]);
  t.same((await drain(c, single)).map((e) => [e.message_id, 'message_ids' in e]), [[4, false], [7, false]]);
});

t.test('a narrow with an operator events cannot evaluate is refused', async (t) => {
  const s = testServer();
  const c = s.as(IAGO);
  t.same(errorOf(await c.post('/register', { narrow: [['search', 'x']] })), { status: 400, code: 'BAD_REQUEST', msg: 'Operator search not supported.' });
  t.same(errorOf(await c.post('/register', { narrow: [['is', 'followed']] })), { status: 400, code: 'BAD_REQUEST', msg: 'Operand followed not supported.' });
  t.equal((await c.post('/register', { narrow: [['is', 'dm']] })).status, 200);
});

t.test("a message sent with queue_id and local_id carries local_message_id in that queue's event only", async (t) => {
  const s = testServer();
  const hamlet = s.as(HAMLET);
  const sending = await register(hamlet, { event_types: ['message'] });
  const other = await register(hamlet, { event_types: ['message'] });
  const recipient = await register(s.as(IAGO), { event_types: ['message'] });
  const sent = await hamlet.post('/messages', { type: 'direct', to: [s.id(IAGO)], content: 'echo', queue_id: sending, local_id: '17.01' });
  t.equal(sent.status, 200);
  const messageEvents = async (client: Client, queue: string) => (await drain(client, queue)).filter((event) => event.type === 'message');
  const [own] = await messageEvents(hamlet, sending);
  t.equal(own?.local_message_id, '17.01');
  t.equal((own?.message as { id?: number } | undefined)?.id, sent.body.id);
  t.notOk('local_id' in (own ?? {}) || 'sender_queue_id' in (own ?? {}), 'the echo is passed on as local_message_id only');
  const [elsewhere] = await messageEvents(hamlet, other);
  t.ok(elsewhere && !('local_message_id' in elsewhere), "the sender's other queue gets the event without local_message_id");
  const [received] = await messageEvents(s.as(IAGO), recipient);
  t.ok(received && !('local_message_id' in received), 'the recipient gets it without local_message_id');
  await hamlet.post('/messages', { type: 'direct', to: [s.id(IAGO)], content: 'no echo', queue_id: sending });
  const withoutLocalId = (await messageEvents(hamlet, sending)).at(-1);
  t.ok(withoutLocalId && !('local_message_id' in withoutLocalId), 'queue_id without local_id echoes nothing');
});
