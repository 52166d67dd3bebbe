/**
 * GET /messages: anchors, window sizes, include_anchor, message_ids, the message objects, and
 * the real server's parameter errors, on both sides of each level.
 */
import t from 'tap';
import { errorOf, testServer, withoutSeededMessages, type TestServer } from './support/harness.js';
import { fetchIds, sendToChannel } from './support/messages.js';

const HAMLET = 'hamlet@zulip.com';
const NEWEST = 10_000_000_000_000_000;

/** Five Verona messages by othello, read by hamlet up to `readUpTo` (an index). */
async function fiveMessages(s: TestServer, readUpTo = -1): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < 5; i++) ids.push(await sendToChannel(s, 'othello@zulip.com', 'Verona', 'five', `m${i}`));
  ids.forEach((id, index) => {
    if (index <= readUpTo) s.world.messages.get(id)?.flags.get(s.id(HAMLET))?.add('read');
  });
  return ids;
}

const window = (body: Record<string, unknown>) => ({
  found_anchor: body.found_anchor,
  found_oldest: body.found_oldest,
  found_newest: body.found_newest,
  anchor: body.anchor,
});

t.test('anchors choose the window and report what was reached', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const ids = await fiveMessages(s, 1);
  const [a, b, c, d, e] = ids as [number, number, number, number, number];
  const narrow = [['stream', 'Verona']];
  // found_oldest / found_newest say a side had fewer messages than asked for: never for a side of 0.
  const cases: [string, Record<string, unknown>, number[], Record<string, unknown>][] = [
    ['newest', { anchor: 'newest', num_before: 2 }, [d, e], { found_anchor: false, found_oldest: false, found_newest: true, anchor: NEWEST }],
    ['oldest', { anchor: 'oldest', num_after: 2 }, [a, b], { found_anchor: false, found_oldest: true, found_newest: false, anchor: 0 }],
    ['an ID in the middle', { anchor: String(c), num_before: 1, num_after: 1 }, [b, c, d], { found_anchor: true, found_oldest: false, found_newest: false, anchor: c }],
    ['an ID with room on both sides', { anchor: String(c), num_before: 9, num_after: 9 }, ids, { found_anchor: true, found_oldest: true, found_newest: true, anchor: c }],
    ['first_unread', { anchor: 'first_unread', num_before: 1, num_after: 1 }, [b, c, d], { found_anchor: true, found_oldest: false, found_newest: false, anchor: c }],
    ['use_first_unread_anchor (legacy)', { use_first_unread_anchor: true, num_after: 0 }, [c], { found_anchor: true, found_oldest: false, found_newest: false, anchor: c }],
    ['a negative ID is oldest', { anchor: '-5', num_after: 1 }, [a], { found_anchor: false, found_oldest: true, found_newest: false, anchor: 0 }],
    ['a huge ID is newest', { anchor: '99999999999999999999', num_before: 1 }, [e], { found_anchor: false, found_oldest: false, found_newest: true, anchor: NEWEST }],
    ['excluding the anchor before it', { anchor: String(c), num_before: 2, include_anchor: false }, [a, b], { found_anchor: false, found_oldest: false, found_newest: false, anchor: c }],
    ['excluding the anchor after it', { anchor: String(c), num_after: 5, include_anchor: false }, [d, e], { found_anchor: false, found_oldest: false, found_newest: true, anchor: c }],
    ['no window still returns the anchor', { anchor: String(c), include_anchor: false }, [c], { found_anchor: true, found_oldest: false, found_newest: false, anchor: c }],
  ];
  for (const [name, params, expected, flags] of cases) {
    const reply = await s.as(HAMLET).get('/messages', { narrow, ...params });
    t.same(reply.body.messages.map((m: { id: number }) => m.id), expected, name);
    t.same(window(reply.body), flags, `${name}: found_* and anchor`);
    t.equal(reply.body.history_limited, false);
  }
});

t.test('first_unread is newest when everything is read, and skips muted topics', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const ids = await fiveMessages(s, 4);
  t.same(window((await s.as(HAMLET).get('/messages', { anchor: 'first_unread', num_before: 1 })).body).anchor, NEWEST);
  const muted = await sendToChannel(s, 'othello@zulip.com', 'Denmark', 'boring', 'x');
  const wanted = await sendToChannel(s, 'othello@zulip.com', 'Denmark', 'fun', 'y');
  await s.as(HAMLET).post('/user_topics', { stream_id: s.streamId('Denmark'), topic: 'boring', visibility_policy: 1 });
  const reply = await s.as(HAMLET).get('/messages', { anchor: 'first_unread' });
  t.equal(reply.body.anchor, wanted, `not ${muted} (muted topic) nor ${ids[0]} (read)`);
});

