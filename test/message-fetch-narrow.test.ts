/**
 * Narrows of GET /messages and GET /messages/matches_narrow: every operator real clients send,
 * in both encodings, negation, search, `with`, and the real server's errors (and where it
 * answers an empty result instead), with each operator's level.
 */
import t from 'tap';
import { errorOf, testServer, withoutSeededMessages, type TestServer } from './support/harness.js';
import { fetchIds, sendDirect, sendToChannel } from './support/messages.js';

const HAMLET = 'hamlet@zulip.com';
const OTHELLO_ID = 12;
const CORDELIA_ID = 8;

interface World7 {
  s: TestServer;
  m: Record<'cats' | 'dogs' | 'plans' | 'dm' | 'group' | 'resolved' | 'self', number>;
}

/** Seven messages around hamlet, with flags, topic preferences and a reaction. */
async function seed(featureLevel?: number): Promise<World7> {
  const s = testServer({ fixture: withoutSeededMessages(), ...(featureLevel === undefined ? {} : { featureLevel }) });
  const hamletId = s.id(HAMLET);
  const m = {
    cats: await sendToChannel(s, HAMLET, 'Verona', 'lunch', 'I like cats'),
    dogs: await sendToChannel(s, 'othello@zulip.com', 'Verona', 'Lunch', 'dogs are great https://example.com'),
    plans: await sendToChannel(s, 'iago@zulip.com', 'Denmark', 'plans', 'meeting tomorrow'),
    dm: await sendDirect(s, HAMLET, [OTHELLO_ID], 'hi othello'),
    group: await sendDirect(s, HAMLET, [OTHELLO_ID, CORDELIA_ID], 'group hello'),
    resolved: await sendToChannel(s, 'othello@zulip.com', 'Verona', '✔ solved', 'done'),
    self: await sendDirect(s, HAMLET, [hamletId], 'note to self'),
  };
  const flags = (id: number) => s.world.messages.get(id)?.flags.get(hamletId);
  flags(m.plans)?.add('starred');
  flags(m.plans)?.add('has_alert_word');
  flags(m.dogs)?.add('read');
  flags(m.dogs)?.add('mentioned');
  s.world.messages.get(m.cats)?.reactions.push({ userId: OTHELLO_ID, emojiName: 'cat', emojiCode: '1f431', reactionType: 'unicode_emoji' });
  return { s, m };
}

const ids = (s: TestServer, narrow: unknown) => fetchIds(s.as(HAMLET), { anchor: 'oldest', num_after: 100, narrow });

