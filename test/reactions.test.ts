import t from 'tap';
import { CORDELIA, HAMLET, IAGO, ofType, OTHELLO, POLONIUS, recordEvents, SHIVA, DESDEMONA, sortedIds } from './support/channels.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const SMILE = { emoji_name: 'smile', emoji_code: '1f642', reaction_type: 'unicode_emoji' };
const GREEN_TICK_ID = (s: TestServer): string => String([...s.world.realmEmoji.values()].find((e) => e.name === 'green_tick')?.id);

async function send(s: TestServer, email = HAMLET, to = 'Verona'): Promise<number> {
  const reply = await s.as(email).post('/messages', { type: 'stream', to, topic: 'lunch', content: 'pizza?' });
  if (reply.status !== 200) throw new Error(reply.text);
  return reply.body.id as number;
}

async function sendDirect(s: TestServer, from: string, to: number[]): Promise<number> {
  const reply = await s.as(from).post('/messages', { type: 'direct', to, content: 'psst' });
  if (reply.status !== 200) throw new Error(reply.text);
  return reply.body.id as number;
}

const react = (s: TestServer, email: string, id: number, params: Record<string, unknown>) => s.as(email).post(`/messages/${id}/reactions`, params);
const unreact = (s: TestServer, email: string, id: number, params: Record<string, unknown>) => s.as(email).delete(`/messages/${id}/reactions`, params);
const subscribers = (s: TestServer, name: string) =>
  sortedIds([...s.world.subscribersOf(s.streamId(name))].filter(([id, sub]) => sub.active && s.world.users.get(id)?.isActive).map(([id]) => id));

t.test('a reaction by name alone is stored as the Unicode emoji, shown on the message and announced to the subscribers', async (t) => {
  const s = testServer();
  const id = await send(s);
  const events = recordEvents(s);
  const reply = await react(s, OTHELLO, id, { emoji_name: 'smile' });
  t.same(reply.body, { result: 'success', msg: '' });
  const fetched = await s.as(HAMLET).get(`/messages/${id}`);
  t.same(fetched.body.message.reactions, [{ emoji_name: 'smile', emoji_code: '1f642', reaction_type: 'unicode_emoji', user_id: s.id(OTHELLO) }]);
  t.same(events.map((e) => e.event), [
    {
      type: 'reaction',
      op: 'add',
      user_id: s.id(OTHELLO),
      user: { user_id: s.id(OTHELLO), email: 'user12@zulipdev.com', full_name: 'Othello, the Moor of Venice' },
      message_id: id,
      ...SMILE,
    },
  ]);
  t.same(events[0]?.userIds, subscribers(s, 'Verona'));
});

