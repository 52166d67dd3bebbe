/**
 * POST /messages/flags/narrow: the window it processes, the counts it answers, the flags a user
 * may change, historical rows, the update_message_flags event (payload, recipient,
 * convergence) and its level.
 */
import t from 'tap';
import { checkEventsConvergeFor } from './support/apply-events.js';
import { checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { recordEvents } from './support/events.js';
import { errorOf, testServer, withoutSeededMessages, type TestServer } from './support/harness.js';
import { sendDirect, sendToChannel } from './support/messages.js';

const HAMLET = 'hamlet@zulip.com';
const OTHELLO = 'othello@zulip.com';

async function threeInVerona(s: TestServer): Promise<number[]> {
  const ids: number[] = [];
  for (const content of ['one', 'two', 'three']) ids.push(await sendToChannel(s, OTHELLO, 'Verona', 'lunch', content));
  return ids;
}

const flagsOf = (s: TestServer, id: number, email = HAMLET): string[] => [...(s.world.messages.get(id)?.flags.get(s.id(email)) ?? [])].sort();
const base = { anchor: 'oldest', num_before: 0, num_after: 100, narrow: [['stream', 'Verona']] };

t.test('marks the window read and answers what it processed', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const [a, b, c] = (await threeInVerona(s)) as [number, number, number];
  const other = await sendToChannel(s, OTHELLO, 'Denmark', 'x', 'elsewhere');
  s.world.messages.get(b)?.flags.get(s.id(HAMLET))?.add('read');
  const reply = await s.as(HAMLET).post('/messages/flags/narrow', { ...base, op: 'add', flag: 'read' });
  t.same(reply.body, {
    result: 'success',
    msg: '',
    processed_count: 3,
    updated_count: 2,
    first_processed_id: a,
    last_processed_id: c,
    found_oldest: true,
    found_newest: true,
    ignored_because_not_subscribed_channels: [],
  });
  t.ok([a, b, c].every((id) => flagsOf(s, id).includes('read')));
  t.notOk(flagsOf(s, other).includes('read'), 'outside the narrow');
});

t.test('the anchor window limits what is processed', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const [a, b, c] = (await threeInVerona(s)) as [number, number, number];
  const reply = await s.as(HAMLET).post('/messages/flags/narrow', { ...base, anchor: String(b), num_after: 1, include_anchor: false, op: 'add', flag: 'starred' });
  t.match(reply.body, { processed_count: 1, updated_count: 1, first_processed_id: c, last_processed_id: c, found_oldest: false, found_newest: false });
  t.same([flagsOf(s, a), flagsOf(s, c)], [[], ['starred']]);
  const empty = await s.as(HAMLET).post('/messages/flags/narrow', { ...base, narrow: [['stream', 'Rome']], op: 'add', flag: 'starred' });
  t.match(empty.body, { processed_count: 0, updated_count: 0, first_processed_id: null, last_processed_id: null, found_oldest: true, found_newest: true });
});

t.test('one update_message_flags event to the user alone, with the changed IDs; the reader converges', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const [a, b] = (await threeInVerona(s)) as [number, number, number];
  s.world.messages.get(b)?.flags.get(s.id(HAMLET))?.add('starred');
  const everyone = listenAll(s);
  const [hamlet] = await checkEventsConvergeFor(t, [s.as(HAMLET)], {
    fetchEventTypes: ['message'],
    eventTypes: ['update_message_flags'],
    action: () => s.as(HAMLET).post('/messages/flags/narrow', { ...base, op: 'add', flag: 'starred' }),
  });
  checkEventShapes(t, hamlet ?? []);
  const c = a + 2;
  t.same(
    (hamlet ?? []).map(({ id: _id, ...e }) => e),
    [{ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [a, c], all: false }],
  );
  checkRecipients(t, everyone.received(), isEvent('update_message_flags'), [s.id(HAMLET)], 'update_message_flags');
  const events = recordEvents(s);
  await s.as(HAMLET).post('/messages/flags/narrow', { ...base, op: 'add', flag: 'starred' });
  // As the real server's do_update_message_flags: the event is sent even when nothing changed.
  t.same(
    events.map(({ event: { id: _id, ...e }, userIds }) => [e, userIds]),
    [[{ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [], all: false }, [s.id(HAMLET)]]],
    'nothing changed: one event with no messages',
  );
});