t.test('each operator selects what the real server selects', async (t) => {
  const { s, m } = await seed();
  await s.as(HAMLET).post('/user_topics', { stream_id: s.streamId('Denmark'), topic: 'plans', visibility_policy: 3 });
  await s.as(HAMLET).post('/user_topics', { stream_id: s.streamId('Verona'), topic: 'lunch', visibility_policy: 1 });
  const verona = s.streamId('Verona');
  const all = [m.cats, m.dogs, m.plans, m.dm, m.group, m.resolved, m.self];
  const cases: [string, unknown, number[]][] = [
    ['stream by name (pair form)', [['stream', 'Verona']], [m.cats, m.dogs, m.resolved]],
    ['channel by ID (object form)', [{ operator: 'channel', operand: verona }], [m.cats, m.dogs, m.resolved]],
    ['topic, case-insensitively', [['stream', 'verona'], ['topic', 'LUNCH']], [m.cats, m.dogs]],
    ['negated topic', [['stream', 'Verona'], { operator: 'topic', operand: 'lunch', negated: true }], [m.resolved]],
    ['sender by API email', [['sender', `user${OTHELLO_ID}@zulipdev.com`]], [m.dogs, m.resolved]],
    ['sender by ID', [{ operator: 'sender', operand: s.id('iago@zulip.com') }], [m.plans]],
    ['negated sender', [{ operator: 'sender', operand: s.id(HAMLET), negated: true }], [m.dogs, m.plans, m.resolved]],
    ['dm by IDs', [{ operator: 'dm', operand: [OTHELLO_ID] }], [m.dm]],
    ['pm-with by email (deprecated)', [['pm-with', `user${OTHELLO_ID}@zulipdev.com`]], [m.dm]],
    ['dm with a group', [{ operator: 'dm', operand: [CORDELIA_ID, OTHELLO_ID] }], [m.group]],
    ['dm with oneself', [{ operator: 'dm', operand: [s.id(HAMLET)] }], [m.self]],
    ['dm with a group that never talked is empty', [{ operator: 'dm', operand: [6, 7] }], []],
    ['dm with nobody is empty', [{ operator: 'dm', operand: [] }], []],
    ['dm-including', [{ operator: 'dm-including', operand: OTHELLO_ID }], [m.dm, m.group]],
    ['dm-including oneself is every DM', [{ operator: 'dm-including', operand: s.id(HAMLET) }], [m.dm, m.group, m.self]],
    ['group-pm-with (deprecated): groups only', [['group-pm-with', `user${OTHELLO_ID}@zulipdev.com`]], [m.group]],
    ['is:dm', [['is', 'dm']], [m.dm, m.group, m.self]],
    ['is:private (deprecated)', [['is', 'private']], [m.dm, m.group, m.self]],
    ['negated is:dm', [{ operator: 'is', operand: 'dm', negated: true }], [m.cats, m.dogs, m.plans, m.resolved]],
    ['is:starred', [['is', 'starred']], [m.plans]],
    ['is:unread', [['is', 'unread']], [m.plans, m.resolved]],
    ['is:mentioned', [['is', 'mentioned']], [m.dogs]],
    ['is:alerted', [['is', 'alerted']], [m.plans]],
    ['is:resolved', [['is', 'resolved']], [m.resolved]],
    ['is:followed', [['is', 'followed']], [m.plans]],
    ['is:muted', [['is', 'muted']], [m.cats, m.dogs]],
    ['in:home leaves muted topics out', [['in', 'home']], [m.plans, m.dm, m.group, m.resolved, m.self]],
    ['in:all', [['in', 'all']], all],
    ['has:link', [['has', 'link']], [m.dogs]],
    ['has:reaction', [['has', 'reaction']], [m.cats]],
    ['negated has:image', [{ operator: 'has', operand: 'image', negated: true }], all],
    ['channels:public', [['channels', 'public']], [m.cats, m.dogs, m.plans, m.resolved]],
    ['streams:web-public (deprecated)', [['streams', 'web-public']], []],
    ['id as a string', [['id', String(m.plans)]], [m.plans]],
    ['id as an integer', [{ operator: 'id', operand: m.plans }], [m.plans]],
    ['near filters nothing', [['near', String(m.cats)]], all],
    ['an unknown topic is empty', [['stream', 'Verona'], ['topic', 'nothing here']], []],
    ['terms are ANDed', [['stream', 'Verona'], ['sender', `user${OTHELLO_ID}@zulipdev.com`]], [m.dogs, m.resolved]],
    ['search: a word', [['search', 'cats']], [m.cats]],
    ['search: plurals fold', [['search', 'CAT']], [m.cats]],
    ['search: whole words only', [['search', 'ca']], []],
    ['search: every word must match', [['search', 'hello group']], [m.group]],
    ['search: the topic counts', [['search', 'lunch']], [m.cats, m.dogs]],
    ['search: a quoted phrase', [['search', '"are great"']], [m.dogs]],
    ['search: stop words alone match nothing', [['search', 'the']], []],
    ['search: several terms are joined', [['search', 'dogs'], ['search', 'great']], [m.dogs]],
    ['search: negation is dropped as on the real server', [{ operator: 'search', operand: 'dogs', negated: true }], [m.dogs]],
    ['no narrow', [], all],
    ['null narrow', null, all],
  ];
  for (const [name, narrow, expected] of cases) t.same(await ids(s, narrow), expected, name);
});

t.test('has: reads links, uploads and images from the rendered message', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const upload = await sendToChannel(s, HAMLET, 'Verona', 'x', 'see [notes.txt](/user_uploads/2/ab/notes.txt)');
  const image = await sendToChannel(s, HAMLET, 'Verona', 'x', 'https://example.com/cat.png');
  const link = await sendToChannel(s, HAMLET, 'Verona', 'x', 'https://example.com/');
  await sendToChannel(s, HAMLET, 'Verona', 'x', 'plain');
  t.same(await ids(s, [['has', 'link']]), [upload, image, link]);
  t.same(await ids(s, [['has', 'attachment']]), [upload]);
  t.same(await ids(s, [['has', 'image']]), [image]);
});

t.test('search results are highlighted in content and topic', async (t) => {
  const { s, m } = await seed();
  const reply = await s.as(HAMLET).get('/messages', { anchor: 'oldest', num_after: 10, narrow: [['search', 'lunch cats']] });
  const [message] = reply.body.messages;
  t.equal(message.id, m.cats);
  t.equal(message.match_content, '<p>I like <span class="highlight">cats</span></p>');
  t.equal(message.match_subject, '<span class="highlight">lunch</span>');
  const plain = await s.as(HAMLET).get('/messages', { anchor: 'oldest', num_after: 10, narrow: [['stream', 'Verona']] });
  t.notOk('match_content' in plain.body.messages[0], 'only searches add highlighting');
});

