import t from 'tap';
import {
  activeIds,
  bad,
  channelState,
  DESDEMONA,
  HAMLET,
  IAGO,
  ofType,
  OTHELLO,
  POLONIUS,
  recordEvents,
  userOf,
  ZOE,
} from './support/channels.js';
import { errorOf, testServer, type TestServer } from './support/harness.js';

const unsub = (s: TestServer, email: string, params: Record<string, unknown>) => s.as(email).delete('/users/me/subscriptions', params);
const active = (s: TestServer, channel: string, email: string) => s.world.subscriptions.get(s.streamId(channel))?.get(s.id(email))?.active === true;

t.test('unsubscribing yourself answers removed and not_removed and tells you and your peers', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  const reply = await unsub(s, HAMLET, { subscriptions: ['Denmark', 'Scotland'] });
  t.same(reply.body, { result: 'success', msg: '', removed: ['Denmark'], not_removed: ['Scotland'] });
  t.notOk(active(s, 'Denmark', HAMLET));
  const denmark = s.streamId('Denmark');
  // Unread messages of the channel also become read (a separate test covers those flags).
  const subscriptionEvents = events.filter((e) => e.event.type === 'subscription');
  t.same(subscriptionEvents.map((e) => e.event), [
    { type: 'subscription', op: 'remove', subscriptions: [{ name: 'Denmark', stream_id: denmark }] },
    { type: 'subscription', op: 'peer_remove', stream_ids: [denmark], user_ids: [s.id(HAMLET)] },
  ]);
  t.same(subscriptionEvents[0]!.userIds, [s.id(HAMLET)]);
  t.same(subscriptionEvents[1]!.userIds, activeIds(s, { guests: false }).filter((u) => u !== s.id(HAMLET)));
});

t.test('names are stripped and matched case-insensitively; the stored name is answered', async (t) => {
  const s = testServer();
  t.same((await unsub(s, HAMLET, { subscriptions: ['  denmark '] })).body.removed, ['Denmark']);
});

t.test('unknown channels give Channel(s) (...) do not exist and change nothing', async (t) => {
  const s = testServer();
  const before = channelState(s);
  t.same(errorOf(await unsub(s, HAMLET, { subscriptions: ['Denmark', 'nope', '__proto__'] })), bad('Channel(s) (nope, __proto__) do not exist'));
  t.equal(channelState(s), before);
});

t.test('for an unknown name the public-channel creation check runs first (reference section 4, step 5)', async (t) => {
  const s = testServer();
  t.same(errorOf(await unsub(s, POLONIUS, { subscriptions: ['nope'] })), bad('Insufficient permission'), 'guests may not create channels');
  t.same((await unsub(s, POLONIUS, { subscriptions: ['Verona'] })).body.removed, ['Verona']);
});

t.test('channel names are validated before lookup', async (t) => {
  const s = testServer();
  t.same(errorOf(await unsub(s, HAMLET, { subscriptions: ['   '] })), bad("Channel name can't be empty."));
  t.same(errorOf(await unsub(s, HAMLET, { subscriptions: ['x'.repeat(61)] })), bad('Channel name too long (limit: 60 characters).'));
  t.same(errorOf(await unsub(s, HAMLET, { subscriptions: ['ab\u0000'] })), bad('Invalid character in channel name, at position 3.'));
});