t.test('marking unread sends message_details and skips channels the user left', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const [a] = (await threeInVerona(s)) as [number, number, number];
  const dm = await sendDirect(s, OTHELLO, [s.id(HAMLET), 8], 'group hi');
  for (const id of [a, dm]) s.world.messages.get(id)?.flags.get(s.id(HAMLET))?.add('read');
  const denmark = await sendToChannel(s, OTHELLO, 'Denmark', 'x', 'left');
  s.world.messages.get(denmark)?.flags.get(s.id(HAMLET))?.add('read');
  await s.as(HAMLET).delete('/users/me/subscriptions', { subscriptions: JSON.stringify(['Denmark']) });
  let reply: Awaited<ReturnType<ReturnType<TestServer['as']>['post']>> | undefined;
  const [hamlet] = await checkEventsConvergeFor(t, [s.as(HAMLET)], {
    fetchEventTypes: ['message'],
    eventTypes: ['update_message_flags'],
    action: async () => {
      reply = await s.as(HAMLET).post('/messages/flags/narrow', { anchor: 'oldest', num_before: 0, num_after: 100, narrow: [], op: 'remove', flag: 'read' });
    },
  });
  t.match(reply?.body, { processed_count: 5, updated_count: 2 });
  checkEventShapes(t, hamlet ?? []);
  t.same((hamlet ?? []).map(({ id: _id, ...e }) => e), [
    {
      type: 'update_message_flags',
      op: 'remove',
      operation: 'remove',
      flag: 'read',
      messages: [a, dm],
      all: false,
      message_details: {
        [String(a)]: { type: 'stream', stream_id: s.streamId('Verona'), topic: 'lunch', unmuted_stream_msg: true },
        [String(dm)]: { type: 'private', user_ids: [8, s.id(OTHELLO)] },
      },
    },
  ]);
  t.ok(flagsOf(s, denmark).includes('read'), 'still read: not subscribed any more');
});

t.test('messages never received get a historical row, counted as updated', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const id = await sendToChannel(s, OTHELLO, 'Scotland', 'x', 'before hamlet');
  const reply = await s.as(HAMLET).post('/messages/flags/narrow', { ...base, narrow: [['stream', 'Scotland']], op: 'add', flag: 'starred' });
  t.match(reply.body, { processed_count: 1, updated_count: 1 });
  t.same(flagsOf(s, id), ['historical', 'read', 'starred']);
});

t.test('flag, operation and range errors are the real server\'s', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const id = (await threeInVerona(s))[0] as number;
  const cases: [string, Record<string, unknown>, string][] = [
    ['unknown flag', { flag: 'bogus', op: 'add' }, "Invalid flag: 'bogus'"],
    ['server-managed flag', { flag: 'mentioned', op: 'add' }, "Flag not editable: 'mentioned'"],
    ['historical is not editable', { flag: 'historical', op: 'remove' }, "Flag not editable: 'historical'"],
    ['unknown operation', { flag: 'read', op: 'toggle' }, "Invalid message flag operation: 'toggle'"],
    ['invalid anchor', { flag: 'read', op: 'add', anchor: 'x' }, 'Invalid anchor'],
    ['anchor excluded mid-range', { flag: 'read', op: 'add', anchor: String(id), num_before: 1, num_after: 1, include_anchor: false }, 'The anchor can only be excluded at an end of the range'],
  ];
  for (const [name, params, msg] of cases) {
    t.same(errorOf(await s.as(HAMLET).post('/messages/flags/narrow', { ...base, ...params })), { status: 400, code: 'BAD_REQUEST', msg }, name);
  }
  const narrowFirst = await s.as(HAMLET).post('/messages/flags/narrow', { ...base, narrow: [['is', 'x']], flag: 'bogus', op: 'add' });
  t.equal(narrowFirst.body.code, 'BAD_NARROW', 'the narrow is checked before the flag');
  const missing = await s.as(HAMLET).post('/messages/flags/narrow', { anchor: 'newest', num_before: 1, narrow: [], op: 'add', flag: 'read' });
  t.same(errorOf(missing), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'num_after' argument" });
  t.same(flagsOf(s, id), [], 'no error leaves a change behind');
});

t.test('the endpoint exists from level 155', async (t) => {
  const old = testServer({ fixture: withoutSeededMessages(), featureLevel: 154 });
  t.equal((await old.as(HAMLET).post('/messages/flags/narrow', { ...base, op: 'add', flag: 'read' })).status, 404);
  const current = testServer({ fixture: withoutSeededMessages(), featureLevel: 155 });
  t.equal((await current.as(HAMLET).post('/messages/flags/narrow', { ...base, op: 'add', flag: 'read' })).status, 200);
});
