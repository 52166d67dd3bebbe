import t from 'tap';
import { deleteAllDraftsOf } from '../lib/actions/personal/drafts.js';
import { draftsState } from '../lib/queries/personal/drafts.js';
import { recordEvents } from './support/events.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';

const streamDraft = (s: TestServer, extra: Record<string, unknown> = {}) => ({
  type: 'stream',
  to: [s.streamId('Verona')],
  topic: 'sync drafts',
  content: 'hello',
  ...extra,
});

async function createOne(s: TestServer, email: string, draft: Record<string, unknown>) {
  return s.as(email).post('/drafts', { drafts: [draft] });
}

t.test('GET /drafts lists only the caller\'s drafts, oldest edit first, with a count', async (t) => {
  const s = testServer();
  const iago = s.as(IAGO);
  await iago.post('/drafts', { drafts: [streamDraft(s, { content: 'new', timestamp: 2_000_000_000 })] });
  await iago.post('/drafts', { drafts: [streamDraft(s, { content: 'old', timestamp: 1_000 })] });
  await createOne(s, HAMLET, streamDraft(s, { content: 'not iago\'s' }));
  const reply = await iago.get('/drafts');
  t.equal(reply.status, 200);
  const contents = reply.body.drafts.map((d: { content: string }) => d.content);
  t.same(contents, ['old', 'Release 4.0 will contain ...', 'Release 4.0 will contain many new features!', 'new']);
  t.equal(reply.body.count, 4);
  t.same(Object.keys(reply.body.drafts[0]).sort(), ['content', 'id', 'timestamp', 'to', 'topic', 'type']);
});

t.test('POST /drafts returns the new IDs in input order and fills the timestamp from the clock', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  const reply = await s.as(HAMLET).post('/drafts', {
    drafts: [streamDraft(s), { type: 'private', to: [s.id(IAGO)], topic: 'ignored', content: 'dm' }],
  });
  t.equal(reply.status, 200);
  t.equal(reply.body.ids.length, 2);
  t.ok(reply.body.ids[0] < reply.body.ids[1]);
  const nowSeconds = Math.floor(s.clock.now() / 1000);
  const drafts = (await s.as(HAMLET).get('/drafts')).body.drafts;
  t.same(drafts, [
    { id: reply.body.ids[0], type: 'stream', to: [s.streamId('Verona')], topic: 'sync drafts', content: 'hello', timestamp: nowSeconds },
    { id: reply.body.ids[1], type: 'private', to: [s.id(IAGO)], topic: '', content: 'dm', timestamp: nowSeconds },
  ]);
  t.equal(events.length, 1);
  t.same(events[0]?.event, { type: 'drafts', op: 'add', drafts });
  t.same(events[0]?.userIds, [s.id(HAMLET)]);
});

t.test('an empty drafts list succeeds and still sends an add event', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  const reply = await s.as(HAMLET).post('/drafts', { drafts: [] });
  t.same(reply.body.ids, []);
  t.same(events.map((e) => e.event), [{ type: 'drafts', op: 'add', drafts: [] }]);
});

t.test('a missing drafts parameter is REQUEST_VARIABLE_MISSING', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(HAMLET).post('/drafts', {})), {
    status: 400,
    code: 'REQUEST_VARIABLE_MISSING',
    msg: "Missing 'drafts' argument",
  });
});

t.test('with synchronization disabled every drafts endpoint refuses before reading parameters', async (t) => {
  const s = testServer();
  s.world.users.get(s.id(IAGO))?.settings.set('enable_drafts_synchronization', false);
  const iago = s.as(IAGO);
  const expected = bad('User has disabled synchronizing drafts.');
  t.same(errorOf(await iago.get('/drafts')), expected);
  t.same(errorOf(await iago.post('/drafts', { drafts: 'not json' })), expected);
  t.same(errorOf(await iago.patch('/drafts/1', { draft: {} })), expected);
  t.same(errorOf(await iago.delete('/drafts/999999')), expected);
  t.equal([...s.world.drafts.values()].filter((d) => d.userId === s.id(IAGO)).length, 2);
});