t.test('subscriptions is a required JSON list of strings', async (t) => {
  const s = testServer();
  t.same(errorOf(await unsub(s, HAMLET, {})), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'subscriptions' argument" });
  t.same(errorOf(await unsub(s, HAMLET, { subscriptions: [1] })), bad('subscriptions[0] is not a string'));
  t.same(errorOf(await unsub(s, HAMLET, { subscriptions: 'Denmark' })), bad('subscriptions is not valid JSON'));
});

t.test('a channel you are not in goes to not_removed without any access check', async (t) => {
  const s = testServer();
  t.same((await unsub(s, OTHELLO, { subscriptions: ['core team'] })).body, { result: 'success', msg: '', removed: [], not_removed: ['core team'] });
});

t.test('removing others needs administrator rights, channel administration or can_remove_subscribers_group', async (t) => {
  const s = testServer();
  const othello = s.id(OTHELLO);
  const before = channelState(s);
  t.same(errorOf(await unsub(s, HAMLET, { subscriptions: ['Denmark'], principals: [othello] })), bad('Insufficient permission'));
  t.equal(channelState(s), before);
  t.same((await unsub(s, IAGO, { subscriptions: ['Denmark'], principals: [othello] })).body.removed, ['Denmark']);
  const scotland = s.world.streamByName('Scotland')!;
  scotland.settings.set('can_remove_subscribers_group', { kind: 'anonymous', members: new Set([s.id(HAMLET)]), subgroups: new Set() });
  t.same((await unsub(s, HAMLET, { subscriptions: ['Scotland'], principals: [othello] })).body.removed, ['Scotland']);
  const verona = s.world.streamByName('Verona')!;
  verona.settings.set('can_administer_channel_group', { kind: 'anonymous', members: new Set([s.id(HAMLET)]), subgroups: new Set() });
  t.same((await unsub(s, HAMLET, { subscriptions: ['Verona'], principals: [othello] })).body.removed, ['Verona']);
  t.same(
    errorOf(await unsub(s, HAMLET, { subscriptions: ['Verona', 'Rome'], principals: [s.id(ZOE)] })),
    bad('Insufficient permission'),
    'the permission is needed on every named channel',
  );
});

t.test('administrators may remove others from private channels they are not in from level 349', async (t) => {
  for (const [level, ok] of [[348, false], [349, true]] as const) {
    const s = testServer({ featureLevel: level });
    s.world.subscriptions.get(s.streamId('core team'))!.get(s.id(IAGO))!.active = false;
    const reply = await unsub(s, IAGO, { subscriptions: ['core team'], principals: [s.id(HAMLET)] });
    if (ok) t.same(reply.body.removed, ['core team'], `level ${level}`);
    else t.same(errorOf(reply), bad('Insufficient permission'), `level ${level}`);
  }
});

t.test('you may remove your own bots without permission from level 145', async (t) => {
  for (const [level, ok] of [[144, false], [145, true]] as const) {
    const s = testServer({ featureLevel: level });
    await s.as(IAGO).post('/users/me/subscriptions', { subscriptions: [{ name: 'Venice' }], principals: [17] });
    const reply = await unsub(s, ZOE, { subscriptions: ['Venice'], principals: [17] });
    if (ok) t.same(reply.body.removed, ['Venice'], `level ${level}`);
    else t.same(errorOf(reply), bad('Insufficient permission'), `level ${level}`);
  }
});

t.test('principals are checked first, with the level-208 status change', async (t) => {
  const s = testServer();
  t.same(errorOf(await unsub(s, IAGO, { subscriptions: ['nope'], principals: [999] })), bad('No such user'));
  userOf(s, OTHELLO).isActive = false;
  t.same(errorOf(await unsub(s, IAGO, { subscriptions: ['Denmark'], principals: [s.id(OTHELLO)] })), bad('User is deactivated'));
  const old = testServer({ featureLevel: 207 });
  t.same(errorOf(await unsub(old, IAGO, { subscriptions: ['Denmark'], principals: [999] })), {
    status: 403,
    code: 'UNAUTHORIZED_PRINCIPAL',
    msg: "User not authorized to execute queries on behalf of '999'",
  });
  t.same((await unsub(s, HAMLET, { subscriptions: ['Denmark'], principals: [] })).body.removed, ['Denmark'], '[] means yourself');
});

t.test('one entry per user and channel pair', async (t) => {
  const s = testServer();
  const reply = await unsub(s, IAGO, { subscriptions: ['Denmark', 'Rome'], principals: [s.id(HAMLET), s.id(OTHELLO)] });
  t.same(reply.body, { result: 'success', msg: '', removed: ['Denmark', 'Denmark'], not_removed: ['Rome', 'Rome'] });
});

t.test('leaving a channel you can no longer see sends stream/delete (IDs from level 343)', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  await unsub(s, HAMLET, { subscriptions: ['core team'] });
  const core = s.streamId('core team');
  t.same(ofType(events, 'stream', 'delete').map((e) => [e.event, e.userIds]), [
    [{ type: 'stream', op: 'delete', streams: [{ stream_id: core }], stream_ids: [core] }, [s.id(HAMLET)]],
  ]);
  t.same(ofType(events, 'subscription', 'peer_remove')[0]!.userIds, [s.id(DESDEMONA), s.id(IAGO)]);
  const admin = recordEvents(s);
  await unsub(s, IAGO, { subscriptions: ['core team'] });
  t.same(ofType(admin, 'stream', 'delete'), [], 'administrators still see it');
  const guest = recordEvents(s);
  await unsub(s, POLONIUS, { subscriptions: ['Verona'] });
  t.equal(ofType(guest, 'stream', 'delete').length, 1, 'a guest loses sight of a public channel');
  const old = testServer({ featureLevel: 342 });
  const oldEvents = recordEvents(old);
  await unsub(old, HAMLET, { subscriptions: ['core team'] });
  t.match(ofType(oldEvents, 'stream', 'delete')[0]!.event, { streams: [{ stream_id: core, name: 'core team' }] });
  t.notOk('stream_ids' in ofType(oldEvents, 'stream', 'delete')[0]!.event);
});

