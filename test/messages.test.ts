import t from 'tap';
import type { ChatEvent } from '../lib/state/event-hub.js';
import { recordEvents } from './support/events.js';
import { errorOf, testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const IAGO = 'iago@zulip.com';

async function sendToVerona(s: TestServer, params: Record<string, unknown> = {}, as = HAMLET): Promise<number> {
  const reply = await s.as(as).post('/messages', { type: 'stream', to: 'Verona', topic: 'test', content: 'hello', ...params });
  if (reply.status !== 200) throw new Error(`send failed: ${reply.text}`);
  return reply.body.id as number;
}

/** The assertions the helpers use (any tap test object has them). */
interface Asserts {
  same(found: unknown, wanted: unknown): unknown;
  equal(found: unknown, wanted: unknown): unknown;
}

/** Sends with the given params and checks it fails with `msg` while storing nothing. */
async function refused(t: Asserts, s: TestServer, params: Record<string, unknown>, msg: string, as = HAMLET): Promise<void> {
  const before = s.world.messages.size;
  const events = recordEvents(s);
  t.same(errorOf(await s.as(as).post('/messages', params)), { status: 400, code: 'BAD_REQUEST', msg });
  t.equal(s.world.messages.size, before); // no message stored
  t.equal(events.length, 0); // no event sent
}

t.test('sending to a channel by name answers with the new id and, starting a topic, the sender’s new topic policy', async (t) => {
  const s = testServer();
  const reply = await s.as(HAMLET).post('/messages', { type: 'stream', to: 'Verona', topic: 'test', content: 'hello' });
  t.equal(reply.status, 200);
  t.same(Object.keys(reply.body).sort(), ['automatic_new_visibility_policy', 'id', 'msg', 'result'], 'automatic_new_visibility_policy from level 218');
  const message = s.world.messages.get(reply.body.id);
  t.same(message?.recipient, { kind: 'stream', streamId: s.streamId('Verona'), topic: 'test' });
  t.equal(message?.content, 'hello');
});

t.test('the channel may be named by ID, by JSON name or by a one-element JSON list', async (t) => {
  const s = testServer();
  const verona = s.streamId('Verona');
  for (const to of [verona, '"Verona"', [verona], '["Verona"]']) {
    const id = await sendToVerona(s, { to });
    t.equal((s.world.messages.get(id)?.recipient as { streamId: number }).streamId, verona, JSON.stringify(to));
  }
  await refused(t, s, { type: 'stream', to: [1, 2], topic: 'x', content: 'x' }, 'Expected exactly one channel');
  await refused(t, s, { type: 'stream', to: 'true', topic: 'x', content: 'x' }, 'Invalid data type for channel');
});

t.test('type channel is accepted from feature level 248 and direct from 174', async (t) => {
  const modern = testServer();
  t.equal((await modern.as(HAMLET).post('/messages', { type: 'channel', to: 'Verona', topic: 'x', content: 'x' })).status, 200);
  const old = testServer({ featureLevel: 247 });
  await refused(t, old, { type: 'channel', to: 'Verona', topic: 'x', content: 'x' }, 'Invalid type');
  t.equal((await old.as(HAMLET).post('/messages', { type: 'direct', to: [12], content: 'x' })).status, 200);
  const older = testServer({ featureLevel: 173 });
  await refused(t, older, { type: 'direct', to: [12], content: 'x' }, 'Invalid type');
  t.equal((await older.as(HAMLET).post('/messages', { type: 'private', to: [12], content: 'x' })).status, 200);
  await refused(t, modern, { type: 'group', to: [12], content: 'x' }, 'Invalid type');
});

t.test('subject is an alias of topic; sending both is confusing', async (t) => {
  const s = testServer();
  const id = await sendToVerona(s, { topic: undefined, subject: 'via subject' });
  t.equal((s.world.messages.get(id)?.recipient as { topic: string }).topic, 'via subject');
  const reply = await s.as(HAMLET).post('/messages', { type: 'stream', to: 'Verona', topic: 'a', subject: 'b', content: 'x' });
  t.same(errorOf(reply), { status: 400, code: 'REQUEST_CONFUSING_VAR', msg: "Can't decide between 'topic' and 'subject' arguments" });
});

t.test('missing parameters are refused in the real order', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(HAMLET).post('/messages', { to: 'Verona', content: 'x' })), {
    status: 400,
    code: 'REQUEST_VARIABLE_MISSING',
    msg: "Missing 'type' argument",
  });
  t.same(errorOf(await s.as(HAMLET).post('/messages', { type: 'stream', to: 'Verona', topic: 'x' })), {
    status: 400,
    code: 'REQUEST_VARIABLE_MISSING',
    msg: "Missing 'content' argument",
  });
  await refused(t, s, { type: 'stream', to: 'Verona', content: 'x' }, 'Missing topic');
  await refused(t, s, { type: 'stream', topic: 'x', content: 'x' }, 'Missing channel');
  await refused(t, s, { type: 'direct', to: [], content: 'x' }, 'Message must have recipients');
});