t.test('draft objects are parsed strictly, with the location in the message', async (t) => {
  const s = testServer();
  const cases: Array<[unknown, string]> = [
    [{ ...streamDraft(s), id: 5 }, 'Argument "id" at drafts[0]["id"] is unexpected'],
    [{ ...streamDraft(s), type: 'channel' }, 'Invalid drafts[0]["type"]'],
    [{ ...streamDraft(s), type: 'direct' }, 'Invalid drafts[0]["type"]'],
    [{ ...streamDraft(s), to: [1, '2'] }, 'drafts[0]["to"][1] is not an integer'],
    [{ ...streamDraft(s), topic: 5 }, 'drafts[0]["topic"] is not a string'],
    [{ ...streamDraft(s), content: ' \n\t ' }, 'drafts[0]["content"] cannot be blank'],
    [{ ...streamDraft(s), timestamp: true }, 'drafts[0]["timestamp"] is not an integer'],
    // Field errors are reported before unexpected keys, as pydantic orders them.
    [{ ...streamDraft(s), id: 5, type: 'x' }, 'Invalid drafts[0]["type"]'],
  ];
  for (const [draft, msg] of cases) {
    t.same(errorOf(await s.as(HAMLET).post('/drafts', { drafts: [streamDraft(s), draft] })), bad(msg.replace('[0]', '[1]')), msg);
  }
  t.same(errorOf(await s.as(HAMLET).post('/drafts', { drafts: { not: 'a list' } })), bad('drafts is not a list'));
  t.equal([...s.world.drafts.values()].filter((d) => d.userId === s.id(HAMLET)).length, 0);
});

t.test('content is stripped, then normalised, checked for null bytes and truncated', async (t) => {
  const s = testServer();
  const hamlet = s.as(HAMLET);
  await createOne(s, HAMLET, streamDraft(s, { content: '  \n\nhello  world \n ' }));
  t.equal((await hamlet.get('/drafts')).body.drafts[0].content, 'hello  world');
  // U+001C survives pydantic's strip but not Python's rstrip: the body becomes empty.
  t.same(errorOf(await createOne(s, HAMLET, streamDraft(s, { content: '\u001c' }))), bad('Message must not be empty'));
  t.same(errorOf(await createOne(s, HAMLET, streamDraft(s, { content: 'a\u0000b' }))), bad('Message must not contain null bytes'));
  const long = '😎'.repeat(10_001);
  await createOne(s, HAMLET, streamDraft(s, { content: long }));
  const stored = (await hamlet.get('/drafts')).body.drafts[1].content as string;
  t.equal([...stored].length, 10_000);
  t.ok(stored.endsWith('\n[message truncated]'));
  t.ok(stored.startsWith('😎😎'));
  const exact = '😎'.repeat(10_000);
  await createOne(s, HAMLET, streamDraft(s, { content: exact }));
  t.equal((await hamlet.get('/drafts')).body.drafts[2].content, exact);
});

t.test('timestamps: negative refused before recipient checks, fractions truncated on output', async (t) => {
  const s = testServer();
  t.same(
    errorOf(await createOne(s, HAMLET, streamDraft(s, { to: [999999], timestamp: -1 }))),
    bad('Timestamp must not be negative.'),
  );
  await createOne(s, HAMLET, streamDraft(s, { timestamp: 1595479019.9999 }));
  await createOne(s, HAMLET, streamDraft(s, { timestamp: 0 }));
  await createOne(s, HAMLET, streamDraft(s, { timestamp: null }));
  const stamps = (await s.as(HAMLET).get('/drafts')).body.drafts.map((d: { timestamp: number }) => d.timestamp);
  t.same(stamps, [0, 1595479019, Math.floor(s.clock.now() / 1000)]);
});

t.test('channel drafts: topic truncated to 60 code points, null bytes, exactly one accessible channel', async (t) => {
  const s = testServer();
  const hamlet = s.as(HAMLET);
  await createOne(s, HAMLET, streamDraft(s, { topic: 'é'.repeat(61) }));
  t.equal((await hamlet.get('/drafts')).body.drafts[0].topic, `${'é'.repeat(57)}...`);
  t.same(errorOf(await createOne(s, HAMLET, streamDraft(s, { topic: 'a\u0000' }))), bad('Topic must not contain null bytes'));
  // The null byte is checked after truncation: one cut away is harmless.
  t.equal((await createOne(s, HAMLET, streamDraft(s, { topic: `${'x'.repeat(70)}\u0000` }))).status, 200);
  const one = bad('Must specify exactly 1 channel ID for channel messages');
  t.same(errorOf(await createOne(s, HAMLET, streamDraft(s, { to: [] }))), one);
  t.same(errorOf(await createOne(s, HAMLET, streamDraft(s, { to: [3, 4] }))), one);
  const invalid = bad('Invalid channel ID');
  t.same(errorOf(await createOne(s, HAMLET, streamDraft(s, { to: [999999] }))), invalid);
  t.same(errorOf(await createOne(s, 'othello@zulip.com', streamDraft(s, { to: [s.streamId('core team')] }))), invalid);
  t.same(errorOf(await createOne(s, 'polonius@zulip.com', streamDraft(s, { to: [s.streamId('Denmark')] }))), invalid);
  t.equal((await createOne(s, HAMLET, streamDraft(s, { to: [s.streamId('core team')], topic: '' }))).status, 200);
  const denmark = s.world.streams.get(s.streamId('Denmark'));
  if (denmark) denmark.isArchived = true;
  t.same(errorOf(await createOne(s, HAMLET, streamDraft(s, { to: [s.streamId('Denmark')] }))), invalid);
});