t.test('custom and Zulip emoji resolve by name; a given type and code must agree with the name', async (t) => {
  const s = testServer();
  const id = await send(s);
  const tick = GREEN_TICK_ID(s);
  t.equal((await react(s, OTHELLO, id, { emoji_name: 'green_tick' })).status, 200);
  t.equal((await react(s, OTHELLO, id, { emoji_name: 'zulip' })).status, 200);
  t.equal((await react(s, OTHELLO, id, { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' })).status, 200);
  t.same(
    s.world.messages.get(id)?.reactions.map((r) => [r.emojiName, r.emojiCode, r.reactionType]),
    [['green_tick', tick, 'realm_emoji'], ['zulip', 'zulip', 'zulip_extra_emoji'], ['octopus', '1f419', 'unicode_emoji']],
  );
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ emoji_name: 'no_such_emoji' }, "Emoji 'no_such_emoji' does not exist"],
    [{ emoji_name: 'smile', emoji_code: '1f419', reaction_type: 'unicode_emoji' }, 'Invalid emoji name.'],
    [{ emoji_name: 'smile', emoji_code: 'ffff1', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.'],
    [{ emoji_name: 'smile', emoji_code: '1f642', reaction_type: 'animated_emoji' }, 'Invalid emoji type.'],
    [{ emoji_name: 'green_tick', emoji_code: '9999', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
    [{ emoji_name: 'red_tick', emoji_code: tick, reaction_type: 'realm_emoji' }, 'Invalid custom emoji name.'],
    [{ emoji_name: 'zulip', emoji_code: 'zulip2', reaction_type: 'zulip_extra_emoji' }, 'Invalid emoji code.'],
    [{ emoji_name: 'octopus', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }, 'Invalid emoji name.'],
  ];
  // On a message without reactions: on the first one these would be votes, which skip validation.
  const fresh = await send(s);
  for (const [params, msg] of cases) t.same(errorOf(await react(s, HAMLET, fresh, params)), bad(msg), msg);
  const emoji = s.world.realmEmoji.get(Number(tick));
  if (emoji) emoji.deactivated = true;
  const deactivated = { emoji_name: 'green_tick', emoji_code: tick, reaction_type: 'realm_emoji' };
  t.same(errorOf(await react(s, HAMLET, fresh, deactivated)), bad('This custom emoji has been deactivated.'));
  t.same(s.world.messages.get(fresh)?.reactions, [], 'no error leaves a reaction behind');
});

t.test('service_extra_emoji (the description\'s status alias) is not a reaction type, as on the real server', async (t) => {
  // zerver/lib/emoji.py `check_emoji_request`; zerver/tests/test_reactions.py `test_invalid_emoji_type`.
  const s = testServer();
  const id = await send(s);
  t.same(errorOf(await react(s, OTHELLO, id, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' })), bad('Invalid emoji type.'));
  t.equal((await react(s, OTHELLO, id, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' })).status, 200);
  t.same(errorOf(await unreact(s, OTHELLO, id, { emoji_code: 'zulip', reaction_type: 'service_extra_emoji' })), {
    status: 400,
    code: 'REACTION_DOES_NOT_EXIST',
    msg: "Reaction doesn't exist.",
  });
});

t.test('reacting with an emoji already on the message is a vote: the first name wins, even for a deactivated emoji', async (t) => {
  const s = testServer();
  const id = await send(s);
  await react(s, HAMLET, id, { emoji_name: 'heart' });
  t.equal((await react(s, OTHELLO, id, { emoji_name: 'love', emoji_code: '2764', reaction_type: 'unicode_emoji' })).status, 200);
  t.same(s.world.messages.get(id)?.reactions.map((r) => r.emojiName), ['heart', 'heart']);
  const tick = GREEN_TICK_ID(s);
  await react(s, HAMLET, id, { emoji_name: 'green_tick' });
  const emoji = s.world.realmEmoji.get(Number(tick));
  if (emoji) emoji.deactivated = true;
  t.equal((await react(s, OTHELLO, id, { emoji_name: 'green_tick', emoji_code: tick, reaction_type: 'realm_emoji' })).status, 200);
  t.same(errorOf(await react(s, CORDELIA, id, { emoji_name: 'green_tick' })), bad("Emoji 'green_tick' does not exist"), 'no longer found by name');
});

t.test('reacting twice is REACTION_ALREADY_EXISTS from level 193 and BAD_REQUEST before', async (t) => {
  for (const [level, code] of [[415, 'REACTION_ALREADY_EXISTS'], [193, 'REACTION_ALREADY_EXISTS'], [192, 'BAD_REQUEST']] as const) {
    const s = testServer({ featureLevel: level });
    const id = await send(s);
    await react(s, OTHELLO, id, SMILE);
    t.same(errorOf(await react(s, OTHELLO, id, { emoji_name: 'smile' })), { status: 400, code, msg: 'Reaction already exists.' }, `level ${level}`);
    t.equal(s.world.messages.get(id)?.reactions.length, 1);
  }
});

t.test('removing takes the code, or the name looked up, with unicode_emoji as the default type', async (t) => {
  const s = testServer();
  const id = await send(s);
  await react(s, OTHELLO, id, { emoji_name: 'smile' });
  await react(s, OTHELLO, id, { emoji_name: 'octopus' });
  await react(s, OTHELLO, id, { emoji_name: 'green_tick' });
  const events = recordEvents(s);
  t.same((await unreact(s, OTHELLO, id, { emoji_name: 'smile' })).body, { result: 'success', msg: '' });
  t.equal((await unreact(s, OTHELLO, id, { emoji_code: '1f419' })).status, 200);
  t.same(errorOf(await unreact(s, OTHELLO, id, { emoji_name: 'green_tick' })), { status: 400, code: 'REACTION_DOES_NOT_EXIST', msg: "Reaction doesn't exist." }, 'a custom emoji needs its type');
  const emoji = s.world.realmEmoji.get(Number(GREEN_TICK_ID(s)));
  if (emoji) emoji.deactivated = true;
  t.equal((await unreact(s, OTHELLO, id, { emoji_code: GREEN_TICK_ID(s), reaction_type: 'realm_emoji' })).status, 200, 'a deactivated emoji can still be removed');
  t.same(s.world.messages.get(id)?.reactions, []);
  t.same(events.map((e) => [e.event.op, e.event.emoji_name]), [['remove', 'smile'], ['remove', 'octopus'], ['remove', 'green_tick']]);
  t.same(events[0]?.userIds, subscribers(s, 'Verona'));
});

t.test('removal errors: nothing named, unknown name, another user\'s reaction, and the level-192 code', async (t) => {
  const s = testServer();
  const id = await send(s);
  await react(s, HAMLET, id, SMILE);
  t.same(errorOf(await unreact(s, OTHELLO, id, {})), bad('At least one of the following arguments must be present: emoji_name, emoji_code'));
  t.same(errorOf(await unreact(s, OTHELLO, id, { emoji_name: 'nope' })), bad("Emoji 'nope' does not exist"));
  t.same(errorOf(await unreact(s, OTHELLO, id, { emoji_name: 'smile' })), { status: 400, code: 'REACTION_DOES_NOT_EXIST', msg: "Reaction doesn't exist." });
  t.equal(s.world.messages.get(id)?.reactions.length, 1, 'Hamlet\'s reaction stays');
  const old = testServer({ featureLevel: 192 });
  const oldId = await send(old);
  t.same(errorOf(await unreact(old, OTHELLO, oldId, { emoji_name: 'smile' })), bad("Reaction doesn't exist."));
});

t.test('adding needs emoji_name; other parameters are strings sent raw', async (t) => {
  const s = testServer();
  const id = await send(s);
  t.same(errorOf(await react(s, OTHELLO, id, { emoji_code: '1f642' })), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'emoji_name' argument" });
  t.same(s.world.messages.get(id)?.reactions, []);
});

t.test('the message must be readable and its channel active: Invalid message(s) otherwise', async (t) => {
  const s = testServer();
  const secret = await send(s, IAGO, 'core team');
  const verona = await send(s);
  const denmark = await send(s, HAMLET, 'Denmark');
  const dm = await sendDirect(s, HAMLET, [s.id(CORDELIA)]);
  for (const [email, id, why] of [
    [OTHELLO, 999_999, 'unknown message'],
    [OTHELLO, secret, 'a private channel the user is not in'],
    [OTHELLO, dm, 'someone else\'s direct message'],
    [POLONIUS, denmark, 'a guest outside a public channel'],
  ] as const) {
    t.same(errorOf(await react(s, email, id, { emoji_name: 'smile' })), bad('Invalid message(s)'), why);
    t.same(errorOf(await unreact(s, email, id, { emoji_name: 'smile' })), bad('Invalid message(s)'), why);
  }
  const stream = s.world.streams.get(s.streamId('Verona'));
  if (stream) stream.isArchived = true;
  t.same(errorOf(await react(s, HAMLET, verona, { emoji_name: 'smile' })), bad('Invalid message(s)'), 'an archived channel');
});

t.test('every role may react in a public channel; a non-subscriber gets a historical row and the events from then on', async (t) => {
  const s = testServer();
  const id = await send(s, HAMLET, 'Denmark');
  for (const email of [DESDEMONA, IAGO, SHIVA, CORDELIA]) t.equal((await react(s, email, id, { emoji_name: 'tada' })).status, 200, email);
  const outsider = [DESDEMONA, IAGO, SHIVA, CORDELIA].find((e) => !s.world.subscriptions.get(s.streamId('Denmark'))?.get(s.id(e))?.active) as string;
  t.ok(outsider, 'someone reacted without being subscribed');
  t.same([...(s.world.messages.get(id)?.flags.get(s.id(outsider)) ?? [])], ['read', 'historical']);
  const events = recordEvents(s);
  await react(s, OTHELLO, id, { emoji_name: 'smile' });
  t.ok(events[0]?.userIds.includes(s.id(outsider)), 'the historical row brings later events');
});

t.test('direct-message reactions go to the participants only', async (t) => {
  const s = testServer();
  const id = await sendDirect(s, HAMLET, [s.id(CORDELIA), s.id(OTHELLO)]);
  const events = recordEvents(s);
  t.equal((await react(s, CORDELIA, id, { emoji_name: 'smile' })).status, 200);
  t.same(events[0]?.userIds, sortedIds([s.id(HAMLET), s.id(CORDELIA), s.id(OTHELLO)]));
});

t.test('the legacy user object: on reactions until level 328, on events except levels 328 to 338', async (t) => {
  for (const [level, inMessage, inEvent] of [[327, true, true], [328, false, false], [338, false, false], [339, false, true], [415, false, true]] as const) {
    const s = testServer({ featureLevel: level });
    const id = await send(s);
    const events = recordEvents(s);
    await react(s, OTHELLO, id, { emoji_name: 'smile' });
    const reaction = (await s.as(HAMLET).get(`/messages/${id}`)).body.message.reactions[0];
    t.equal('user' in reaction, inMessage, `message at ${level}`);
    if (inMessage) t.same(reaction.user, { id: s.id(OTHELLO), email: 'user12@zulipdev.com', full_name: 'Othello, the Moor of Venice', is_mirror_dummy: false });
    t.equal('user' in (events[0]?.event ?? {}), inEvent, `event at ${level}`);
  }
});

t.test('in a private channel events reach its subscribers; with protected history only those who received the message', async (t) => {
  const s = testServer();
  const core = s.streamId('core team');
  const stream = s.world.streams.get(core);
  if (stream) stream.historyPublicToSubscribers = true;
  const shared = await send(s, IAGO, 'core team');
  await s.as(IAGO).post('/users/me/subscriptions', { subscriptions: [{ name: 'core team' }], principals: [s.id(CORDELIA)] });
  const events = recordEvents(s);
  await react(s, CORDELIA, shared, { emoji_name: 'smile' });
  t.same(ofType(events, 'reaction')[0]?.userIds, subscribers(s, 'core team'), 'shared history: every subscriber, the newcomer too');
  if (stream) stream.historyPublicToSubscribers = false;
  const later = await send(s, IAGO, 'core team');
  await s.as(IAGO).post('/users/me/subscriptions', { subscriptions: [{ name: 'core team' }], principals: [s.id(OTHELLO)] });
  await react(s, IAGO, later, { emoji_name: 'smile' });
  t.same(ofType(events, 'reaction')[1]?.userIds, subscribers(s, 'core team').filter((id) => id !== s.id(OTHELLO)), 'protected history: not the later subscriber');
  t.same(errorOf(await react(s, OTHELLO, later, { emoji_name: 'tada' })), bad('Invalid message(s)'), 'who cannot read it either');
});