const NARROW_ERRORS: [string, unknown, string][] = [
  ['unknown operator', [['foo', 'x']], 'unknown operator foo'],
  ['unknown channel name', [['stream', 'Nowhere']], 'unknown channel Nowhere'],
  ['unknown channel ID', [{ operator: 'channel', operand: 9999 }], 'unknown channel 9999'],
  ['unknown sender', [['sender', 'nobody@example.com']], 'unknown user nobody@example.com'],
  ['a delivery email the API does not know', [['sender', 'othello@zulip.com']], 'unknown user othello@zulip.com'],
  ['unknown user in dm', [{ operator: 'dm', operand: [OTHELLO_ID, 9999] }], 'unknown user in [12, 9999]'],
  ['unknown email in dm', [['dm', 'user12@zulipdev.com,nobody@example.com']], 'unknown user in user12@zulipdev.com,nobody@example.com'],
  ['unknown user in dm-including', [{ operator: 'dm-including', operand: 9999 }], 'unknown user 9999'],
  ["unknown 'is' operand", [['is', 'bogus']], "unknown 'is' operand bogus"],
  ["unknown 'has' operand", [['has', 'bogus']], "unknown 'has' operand bogus"],
  ["unknown 'in' operand", [['in', 'bogus']], "unknown 'in' operand bogus"],
  ['unknown channels operand', [['channels', 'bogus']], 'unknown channels operand bogus'],
  ['a non-numeric ID', [['id', 'abc']], 'Invalid message ID'],
  ['channel and DM at once', [['stream', 'Verona'], ['is', 'dm']], 'No message can be both a channel message and direct message'],
  ['topic and dm at once', [['topic', 'x'], { operator: 'dm', operand: [OTHELLO_ID] }], 'No message can be both a channel message and direct message'],
  ['a non-numeric with', [['with', 'abc']], "Invalid 'with' operator"],
];

t.test('malformed narrows get BAD_NARROW with the real texts, in term order', async (t) => {
  const { s } = await seed();
  for (const [name, narrow, desc] of NARROW_ERRORS) {
    const reply = await s.as(HAMLET).get('/messages', { anchor: 'newest', narrow });
    t.same({ ...errorOf(reply), desc: reply.body.desc }, { status: 400, code: 'BAD_NARROW', msg: `Invalid narrow operator: ${desc}`, desc }, name);
  }
  const duplicate = await s.as(HAMLET).get('/messages', { anchor: 'newest', narrow: [['with', '1'], ['with', '2']] });
  t.same(errorOf(duplicate), { status: 400, code: 'BAD_NARROW', msg: "Invalid narrow operator combination: Duplicate 'with' operators." });
  const negated = await s.as(HAMLET).get('/messages', { anchor: 'newest', narrow: [['stream', 'Verona'], { operator: 'is', operand: 'dm', negated: true }] });
  t.equal(negated.status, 200, 'a negated DM term does not conflict with a channel term');
});

t.test('malformed terms get BAD_REQUEST with the real texts', async (t) => {
  const { s } = await seed();
  const cases: [string, unknown, string][] = [
    ['a pair of three', [['stream', 'Verona', 'x']], 'Invalid narrow[0]: Value error, element is not a string pair'],
    ['a pair with a number', [['id', 5]], 'Invalid narrow[0]: Value error, element is not a string pair'],
    ['no operand', [{ operator: 'stream' }], 'Invalid narrow[0]: Value error, operand is missing'],
    ['no operator', [{ operand: 'Verona' }], 'Invalid narrow[0]: Value error, operator is missing'],
    ['a number term', [5], 'Invalid narrow[0]: Value error, dict or list required'],
    ['a list topic', [{ operator: 'topic', operand: ['x'] }], 'operand is not a string'],
    ['a list channel', [{ operator: 'channel', operand: ['x'] }], 'operand is not a string or integer'],
    ['a dm of names', [{ operator: 'dm', operand: ['x'] }], 'operand[0] is not an integer'],
    ['a dm object', [{ operator: 'dm', operand: { a: 1 } }], 'operand is not a string or an integer list'],
    ['a blank search', [{ operator: 'search', operand: '  ' }], 'operand cannot be blank.'],
    ['a string negated', [{ operator: 'is', operand: 'dm', negated: 'yes' }], 'narrow[0]["negated"] is not a boolean'],
  ];
  for (const [name, narrow, msg] of cases) {
    t.same(errorOf(await s.as(HAMLET).get('/messages', { anchor: 'newest', narrow })), { status: 400, code: 'BAD_REQUEST', msg }, name);
  }
});