t.test('direct-message drafts resolve their recipients and drop the topic', async (t) => {
  const s = testServer();
  const hamlet = s.as(HAMLET);
  const me = s.id(HAMLET);
  const [iago, othello, cordelia] = [s.id(IAGO), s.id('othello@zulip.com'), s.id('cordelia@zulip.com')];
  t.same(errorOf(await createOne(s, HAMLET, { type: 'private', to: [iago, 9999], topic: '', content: 'x' })), bad('Invalid user ID 9999'));
  const othelloUser = s.world.users.get(othello);
  if (othelloUser) othelloUser.isActive = false;
  const deactivated = errorOf(await createOne(s, HAMLET, { type: 'private', to: [othello], topic: '', content: 'x' }));
  t.same(deactivated, bad(`'user${othello}@zulipdev.com' is no longer using Zulip.`));
  if (othelloUser) othelloUser.isActive = true;
  await createOne(s, HAMLET, { type: 'private', to: [me], topic: 'dropped', content: 'to self' });
  await createOne(s, HAMLET, { type: 'private', to: [iago, me, iago], topic: 'dropped', content: 'one to one' });
  await createOne(s, HAMLET, { type: 'private', to: [othello, cordelia, iago, me], topic: '', content: 'group' });
  await createOne(s, HAMLET, { type: 'private', to: [], topic: 'dropped', content: 'nobody' });
  await createOne(s, HAMLET, { type: '', to: [s.streamId('Verona')], topic: 'dropped', content: 'unaddressed' });
  const drafts = (await hamlet.get('/drafts')).body.drafts.map((d: Record<string, unknown>) => [d.type, d.to, d.topic]);
  t.same(drafts, [
    ['private', [me], ''],
    ['private', [iago], ''],
    ['private', [cordelia, iago, othello].sort((a, b) => a - b), ''],
    ['', [], ''],
    ['', [], ''],
  ]);
});

t.test('one invalid draft in a batch creates none and sends no event', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  const before = s.world.drafts.size;
  const reply = await s.as(HAMLET).post('/drafts', { drafts: [streamDraft(s), streamDraft(s, { to: [999999] })] });
  t.same(errorOf(reply), bad('Invalid channel ID'));
  t.equal(s.world.drafts.size, before);
  t.equal(events.length, 0);
});

t.test('PATCH /drafts/{id} replaces every field and sends an update event', async (t) => {
  const s = testServer();
  const id = (await createOne(s, HAMLET, streamDraft(s, { timestamp: 1000 }))).body.ids[0];
  const events = recordEvents(s);
  s.clock.advance(5000);
  const reply = await s.as(HAMLET).patch(`/drafts/${id}`, {
    draft: { type: 'stream', to: [s.streamId('Denmark')], topic: 'new topic', content: 'new content' },
  });
  t.equal(reply.status, 200);
  t.same(reply.body, { result: 'success', msg: '' });
  const expected = { id, type: 'stream', to: [s.streamId('Denmark')], topic: 'new topic', content: 'new content', timestamp: Math.floor(s.clock.now() / 1000) };
  t.same((await s.as(HAMLET).get('/drafts')).body.drafts, [expected]);
  t.same(events.map((e) => [e.event, e.userIds]), [[{ type: 'drafts', op: 'update', draft: expected }, [s.id(HAMLET)]]]);
});