t.test('content loses trailing whitespace and leading newlines; blank and NUL content are refused', async (t) => {
  const s = testServer();
  const id = await sendToVerona(s, { content: '\n\n  indented line\n\n  \t ' });
  t.equal(s.world.messages.get(id)?.content, '  indented line');
  await refused(t, s, { type: 'stream', to: 'Verona', topic: 'x', content: ' \n\t ' }, 'Message must not be empty');
  await refused(t, s, { type: 'stream', to: 'Verona', topic: 'x', content: 'a\u0000b' }, 'Message must not contain null bytes');
});

t.test('content longer than 10000 characters is truncated, not refused', async (t) => {
  const s = testServer();
  const id = await sendToVerona(s, { content: 'é'.repeat(10001) });
  const content = s.world.messages.get(id)?.content ?? '';
  t.equal([...content].length, 10000);
  t.ok(content.endsWith('é\n[message truncated]'));
  const exact = await sendToVerona(s, { content: 'x'.repeat(10000) });
  t.equal(s.world.messages.get(exact)?.content, 'x'.repeat(10000));
});

t.test('topics are stripped, truncated to 60 characters and checked for unprintable characters', async (t) => {
  const s = testServer();
  const id = await sendToVerona(s, { topic: `  ${'t'.repeat(70)}  ` });
  t.equal((s.world.messages.get(id)?.recipient as { topic: string }).topic, `${'t'.repeat(57)}...`);
  await refused(t, s, { type: 'stream', to: 'Verona', topic: 'abc\u0001', content: 'x' }, 'Invalid character in topic, at position 4!');
});

t.test('"(no topic)" means the empty topic from level 370 and "general chat" from 334', async (t) => {
  const topicOf = (s: TestServer, id: number) => (s.world.messages.get(id)?.recipient as { topic: string }).topic;
  const s = testServer();
  t.equal(topicOf(s, await sendToVerona(s, { topic: '(no topic)' })), '');
  t.equal(topicOf(s, await sendToVerona(s, { topic: 'general chat' })), '');
  t.equal(topicOf(s, await sendToVerona(s, { topic: '' })), '');
  const at369 = testServer({ featureLevel: 369 });
  t.equal(topicOf(at369, await sendToVerona(at369, { topic: '(no topic)' })), '(no topic)');
  t.equal(topicOf(at369, await sendToVerona(at369, { topic: 'general chat' })), '');
  const at333 = testServer({ featureLevel: 333 });
  t.equal(topicOf(at333, await sendToVerona(at333, { topic: 'general chat' })), 'general chat');
  await refused(t, at333, { type: 'stream', to: 'Verona', topic: '  ', content: 'x' }, "Topic can't be empty!");
});