t.test('archived channels can be left from level 362', async (t) => {
  for (const [level, ok] of [[361, false], [362, true]] as const) {
    const s = testServer({ featureLevel: level });
    s.world.streamByName('Denmark')!.isArchived = true;
    const reply = await unsub(s, HAMLET, { subscriptions: ['Denmark'] });
    if (ok) t.same(reply.body.removed, ['Denmark'], `level ${level}`);
    else t.same(errorOf(reply), bad('Channel(s) (Denmark) do not exist'), `level ${level}`);
  }
});

t.test("the removed channels' unread messages become read, with one update_message_flags event per channel", async (t) => {
  const s = testServer();
  const send = async (channel: string, email = OTHELLO) =>
    (await s.as(email).post('/messages', { type: 'stream', to: channel, topic: 'news', content: 'hi' })).body.id as number;
  const unreadBefore = [...s.world.messages.values()]
    .filter((m) => m.recipient.kind === 'stream' && m.recipient.streamId === s.streamId('Denmark') && m.flags.get(s.id(HAMLET))?.has('read') === false)
    .map((m) => m.id);
  const denmark = [...unreadBefore, await send('Denmark'), await send('Denmark')];
  const verona = await send('Verona');
  const ownMessage = await send('Denmark', HAMLET);
  const events = recordEvents(s);
  await unsub(s, HAMLET, { subscriptions: ['Denmark', 'Scotland'] });
  const flags = ofType(events, 'update_message_flags');
  t.same(flags.map((e) => [e.event, e.userIds]), [
    [{ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: denmark, all: false }, [s.id(HAMLET)]],
  ], 'already-read messages (your own) are not listed');
  for (const id of [...denmark, ownMessage]) t.ok(s.world.messages.get(id)!.flags.get(s.id(HAMLET))!.has('read'));
  t.notOk(s.world.messages.get(verona)!.flags.get(s.id(HAMLET))!.has('read'), 'other channels are untouched');
  events.length = 0;
  await s.as(HAMLET).post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }] });
  await unsub(s, HAMLET, { subscriptions: ['Denmark'] });
  t.same(ofType(events, 'update_message_flags'), [], 'nothing left unread: no event');
});

t.test('bad input never yields a server error', async (t) => {
  const s = testServer();
  for (const value of ['', 'null', '{}', '[null]', '[[]]', '1e999', '["\\ud800"]', '{"__proto__": []}']) {
    for (const name of ['subscriptions', 'principals']) {
      const reply = await unsub(s, IAGO, { subscriptions: ['Denmark'], [name]: value });
      t.ok(reply.status < 500, `${name}=${value} -> ${reply.status}`);
    }
  }
});