t.test('message_ids fetches exactly the readable, matching messages', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const [a, b] = await fiveMessages(s);
  const secret = await sendToChannel(s, 'iago@zulip.com', 'core team', 'x', 'secret');
  const reply = await s.as('othello@zulip.com').get('/messages', { message_ids: [b, a, secret, 999999], narrow: [['stream', 'Verona']] });
  t.same(reply.body.messages.map((m: { id: number }) => m.id), [a, b]);
  t.same(
    { ...reply.body, messages: undefined },
    { result: 'success', msg: '', messages: undefined, history_limited: false, found_anchor: false, found_oldest: false, found_newest: false },
    'no anchor in the answer',
  );
});

t.test('parameter errors are the real server\'s', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const hamlet = s.as(HAMLET);
  const incompatible = 'num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor';
  const cases: [string, Record<string, unknown>, string][] = [
    ['no anchor', {}, "Missing 'anchor' argument."],
    ['a word anchor', { anchor: 'latest' }, 'Invalid anchor'],
    ['a float anchor', { anchor: '1.5' }, 'Invalid anchor'],
    ['too many', { anchor: 'newest', num_before: 4000, num_after: 1001 }, 'Too many messages requested (maximum 5000).'],
    ['too many IDs', { message_ids: Array.from({ length: 5001 }, (_, i) => i) }, 'Too many messages requested (maximum 5000).'],
    ['anchor excluded mid-range', { anchor: '5', num_before: 1, num_after: 1, include_anchor: false }, 'The anchor can only be excluded at an end of the range'],
    ['negative num_before', { anchor: 'newest', num_before: -1 }, 'num_before is too small'],
    ['num_after not an integer', { anchor: 'newest', num_after: '"x"' }, 'num_after is not an integer'],
    ['message_ids with an anchor', { anchor: 'newest', message_ids: [1] }, `Unsupported parameter combination: ${incompatible}`],
    ['message_ids with num_after', { num_after: 3, message_ids: [1] }, `Unsupported parameter combination: ${incompatible}`],
    ['a narrow that is not a list', { anchor: 'newest', narrow: { stream: 'Verona' } }, 'narrow is not a list'],
    ['narrow not JSON', { anchor: 'newest', narrow: '[' }, 'narrow is not valid JSON'],
  ];
  for (const [name, params, msg] of cases) {
    t.same(errorOf(await hamlet.get('/messages', params)), { status: 400, code: 'BAD_REQUEST', msg }, name);
  }
  const reply = await hamlet.get('/messages', { anchor: 'newest', message_ids: [1] });
  t.equal(reply.body.parameters, incompatible, 'the parameters are named in the error');
});

t.test('message_ids exists from level 300 (ignored before)', async (t) => {
  const old = testServer({ fixture: withoutSeededMessages(), featureLevel: 299 });
  const reply = await old.as(HAMLET).get('/messages', { message_ids: [1] });
  t.same(errorOf(reply), { status: 400, code: 'BAD_REQUEST', msg: "Missing 'anchor' argument." });
  const ok = await old.as(HAMLET).get('/messages', { message_ids: [1], anchor: 'newest' });
  t.same(ok.body.ignored_parameters_unsupported, ['message_ids']);
});

t.test('include_anchor exists from level 155 (the anchor is always included before)', async (t) => {
  for (const [level, expected] of [[155, false], [154, true]] as const) {
    const s = testServer({ fixture: withoutSeededMessages(), featureLevel: level });
    const [, , c] = await fiveMessages(s);
    const reply = await s.as(HAMLET).get('/messages', { anchor: String(c), num_before: 1, include_anchor: false });
    t.equal(reply.body.messages.some((m: { id: number }) => m.id === c), expected, `level ${level}`);
  }
});