t.test('the topics policy of the realm and of the channel decides about the empty topic', async (t) => {
  const s = testServer();
  s.world.realm.topicsPolicy = 'disable_empty_topic';
  const empty = { type: 'stream', to: 'Verona', topic: '', content: 'x' };
  await refused(t, s, empty, 'Sending messages to the general chat is not allowed in this channel.');
  const verona = s.world.streams.get(s.streamId('Verona'));
  if (!verona) throw new Error('no Verona');
  verona.topicsPolicy = 'allow_empty_topic';
  t.equal((await s.as(HAMLET).post('/messages', empty)).status, 200, 'the channel overrides the realm');
  verona.topicsPolicy = 'empty_topic_only';
  await refused(t, s, { ...empty, topic: 'named' }, 'Only the general chat topic is allowed in this channel.');
  t.equal((await s.as(HAMLET).post('/messages', empty)).status, 200);
});

t.test('an unknown channel is STREAM_DOES_NOT_EXIST with the name or ID', async (t) => {
  const s = testServer();
  const byName = await s.as(HAMLET).post('/messages', { type: 'stream', to: 'nowhere', topic: 'x', content: 'x' });
  t.same(byName.body, { result: 'error', msg: "Channel 'nowhere' does not exist", stream: 'nowhere', code: 'STREAM_DOES_NOT_EXIST' });
  t.equal(byName.status, 400);
  const byId = await s.as(HAMLET).post('/messages', { type: 'stream', to: 999, topic: 'x', content: 'x' });
  t.same(byId.body, { result: 'error', msg: "Channel with ID '999' does not exist", stream_id: 999, code: 'STREAM_DOES_NOT_EXIST' });
});

t.test('posting needs can_send_message_group and, for private channels, a subscription', async (t) => {
  const s = testServer();
  const announce = { type: 'stream', to: 'announce', topic: 'x', content: 'x' };
  await refused(t, s, announce, 'You do not have permission to post in this channel.');
  t.equal((await s.as(IAGO).post('/messages', announce)).status, 200);
  await refused(t, s, { type: 'stream', to: 'core team', topic: 'x', content: 'x' }, "Not authorized to send to channel 'core team'", 'othello@zulip.com');
  t.equal((await s.as(HAMLET).post('/messages', { type: 'stream', to: 'core team', topic: 'x', content: 'x' })).status, 200);
  const verona = s.world.streams.get(s.streamId('Verona'));
  if (verona) verona.isArchived = true;
  await refused(t, s, { type: 'stream', to: 'Verona', topic: 'x', content: 'x' }, "Not authorized to send to channel 'Verona'");
});

t.test('direct messages take user IDs or emails and check every recipient', async (t) => {
  const s = testServer();
  const byIds = await s.as(HAMLET).post('/messages', { type: 'direct', to: [12, 8], content: 'hi' });
  t.same(s.world.messages.get(byIds.body.id)?.recipient, { kind: 'direct', userIds: [8, 10, 12] });
  const byEmail = await s.as(IAGO).post('/messages', { type: 'direct', to: ['hamlet@zulip.com'], content: 'hi' });
  t.same(s.world.messages.get(byEmail.body.id)?.recipient, { kind: 'direct', userIds: [10, 11] }, 'admins see real emails');
  const plain = await s.as(IAGO).post('/messages', { type: 'private', to: 'hamlet@zulip.com,othello@zulip.com', content: 'hi' });
  t.same(s.world.messages.get(plain.body.id)?.recipient, { kind: 'direct', userIds: [10, 11, 12] });
  await refused(t, s, { type: 'direct', to: [999], content: 'x' }, 'Invalid user ID 999');
  await refused(t, s, { type: 'direct', to: ['nobody@zulip.com'], content: 'x' }, "Invalid email 'nobody@zulip.com'");
  // Hamlet's address is hidden from members (visibility 3, administrators): they name him by his API email.
  const byApiEmail = await s.as('othello@zulip.com').post('/messages', { type: 'direct', to: ['USER10@zulipdev.com'], content: 'hi' });
  t.same(s.world.messages.get(byApiEmail.body.id)?.recipient, { kind: 'direct', userIds: [10, 12] });
  await refused(t, s, { type: 'direct', to: ['hamlet@zulip.com'], content: 'x' }, "Invalid email 'hamlet@zulip.com'", 'othello@zulip.com');
  await refused(t, s, { type: 'direct', to: ['user10@zulip.com'], content: 'x' }, "Invalid email 'user10@zulip.com'");
  await refused(t, s, { type: 'direct', to: [12, 'iago@zulip.com'], content: 'x' }, 'Recipient lists may contain emails or user IDs, but not both.');
  await refused(t, s, { type: 'direct', to: '{"a":1}', content: 'x' }, 'Invalid data type for recipients');
  const othello = s.world.users.get(12);
  if (othello) othello.isActive = false;
  await refused(t, s, { type: 'direct', to: [12], content: 'x' }, "'user12@zulipdev.com' is no longer using Zulip.");
});

