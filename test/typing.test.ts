import t from 'tap';
import {
  addSubscribedMembers,
  bad,
  CORDELIA,
  HAMLET,
  IAGO,
  OTHELLO,
  POLONIUS,
  recordEvents,
  sortedIds,
  userOf,
} from './support/channels.js';
import { errorOf, testServer, type TestServer } from './support/harness.js';

const typing = (s: TestServer, email: string, params: Record<string, unknown>) => s.as(email).post('/typing', params);
const person = (s: TestServer, email: string) => ({ user_id: s.id(email), email: `user${s.id(email)}@zulipdev.com` });
const subscribers = (s: TestServer, channel: string) => sortedIds(s.world.subscriptions.get(s.streamId(channel))!.keys());

t.test('direct typing: recipients in request order with the sender appended, sent to each of them', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  const reply = await typing(s, HAMLET, { op: 'start', to: [s.id(OTHELLO), s.id(CORDELIA)] });
  t.same(reply.body, { result: 'success', msg: '' });
  t.same(events, [
    {
      event: {
        type: 'typing',
        message_type: 'direct',
        op: 'start',
        sender: person(s, HAMLET),
        recipients: [person(s, OTHELLO), person(s, CORDELIA), person(s, HAMLET)],
      },
      userIds: sortedIds([s.id(HAMLET), s.id(OTHELLO), s.id(CORDELIA)]),
    },
  ]);
  await typing(s, HAMLET, { op: 'stop', to: [s.id(HAMLET), s.id(OTHELLO)], type: 'direct' });
  t.same(events[1]!.event.recipients, [person(s, HAMLET), person(s, OTHELLO)], 'the sender is not added twice');
  t.equal(events[1]!.event.op, 'stop');
});

t.test('deactivated recipients and cross-realm bots are accepted; only active receivers get the event', async (t) => {
  const s = testServer();
  userOf(s, OTHELLO).isActive = false;
  userOf(s, CORDELIA).settings.set('receives_typing_notifications', false);
  const events = recordEvents(s);
  t.equal((await typing(s, HAMLET, { op: 'start', to: [s.id(OTHELLO), s.id(CORDELIA), s.id(IAGO), 4] })).status, 200);
  t.equal((events[0]!.event.recipients as unknown[]).length, 5);
  t.same(events[0]!.userIds, sortedIds([4, s.id(HAMLET), s.id(IAGO)]));
});

t.test('receives_typing_notifications exists from level 253', async (t) => {
  const s = testServer({ featureLevel: 252 });
  userOf(s, CORDELIA).settings.set('receives_typing_notifications', false);
  const events = recordEvents(s);
  await typing(s, HAMLET, { op: 'start', to: [s.id(CORDELIA)] });
  t.ok(events[0]!.userIds.includes(s.id(CORDELIA)));
});

t.test('direct typing errors, in order, with the exact messages', async (t) => {
  const s = testServer();
  const missing = await typing(s, HAMLET, { op: 'start' });
  t.same(errorOf(missing), bad("Missing 'to' argument"));
  t.notOk('var_name' in missing.body, 'raised by the view, not by the parameter reader');
  t.same(errorOf(await typing(s, HAMLET, { op: 'start', to: null })), bad("Missing 'to' argument"));
  t.same(errorOf(await typing(s, HAMLET, { op: 'start', to: [] })), bad("Empty 'to' list"));
  t.same(errorOf(await typing(s, HAMLET, { op: 'start', to: [s.id(OTHELLO), 9999999] })), bad('Invalid user ID 9999999'));
  userOf(s, HAMLET).settings.set('send_private_typing_notifications', false);
  const events = recordEvents(s);
  t.same(
    errorOf(await typing(s, HAMLET, { op: 'start', to: [9999999] })),
    bad('User has disabled typing notifications for direct messages'),
    'the setting is checked before the IDs',
  );
  t.same(events, []);
});