t.test('PATCH answers 404 Draft does not exist for unknown or foreign drafts, after parsing, before content checks', async (t) => {
  const s = testServer();
  const iagoDraft = [...s.world.drafts.values()].find((d) => d.userId === s.id(IAGO));
  const notFound = { status: 404, code: 'BAD_REQUEST', msg: 'Draft does not exist' };
  t.same(errorOf(await s.as(HAMLET).patch('/drafts/999999', { draft: streamDraft(s) })), notFound);
  t.same(errorOf(await s.as(HAMLET).patch(`/drafts/${iagoDraft?.id}`, { draft: streamDraft(s) })), notFound);
  // Ownership is checked before the channel.
  t.same(errorOf(await s.as(HAMLET).patch('/drafts/999999', { draft: streamDraft(s, { to: [999999] }) })), notFound);
  // Parsing comes first.
  t.same(errorOf(await s.as(HAMLET).patch('/drafts/999999', { draft: { ...streamDraft(s), type: 'x' } })), bad('Invalid draft["type"]'));
  t.same(errorOf(await s.as(HAMLET).patch('/drafts/1', {})), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'draft' argument" });
});

t.test('a failed edit leaves the draft unchanged and sends nothing', async (t) => {
  const s = testServer();
  const id = (await createOne(s, HAMLET, streamDraft(s, { timestamp: 1000 }))).body.ids[0];
  const before = structuredClone(s.world.drafts.get(id));
  const events = recordEvents(s);
  const reply = await s.as(HAMLET).patch(`/drafts/${id}`, { draft: streamDraft(s, { content: 'changed', to: [999999] }) });
  t.same(errorOf(reply), bad('Invalid channel ID'));
  t.same(s.world.drafts.get(id), before);
  t.equal(events.length, 0);
});

t.test('DELETE /drafts/{id} removes the draft and sends a remove event; foreign drafts are 404', async (t) => {
  const s = testServer();
  const id = (await createOne(s, HAMLET, streamDraft(s))).body.ids[0];
  const iagoDraft = [...s.world.drafts.values()].find((d) => d.userId === s.id(IAGO));
  const notFound = { status: 404, code: 'BAD_REQUEST', msg: 'Draft does not exist' };
  t.same(errorOf(await s.as(HAMLET).delete(`/drafts/${iagoDraft?.id}`)), notFound);
  t.ok(s.world.drafts.has(iagoDraft?.id ?? -1));
  const events = recordEvents(s);
  t.equal((await s.as(HAMLET).delete(`/drafts/${id}`)).status, 200);
  t.notOk(s.world.drafts.has(id));
  t.same(events.map((e) => [e.event, e.userIds]), [[{ type: 'drafts', op: 'remove', draft_id: id }, [s.id(HAMLET)]]]);
  t.same(errorOf(await s.as(HAMLET).delete(`/drafts/${id}`)), notFound);
});

t.test('deleteAllDraftsOf wipes one user\'s drafts without events', async (t) => {
  const s = testServer();
  await createOne(s, HAMLET, streamDraft(s));
  const events = recordEvents(s);
  deleteAllDraftsOf(s.world, s.id(IAGO));
  t.same((await s.as(IAGO).get('/drafts')).body, { result: 'success', msg: '', count: 0, drafts: [] });
  t.equal((await s.as(HAMLET).get('/drafts')).body.count, 1);
  t.equal(events.length, 0);
});

t.test('draftsState gives the newest 1000 drafts, newest first', async (t) => {
  const s = testServer();
  const hamlet = s.world.users.get(s.id(HAMLET));
  if (!hamlet) throw new Error('no hamlet');
  const drafts = Array.from({ length: 1001 }, (_, i) => streamDraft(s, { content: `d${i}`, timestamp: 1000 + i }));
  // One request carries at most 1,000 drafts (lib/input/limits.ts).
  await s.as(HAMLET).post('/drafts', { drafts: drafts.slice(0, 1000) });
  await s.as(HAMLET).post('/drafts', { drafts: drafts.slice(1000) });
  const state = draftsState(s.world, hamlet);
  t.equal(state.length, 1000);
  t.equal(state[0]?.content, 'd1000');
  t.equal(state[999]?.content, 'd1');
});

t.test('the drafts endpoints exist from feature level 87', async (t) => {
  t.equal((await testServer({ featureLevel: 86 }).as(IAGO).get('/drafts')).status, 404);
  t.equal((await testServer({ featureLevel: 87 }).as(IAGO).get('/drafts')).status, 200);
});
