import t from 'tap';
import { CORDELIA, HAMLET, IAGO, OTHELLO, recordEvents } from './support/channels.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

async function send(s: TestServer, to = 'Verona', from = HAMLET, content = 'pizza?'): Promise<number> {
  const reply = await s.as(from).post('/messages', { type: 'stream', to, topic: 'lunch', content });
  if (reply.status !== 200) throw new Error(reply.text);
  return reply.body.id as number;
}

const flagsOf = (s: TestServer, id: number, email: string) => [...(s.world.messages.get(id)?.flags.get(s.id(email)) ?? [])].sort();
const flag = (s: TestServer, email: string, params: Record<string, unknown>) => s.as(email).post('/messages/flags', params);

t.test('starring and unstarring answer the request and tell only the user which messages changed', async (t) => {
  const s = testServer();
  const id = await send(s);
  const events = recordEvents(s);
  const reply = await flag(s, OTHELLO, { messages: [id], op: 'add', flag: 'starred' });
  t.same(reply.body, { result: 'success', msg: '', messages: [id], ignored_because_not_subscribed_channels: [] });
  t.same(flagsOf(s, id, OTHELLO), ['starred']);
  t.same((await s.as(OTHELLO).post('/register', { fetch_event_types: ['starred_messages'] })).body.starred_messages, [id]);
  t.equal((await flag(s, OTHELLO, { messages: [id], op: 'remove', flag: 'starred' })).status, 200);
  t.same(flagsOf(s, id, OTHELLO), []);
  t.same(events, [
    { event: { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [id], all: false }, userIds: [s.id(OTHELLO)] },
    { event: { type: 'update_message_flags', op: 'remove', operation: 'remove', flag: 'starred', messages: [id], all: false }, userIds: [s.id(OTHELLO)] },
  ]);
});

t.test('collapsed is editable; the other known flags are not, and unknown flags and ops are refused', async (t) => {
  const s = testServer();
  const id = await send(s);
  t.equal((await flag(s, OTHELLO, { messages: [id], op: 'add', flag: 'collapsed' })).status, 200);
  for (const name of ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'group_mentioned', 'has_alert_word', 'historical', 'force_expand', 'force_collapse']) {
    t.same(errorOf(await flag(s, OTHELLO, { messages: [id], op: 'add', flag: name })), bad(`Flag not editable: '${name}'`), name);
  }
  for (const name of ['is_private', 'active_mobile_push_notification', 'wildcard_mentioned', 'bogus']) {
    t.same(errorOf(await flag(s, OTHELLO, { messages: [id], op: 'add', flag: name })), bad(`Invalid flag: '${name}'`), name);
  }
  t.same(errorOf(await flag(s, OTHELLO, { messages: [id], op: 'toggle', flag: 'starred' })), bad("Invalid message flag operation: 'toggle'"));
  t.same(errorOf(await flag(s, OTHELLO, { messages: [id], op: 'toggle', flag: 'bogus' })), bad("Invalid flag: 'bogus'"), 'the flag is checked first');
  t.same(flagsOf(s, id, OTHELLO), ['collapsed']);
});

t.test('missing and malformed parameters get the real errors, flag first', async (t) => {
  const s = testServer();
  const missing = (name: string) => ({ status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: `Missing '${name}' argument` });
  t.same(errorOf(await flag(s, OTHELLO, {})), missing('flag'));
  t.same(errorOf(await flag(s, OTHELLO, { flag: 'starred' })), missing('messages'));
  t.same(errorOf(await flag(s, OTHELLO, { flag: 'starred', messages: [1] })), missing('op'));
  t.same(errorOf(await flag(s, OTHELLO, { flag: 'starred', messages: '5', op: 'add' })), bad('messages is not a list'));
  t.same(errorOf(await flag(s, OTHELLO, { flag: 'starred', messages: ['a'], op: 'add' })), bad('messages[0] is not an integer'));
});

t.test('starring a readable message without a row creates a historical one; an unreadable ID fails the whole request', async (t) => {
  const s = testServer();
  const denmark = await send(s, 'Denmark');
  const secret = await send(s, 'core team', IAGO);
  const events = recordEvents(s);
  t.same(errorOf(await flag(s, CORDELIA, { messages: [denmark, secret], op: 'add', flag: 'starred' })), bad('Invalid message(s)'));
  t.same(errorOf(await flag(s, CORDELIA, { messages: [denmark, 999_999], op: 'add', flag: 'starred' })), bad('Invalid message(s)'));
  t.same(flagsOf(s, denmark, CORDELIA), [], 'nothing changed');
  t.same(events, []);
  t.equal((await flag(s, CORDELIA, { messages: [denmark], op: 'add', flag: 'starred' })).status, 200);
  t.same(flagsOf(s, denmark, CORDELIA), ['historical', 'read', 'starred']);
});

t.test('IDs already in the wanted state (or unknown, where nothing could change) are left out of the event from level 155', async (t) => {
  for (const [level, listed] of [[415, 'changed'], [155, 'changed'], [154, 'requested']] as const) {
    const s = testServer({ featureLevel: level });
    const a = await send(s);
    const b = await send(s);
    await flag(s, OTHELLO, { messages: [a], op: 'add', flag: 'starred' });
    const events = recordEvents(s);
    t.equal((await flag(s, OTHELLO, { messages: [a, b], op: 'add', flag: 'starred' })).status, 200);
    t.same(events[0]?.event.messages, listed === 'changed' ? [b] : [a, b], `level ${level}`);
    t.equal((await flag(s, OTHELLO, { messages: [999_999], op: 'add', flag: 'read' })).status, 200, 'an unknown ID that would not change');
    t.same(events[1]?.event.messages, listed === 'changed' ? [] : [999_999], 'the event is sent even when nothing changed');
  }
});