t.test('recipients and subscribers get a row; the sender reads its own message; mentions are flagged', async (t) => {
  const s = testServer();
  const id = await sendToVerona(s, { content: 'hi @**Iago**' });
  const flags = s.world.messages.get(id)?.flags;
  t.same([...(flags?.keys() ?? [])].sort((a, b) => a - b), [6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
  t.same([...(flags?.get(10) ?? [])], ['read']);
  t.same([...(flags?.get(11) ?? [])], ['mentioned']);
  t.same([...(flags?.get(12) ?? [])], []);
  const unread = await sendToVerona(s, { read_by_sender: false });
  t.same([...(s.world.messages.get(unread)?.flags.get(10) ?? [])], []);
  const dm = await s.as(HAMLET).post('/messages', { type: 'direct', to: [12], content: 'x' });
  t.same([...(s.world.messages.get(dm.body.id)?.flags.keys() ?? [])].sort(), [10, 12]);
});

t.test("without read_by_sender a message starts read for its sender only from the real server's own clients", async (t) => {
  for (const level of [100, 415]) {
    const s = testServer({ featureLevel: level });
    const ownFlags = async (userAgent: string, params: Record<string, unknown> = {}) => {
      const reply = await s.as(HAMLET).post('/messages', { type: 'stream', to: 'Verona', topic: 'x', content: 'x', ...params }, { headers: { 'user-agent': userAgent } });
      return [...(s.world.messages.get(reply.body.id)?.flags.get(10) ?? [])];
    };
    t.same(await ownFlags('chat-conformance/0.1.0'), [], `an API client's message stays unread at level ${level}`);
    t.same(await ownFlags('ZulipPython/0.9.0'), [], `python-zulip-api's too, at level ${level}`);
    t.same(await ownFlags('ZulipMobile/27.0'), ['read'], `the mobile app's is read at level ${level}`);
    t.same(await ownFlags('anything', { client: 'website' }), ['read'], `a client parameter naming the web app wins at level ${level}`);
    t.same(await ownFlags('ZulipElectron/5.9', {}), ['read'], `the desktop app's is read at level ${level}`);
  }
});

t.test("a client name containing 'desktop app' counts as the real server's own client only before level 280 (zulip/zulip#31211)", async (t) => {
  for (const [level, expected] of [[279, ['read']], [280, []]] as const) {
    const s = testServer({ featureLevel: level });
    const reply = await s.as(HAMLET).post('/messages', { type: 'stream', to: 'Verona', topic: 'x', content: 'x', client: 'Zulip Desktop App' }, { headers: { 'user-agent': 'anything' } });
    t.same([...(s.world.messages.get(reply.body.id)?.flags.get(10) ?? [])], expected, `at level ${level}`);
  }
});

t.test('read_by_sender does not exist before level 236', async (t) => {
  const s = testServer({ featureLevel: 235 });
  const reply = await s.as(HAMLET).post('/messages', { type: 'stream', to: 'Verona', topic: 'x', content: 'x', read_by_sender: false });
  t.same(reply.body.ignored_parameters_unsupported, ['read_by_sender']);
  t.same([...(s.world.messages.get(reply.body.id)?.flags.get(10) ?? [])], ['read']);
});

t.test('every row holder gets a message event carrying its own flags', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  const id = await sendToVerona(s, { content: 'hi **there** @**Iago**' });
  const messageEvents = events.filter((e) => e.event.type === 'message');
  const byUser = new Map<number, ChatEvent>();
  for (const { event, userIds } of messageEvents) for (const userId of userIds) byUser.set(userId, event);
  t.same([...byUser.keys()].sort((a, b) => a - b), [6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
  t.same(byUser.get(10)?.flags, ['read']);
  t.same(byUser.get(11)?.flags, ['mentioned']);
  t.same(byUser.get(12)?.flags, []);
  const message = byUser.get(12)?.message as Record<string, unknown>;
  t.equal(message.id, id);
  t.equal(message.content, 'hi **there** @**Iago**');
  t.equal(message.rendered_content, '<p>hi <strong>there</strong> <span class="user-mention" data-user-id="11">@Iago</span></p>');
  t.equal(message.subject, 'test');
  t.equal(message.display_recipient, 'Verona');
  t.equal(message.stream_id, s.streamId('Verona'));
  t.notOk('id' in (byUser.get(12) ?? {}), 'the queue assigns event ids');
});

t.test('GET /messages/{id} returns the message, its raw content and the reader\'s flags', async (t) => {
  const s = testServer();
  const id = await sendToVerona(s, { content: '**bold**' });
  const reply = await s.as(HAMLET).get(`/messages/${id}`);
  t.equal(reply.status, 200);
  t.equal(reply.body.raw_content, '**bold**');
  const message = reply.body.message;
  t.equal(message.content, '<p><strong>bold</strong></p>');
  t.equal(message.content_type, 'text/html');
  t.same(message.flags, ['read']);
  t.equal(message.type, 'stream');
  t.equal(message.sender_id, 10);
  t.equal(message.timestamp, Math.floor(s.clock.now() / 1000));
  t.notOk('edit_history' in message);
  const raw = await s.as(HAMLET).get(`/messages/${id}`, { apply_markdown: false });
  t.equal(raw.body.message.content, '**bold**');
  t.equal(raw.body.message.content_type, 'text/x-markdown');
  const outsider = await s.as('polonius@zulip.com').get(`/messages/${id}`);
  t.same(outsider.body.message.flags, [], 'polonius is subscribed to Verona and has an unread row');
  s.world.messages.get(id)?.flags.delete(12);
  t.same((await s.as('othello@zulip.com').get(`/messages/${id}`)).body.message.flags, ['read', 'historical']);
});

t.test('GET /messages/{id} shows the empty topic as "general chat" unless allowed', async (t) => {
  const s = testServer();
  const id = await sendToVerona(s, { topic: '' });
  t.equal((await s.as(HAMLET).get(`/messages/${id}`)).body.message.subject, 'general chat');
  t.equal((await s.as(HAMLET).get(`/messages/${id}`, { allow_empty_topic_name: true })).body.message.subject, '');
});

t.test('GET /messages/{id} refuses unknown and unreadable messages alike', async (t) => {
  const s = testServer();
  const invalid = { status: 400, code: 'BAD_REQUEST', msg: 'Invalid message(s)' };
  t.same(errorOf(await s.as(HAMLET).get('/messages/999')), invalid);
  const dm = await s.as(HAMLET).post('/messages', { type: 'direct', to: [12], content: 'secret' });
  t.same(errorOf(await s.as(IAGO).get(`/messages/${dm.body.id}`)), invalid);
  const core = await s.as(HAMLET).post('/messages', { type: 'stream', to: 'core team', topic: 'x', content: 'x' });
  t.same(errorOf(await s.as('othello@zulip.com').get(`/messages/${core.body.id}`)), invalid);
  t.equal((await s.as(IAGO).get(`/messages/${core.body.id}`)).status, 200, 'iago is subscribed');
});

t.test('before level 120 GET /messages/{id} returns only raw_content', async (t) => {
  const s = testServer({ featureLevel: 119 });
  const id = await sendToVerona(s, { content: '*x*' });
  const reply = await s.as(HAMLET).get(`/messages/${id}`);
  t.same(reply.body, { result: 'success', msg: '', raw_content: '*x*' });
});