t.test('parameter shapes: op, type, to and stream_id', async (t) => {
  const s = testServer();
  const noOp = await typing(s, HAMLET, { to: [s.id(OTHELLO)] });
  t.same(errorOf(noOp), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'op' argument" });
  t.equal(noOp.body.var_name, 'op');
  t.same(errorOf(await typing(s, HAMLET, { op: 'foo', to: [s.id(OTHELLO)] })), bad('Invalid op'));
  t.same(errorOf(await typing(s, HAMLET, { op: 'start', type: 'invalid', to: [s.id(OTHELLO)] })), bad('Invalid type'));
  t.same(errorOf(await typing(s, HAMLET, { op: 'start', to: '2' })), bad('to is not a list'));
  t.same(errorOf(await typing(s, HAMLET, { op: 'start', to: '[2,"a",4]' })), bad('to[1] is not an integer'));
  t.same(errorOf(await typing(s, HAMLET, { op: 'start', type: 'stream', stream_id: 'invalid', topic: 'x' })), bad('stream_id is not valid JSON'));
});

t.test('type: private refused from 215, channel accepted from 248, direct the default from 174', async (t) => {
  const s = testServer();
  t.same(errorOf(await typing(s, HAMLET, { op: 'start', type: 'private', to: [s.id(OTHELLO)] })), bad('Invalid type'));
  const at214 = testServer({ featureLevel: 214 });
  const events = recordEvents(at214);
  t.equal((await typing(at214, HAMLET, { op: 'start', type: 'private', to: [at214.id(OTHELLO)] })).status, 200);
  t.equal(events[0]!.event.message_type, 'private', 'direct typing events said private before 215');
  t.same(errorOf(await typing(at214, HAMLET, { op: 'start', type: 'channel', to: [3], topic: 'x' })), bad('Invalid type'));
  const at248 = testServer({ featureLevel: 248 });
  t.equal((await typing(at248, HAMLET, { op: 'start', type: 'channel', stream_id: 3, topic: 'x' })).status, 200);
  t.same(errorOf(await typing(testServer({ featureLevel: 247 }), HAMLET, { op: 'start', type: 'channel', stream_id: 3, topic: 'x' })), bad('Invalid type'));
  const at173 = testServer({ featureLevel: 173 });
  t.same(errorOf(await typing(at173, HAMLET, { op: 'start', type: 'direct', to: [at173.id(OTHELLO)] })), bad('Invalid type'));
  t.equal((await typing(at173, HAMLET, { op: 'start', to: [at173.id(OTHELLO)] })).status, 200, 'private is the default');
});

t.test('before level 58 there is no type, and events carry no message_type', async (t) => {
  const s = testServer({ featureLevel: 57 });
  const events = recordEvents(s);
  t.equal((await typing(s, HAMLET, { op: 'start', type: 'stream', to: [s.id(OTHELLO)] })).status, 200);
  t.notOk('message_type' in events[0]!.event);
  t.same(events[0]!.event.recipients, [person(s, OTHELLO), person(s, HAMLET)]);
});

t.test('channel typing: stream_id and topic, sent to the active subscribers who receive typing notifications', async (t) => {
  const s = testServer();
  userOf(s, OTHELLO).settings.set('receives_typing_notifications', false);
  userOf(s, CORDELIA).isActive = false;
  const events = recordEvents(s);
  const verona = s.streamId('Verona');
  t.equal((await typing(s, HAMLET, { op: 'start', type: 'stream', stream_id: verona, topic: '  lunch  ' })).status, 200);
  t.same(events[0]!.event, { type: 'typing', message_type: 'stream', op: 'start', sender: person(s, HAMLET), stream_id: verona, topic: 'lunch' });
  t.same(events[0]!.userIds, subscribers(s, 'Verona').filter((id) => id !== s.id(OTHELLO) && id !== s.id(CORDELIA)));
});

t.test('channel typing errors, in order, with the exact messages', async (t) => {
  const s = testServer();
  const noStream = await typing(s, HAMLET, { op: 'start', type: 'channel', topic: 'x' });
  t.same(errorOf(noStream), bad("Missing 'stream_id' argument"));
  t.notOk('var_name' in noStream.body);
  t.same(errorOf(await typing(s, HAMLET, { op: 'start', type: 'channel', stream_id: 3 })), bad('Missing topic'));
  t.same(errorOf(await typing(s, HAMLET, { op: 'start', type: 'channel', stream_id: 9999, topic: 'x' })), bad('Invalid channel ID'));
  t.same(errorOf(await typing(s, OTHELLO, { op: 'start', type: 'channel', stream_id: s.streamId('core team'), topic: 'x' })), bad('Invalid channel ID'));
  t.same(errorOf(await typing(s, POLONIUS, { op: 'start', type: 'channel', stream_id: s.streamId('Denmark'), topic: 'x' })), bad('Invalid channel ID'));
  t.same(
    errorOf(await typing(s, HAMLET, { op: 'start', type: 'channel', stream_id: s.streamId('announce'), topic: 'x' })),
    bad('You do not have permission to post in this channel.'),
  );
  t.equal((await typing(s, IAGO, { op: 'start', type: 'channel', stream_id: s.streamId('announce'), topic: 'x' })).status, 200);
  s.world.streamByName('Denmark')!.isArchived = true;
  t.same(errorOf(await typing(s, HAMLET, { op: 'start', type: 'channel', stream_id: s.streamId('Denmark'), topic: 'x' })), bad('Invalid channel ID'));
  userOf(s, HAMLET).settings.set('send_stream_typing_notifications', false);
  t.same(
    errorOf(await typing(s, HAMLET, { op: 'start', type: 'channel', stream_id: 9999, topic: 'x' })),
    bad('User has disabled typing notifications for channel messages'),
    'the setting is checked before the channel',
  );
});

t.test('group-based access to a private channel allows typing only with shared history', async (t) => {
  const s = testServer();
  const core = s.world.streamByName('core team')!;
  core.settings.set('can_add_subscribers_group', { kind: 'anonymous', members: new Set([s.id(OTHELLO)]), subgroups: new Set() });
  const params = { op: 'start', type: 'channel', stream_id: core.id, topic: 'x' };
  t.same(errorOf(await typing(s, OTHELLO, params)), bad("Not authorized to send to channel 'core team'"));
  core.historyPublicToSubscribers = true;
  t.equal((await typing(s, OTHELLO, params)).status, 200);
});

t.test('the send settings exist from level 105', async (t) => {
  const s = testServer({ featureLevel: 104 });
  userOf(s, HAMLET).settings.set('send_private_typing_notifications', false);
  t.equal((await typing(s, HAMLET, { op: 'start', to: [s.id(OTHELLO)] })).status, 200);
});

t.test("'general chat' (level 334) and '(no topic)' (level 372) mean the empty topic", async (t) => {
  const cases: Array<[number, string, string]> = [
    [333, 'general chat', 'general chat'],
    [334, 'general chat', ''],
    [371, '(no topic)', '(no topic)'],
    [372, '(no topic)', ''],
    [415, 'General chat', 'General chat'],
  ];
  for (const [level, sent, stored] of cases) {
    const s = testServer({ featureLevel: level });
    const events = recordEvents(s);
    await typing(s, HAMLET, { op: 'start', type: 'stream', stream_id: 3, topic: sent });
    t.equal(events[0]!.event.topic, stored, `level ${level}: ${sent}`);
  }
});

t.test('subject is an alias of topic; sending both is REQUEST_CONFUSING_VAR', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  t.equal((await typing(s, HAMLET, { op: 'start', type: 'stream', stream_id: 3, subject: 'old name' })).status, 200);
  t.equal(events[0]!.event.topic, 'old name');
  const both = await typing(s, HAMLET, { op: 'start', type: 'stream', stream_id: 3, topic: 'a', subject: 'b' });
  t.same(errorOf(both), { status: 400, code: 'REQUEST_CONFUSING_VAR', msg: "Can't decide between 'topic' and 'subject' arguments" });
  t.same([both.body.var_name1, both.body.var_name2], ['topic', 'subject']);
});