t.test('marking unread skips unsubscribed channels, reports them from level 355, and details the messages from level 121', async (t) => {
  const s = testServer();
  const verona = await send(s, 'Verona', HAMLET, 'hi @**Othello, the Moor of Venice**');
  const denmark = await send(s, 'Denmark');
  const dm = (await s.as(HAMLET).post('/messages', { type: 'direct', to: [s.id(OTHELLO)], content: 'x' })).body.id as number;
  await s.as(OTHELLO).post('/messages/flags', { messages: [verona, dm], op: 'add', flag: 'read' });
  await s.as(OTHELLO).delete('/users/me/subscriptions', { subscriptions: ['Denmark'] });
  const events = recordEvents(s);
  const reply = await flag(s, OTHELLO, { messages: [verona, denmark, dm], op: 'remove', flag: 'read' });
  t.same(reply.body, { result: 'success', msg: '', messages: [verona, denmark, dm], ignored_because_not_subscribed_channels: [s.streamId('Denmark')] });
  t.notOk(flagsOf(s, verona, OTHELLO).includes('read'));
  t.ok(flagsOf(s, denmark, OTHELLO).includes('read'), 'the unsubscribed channel stays read');
  t.same(events.map((e) => e.event), [
    {
      type: 'update_message_flags',
      op: 'remove',
      operation: 'remove',
      flag: 'read',
      messages: [verona, dm],
      all: false,
      message_details: {
        [verona]: { type: 'stream', stream_id: s.streamId('Verona'), topic: 'lunch', unmuted_stream_msg: true, mentioned: true },
        [dm]: { type: 'private', user_ids: [s.id(HAMLET)] },
      },
    },
  ]);
  t.same(errorOf(await flag(s, OTHELLO, { messages: [999_999], op: 'remove', flag: 'read' })), bad('Invalid message(s)'), 'an unknown ID would need a row');
});

t.test('older levels: no ignored channels before 355, no message_details before 121, no op before 32', async (t) => {
  const s354 = testServer({ featureLevel: 354 });
  const id = await send(s354);
  t.same((await flag(s354, OTHELLO, { messages: [id], op: 'add', flag: 'starred' })).body, { result: 'success', msg: '', messages: [id] });
  const s120 = testServer({ featureLevel: 120 });
  const old = await send(s120);
  const events = recordEvents(s120);
  await flag(s120, HAMLET, { messages: [old], op: 'remove', flag: 'read' });
  t.same(events[0]?.event, { type: 'update_message_flags', op: 'remove', operation: 'remove', flag: 'read', messages: [old], all: false });
  const s31 = testServer({ featureLevel: 31 });
  const ancient = await send(s31);
  const legacy = recordEvents(s31);
  await flag(s31, OTHELLO, { messages: [ancient], op: 'add', flag: 'read' });
  t.same(legacy[0]?.event, { type: 'update_message_flags', operation: 'add', flag: 'read', messages: [ancient], all: false });
});

t.test('mark_all_as_read reads every row and says so with all: true; complete from level 211', async (t) => {
  const s = testServer();
  const a = await send(s);
  const b = await send(s, 'Denmark');
  const events = recordEvents(s);
  t.same((await s.as(OTHELLO).post('/mark_all_as_read')).body, { result: 'success', msg: '', complete: true });
  t.ok(flagsOf(s, a, OTHELLO).includes('read') && flagsOf(s, b, OTHELLO).includes('read'));
  t.same(events, [{ event: { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [], all: true }, userIds: [s.id(OTHELLO)] }]);
  const old = testServer({ featureLevel: 210 });
  t.same((await old.as(OTHELLO).post('/mark_all_as_read')).body, { result: 'success', msg: '' });
});

t.test('mark_stream_as_read reads the user\'s messages of one channel, with an event only when something changed', async (t) => {
  const s = testServer();
  const verona = await send(s);
  const denmark = await send(s, 'Denmark');
  const events = recordEvents(s);
  t.same((await s.as(OTHELLO).post('/mark_stream_as_read', { stream_id: s.streamId('Verona') })).body, { result: 'success', msg: '' });
  t.ok(flagsOf(s, verona, OTHELLO).includes('read'));
  t.notOk(flagsOf(s, denmark, OTHELLO).includes('read'));
  await s.as(OTHELLO).post('/mark_stream_as_read', { stream_id: s.streamId('Verona') });
  t.same(events.map((e) => e.event.messages), [[verona]]);
  const invalid = bad('Invalid channel ID');
  t.same(errorOf(await s.as(OTHELLO).post('/mark_stream_as_read', { stream_id: 999_999 })), invalid);
  t.same(errorOf(await s.as(OTHELLO).post('/mark_stream_as_read', { stream_id: s.streamId('core team') })), invalid);
  t.same(errorOf(await s.as(OTHELLO).post('/mark_stream_as_read', {})), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'stream_id' argument" });
});