t.test('operators exist from their levels', async (t) => {
  const cases: [number, unknown, string][] = [
    [177, [{ operator: 'dm', operand: [OTHELLO_ID] }], 'unknown operator dm'],
    [177, [{ operator: 'dm-including', operand: OTHELLO_ID }], 'unknown operator dm-including'],
    [177, [['is', 'dm']], "unknown 'is' operand dm"],
    [249, [['has', 'reaction']], "unknown 'has' operand reaction"],
    [250, [['channel', 'Verona']], 'unknown operator channel'],
    [250, [['channels', 'public']], 'unknown operator channels'],
    [265, [['is', 'followed']], "unknown 'is' operand followed"],
    [271, [['with', '1'], ['stream', 'Verona'], ['topic', 'x']], 'unknown operator with'],
    [366, [['is', 'muted']], "unknown 'is' operand muted"],
  ];
  for (const [level, narrow, desc] of cases) {
    const atLevel = testServer({ fixture: withoutSeededMessages(), featureLevel: level });
    t.equal((await atLevel.as(HAMLET).get('/messages', { anchor: 'newest', narrow })).status, 200, `level ${level}: ${desc.split(' ').pop()} accepted`);
    const below = testServer({ fixture: withoutSeededMessages(), featureLevel: level - 1 });
    const reply = await below.as(HAMLET).get('/messages', { anchor: 'newest', narrow });
    t.same(errorOf(reply), { status: 400, code: 'BAD_NARROW', msg: `Invalid narrow operator: ${desc}` }, `level ${level - 1}: ${desc}`);
  }
  const old = testServer({ fixture: withoutSeededMessages(), featureLevel: 254 });
  t.equal((await old.as(HAMLET).get('/messages', { anchor: 'newest', narrow: [['stream', 'Nowhere']] })).body.msg, 'Invalid narrow operator: unknown stream Nowhere');
  const before194 = testServer({ fixture: withoutSeededMessages(), featureLevel: 193 });
  const intId = await before194.as(HAMLET).get('/messages', { anchor: 'newest', narrow: [{ operator: 'id', operand: 1 }] });
  t.same(errorOf(intId), { status: 400, code: 'BAD_REQUEST', msg: 'operand is not a string' }, 'integer IDs from level 194');
});

t.test('with: the conversation of an accessible message replaces the narrow\'s conversation', async (t) => {
  const { s, m } = await seed();
  t.same(await ids(s, [['with', String(m.dogs)], ['stream', 'Denmark'], ['topic', 'plans']]), [m.cats, m.dogs], 'channel and topic of the message');
  t.same(await ids(s, [{ operator: 'with', operand: m.dm }]), [m.dm], 'a direct message conversation, by an integer ID');
  t.same(await ids(s, [['with', String(m.group)], ['sender', `user${s.id(HAMLET)}@zulipdev.com`]]), [m.group], 'other terms stay');
  const secret = await sendToChannel(s, 'iago@zulip.com', 'core team', 'x', 'secret');
  const othello = s.as('othello@zulip.com');
  t.same(await fetchIds(othello, { anchor: 'oldest', num_after: 9, narrow: [['with', String(secret)], ['stream', 'Verona'], ['topic', 'lunch']] }), [m.cats, m.dogs], 'an inaccessible message is ignored when the rest names a conversation');
  const refused = await othello.get('/messages', { anchor: 'newest', narrow: [['with', String(secret)], ['stream', 'Verona']] });
  t.same(errorOf(refused), { status: 400, code: 'BAD_NARROW', msg: "Invalid narrow operator: Invalid 'with' operator" });
});

t.test('GET /messages/matches_narrow answers which received messages match, with highlighting', async (t) => {
  const { s, m } = await seed();
  const scotland = await sendToChannel(s, 'othello@zulip.com', 'Scotland', 'x', 'cats elsewhere');
  const reply = await s.as(HAMLET).get('/messages/matches_narrow', { msg_ids: [m.cats, m.dogs, scotland, 99999], narrow: [['search', 'cats']] });
  t.same(reply.body, {
    result: 'success',
    msg: '',
    messages: { [String(m.cats)]: { match_content: '<p>I like <span class="highlight">cats</span></p>', match_subject: 'lunch' } },
  }, 'never-received messages are left out');
  const plain = await s.as(HAMLET).get('/messages/matches_narrow', { msg_ids: [m.dm, m.cats], narrow: [['is', 'dm']] });
  t.same(plain.body.messages, { [String(m.dm)]: { match_content: '<p>hi othello</p>', match_subject: '' } });
  t.same(errorOf(await s.as(HAMLET).get('/messages/matches_narrow', { msg_ids: [1] })), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'narrow' argument" });
  t.same(errorOf(await s.as(HAMLET).get('/messages/matches_narrow', { msg_ids: [1], narrow: [['is', 'x']] })), { status: 400, code: 'BAD_NARROW', msg: "Invalid narrow operator: unknown 'is' operand x" });
  t.same(errorOf(await s.as(HAMLET).get('/messages/matches_narrow', { msg_ids: [1], narrow: null })), { status: 400, code: 'BAD_REQUEST', msg: 'narrow is not a list' });
});