t.test('message objects carry the reader\'s flags, reactions and rendering options', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const id = await sendToChannel(s, 'othello@zulip.com', 'Verona', '', 'Hello **bold**');
  const message = s.world.messages.get(id);
  message?.flags.get(s.id(HAMLET))?.add('starred');
  message?.reactions.push({ userId: s.id(HAMLET), emojiName: 'smile', emojiCode: '1f604', reactionType: 'unicode_emoji' });
  const [rendered] = (await s.as(HAMLET).get('/messages', { anchor: String(id) })).body.messages;
  t.equal(rendered.content, '<p>Hello <strong>bold</strong></p>');
  t.same(rendered.flags, ['starred']);
  t.equal(rendered.subject, 'general chat', 'the empty topic is shown by its display name');
  t.same(rendered.reactions, [
    {
      emoji_name: 'smile',
      emoji_code: '1f604',
      reaction_type: 'unicode_emoji',
      user_id: s.id(HAMLET),
      user: { email: `user${s.id(HAMLET)}@zulipdev.com`, full_name: 'King Hamlet', id: s.id(HAMLET), is_mirror_dummy: false },
    },
  ]);
  const level1 = testServer({ fixture: withoutSeededMessages(), featureLevel: 1 });
  const early = await sendToChannel(level1, 'othello@zulip.com', 'Verona', 'x', 'hi');
  level1.world.messages.get(early)?.reactions.push({ userId: s.id(HAMLET), emojiName: 'smile', emojiCode: '1f604', reactionType: 'unicode_emoji' });
  const [old] = (await level1.as(HAMLET).get('/messages', { anchor: String(early) })).body.messages;
  t.notOk('user_id' in old.reactions[0], 'no user_id at level 1, only the user object');
  t.equal(old.reactions[0].user.id, s.id(HAMLET));
  const [raw] = (await s.as(HAMLET).get('/messages', { anchor: String(id), apply_markdown: false, allow_empty_topic_name: true })).body.messages;
  t.equal(raw.content, 'Hello **bold**');
  t.equal(raw.content_type, 'text/x-markdown');
  t.equal(raw.subject, '');
  t.notOk('edit_history' in raw, 'no edit history in fetched messages');
});

t.test('the reader\'s flags: historical messages are read and historical', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const id = await sendToChannel(s, 'othello@zulip.com', 'Scotland', 'x', 'before hamlet joined');
  const [message] = (await s.as(HAMLET).get('/messages', { anchor: 'newest', num_before: 1, narrow: [['stream', 'Scotland']] })).body.messages;
  t.equal(message.id, id);
  t.same(message.flags, ['read', 'historical']);
  t.same(await fetchIds(s.as(HAMLET), { anchor: 'newest', num_before: 5 }), [], 'not in the combined feed');
});

t.test('client_gravatar leaves avatar_url null for senders with public emails (default from level 92)', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const visible = await s.as('othello@zulip.com').patch('/settings', { email_address_visibility: 1 });
  t.equal(visible.status, 200, visible.text);
  const id = await sendToChannel(s, 'othello@zulip.com', 'Verona', 'x', 'hi');
  const avatar = async (params: Record<string, unknown>, server = s) =>
    (await server.as('iago@zulip.com').get('/messages', { anchor: String(id), ...params })).body.messages[0].avatar_url;
  t.equal(await avatar({}), null, 'default true');
  t.match(await avatar({ client_gravatar: false }), /^https:\/\/secure\.gravatar\.com\//);
  const old = testServer({ fixture: withoutSeededMessages(), featureLevel: 91 });
  old.world.users.get(12)?.settings.set('email_address_visibility', 1);
  await sendToChannel(old, 'othello@zulip.com', 'Verona', 'x', 'hi');
  t.equal(await avatar({ client_gravatar: true }, old), null, 'asked for at level 91');
  t.match(await avatar({}, old), /^https:\/\/secure\.gravatar\.com\//, 'default false before level 92');
});

t.test('allow_empty_topic_name exists from level 334', async (t) => {
  const old = testServer({ fixture: withoutSeededMessages(), featureLevel: 333 });
  const reply = await old.as(HAMLET).get('/messages', { anchor: 'newest', allow_empty_topic_name: true });
  t.same(reply.body.ignored_parameters_unsupported, ['allow_empty_topic_name']);
  const current = await testServer({ fixture: withoutSeededMessages() }).as(HAMLET).get('/messages', { anchor: 'newest', allow_empty_topic_name: true });
  t.notOk('ignored_parameters_unsupported' in current.body);
});