t.test('channels with more than 100 active subscribers get no typing events, yet the request succeeds', async (t) => {
  const s = testServer();
  const denmark = s.streamId('Denmark');
  addSubscribedMembers(s, denmark, 100 - subscribers(s, 'Denmark').length);
  const events = recordEvents(s);
  await typing(s, HAMLET, { op: 'start', type: 'stream', stream_id: denmark, topic: 'x' });
  t.equal(events[0]!.userIds.length, 100, 'exactly 100 still get it');
  addSubscribedMembers(s, denmark, 1);
  const reply = await typing(s, HAMLET, { op: 'start', type: 'stream', stream_id: denmark, topic: 'x' });
  t.same(reply.body, { result: 'success', msg: '' });
  t.equal(events.length, 1, 'no event for 101 subscribers');
});

t.test('before level 215 channel typing named the channel in to, and to was required', async (t) => {
  const s = testServer({ featureLevel: 214 });
  const events = recordEvents(s);
  t.equal((await typing(s, HAMLET, { op: 'start', type: 'stream', to: [3], topic: 'x' })).status, 200);
  t.match(events[0]!.event, { message_type: 'stream', stream_id: 3, topic: 'x' });
  const missing = await typing(s, HAMLET, { op: 'start', type: 'stream', topic: 'x' });
  t.same(errorOf(missing), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'to' argument" });
  t.same(errorOf(await typing(s, HAMLET, { op: 'start', type: 'stream', to: [3, 4], topic: 'x' })), bad('Cannot send to multiple streams'));
  t.same(errorOf(await typing(s, HAMLET, { op: 'start', type: 'stream', to: [] })), bad("Empty 'to' list"));
  const ignored = await typing(s, HAMLET, { op: 'start', type: 'stream', to: [3], topic: 'x', stream_id: 4 });
  t.same(ignored.body.ignored_parameters_unsupported, ['stream_id']);
});

t.test('bad input never yields a server error', async (t) => {
  const s = testServer();
  const values = ['', 'null', '[]', '[null]', '{}', '1e999', '"x"', '-1', '[1e999]', '[99999999999999999999]', '{"__proto__":1}'];
  for (const name of ['to', 'op', 'type', 'stream_id', 'topic']) {
    for (const value of values) {
      for (const type of ['direct', 'stream']) {
        const reply = await typing(s, HAMLET, { op: 'start', type, to: [s.id(OTHELLO)], stream_id: 3, topic: 'x', [name]: value });
        t.ok(reply.status < 500, `${type} ${name}=${value} -> ${reply.status}`);
      }
    }
  }
});
