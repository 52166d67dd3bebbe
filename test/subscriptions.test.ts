import t from 'tap';
import {
  bad,
  channelState,
  CORDELIA,
  DESDEMONA,
  HAMLET,
  IAGO,
  names,
  OTHELLO,
  POLONIUS,
  recordEvents,
  sub,
  userOf,
} from './support/channels.js';
import { errorOf, testServer } from './support/harness.js';

t.test('subscribing yourself answers subscribed keyed by user ID, then already_subscribed without events', async (t) => {
  const s = testServer();
  const hamlet = String(s.id(HAMLET));
  const first = await sub(s, HAMLET, { subscriptions: names('Scotland') });
  t.same(first.body, { result: 'success', msg: '', subscribed: { [hamlet]: ['Scotland'] }, already_subscribed: {}, new_subscription_messages_sent: true });
  const events = recordEvents(s);
  const again = await sub(s, HAMLET, { subscriptions: names('Scotland') });
  t.same(again.body.subscribed, {});
  t.same(again.body.already_subscribed, { [hamlet]: ['Scotland'] });
  t.same(events, [], 'nothing changed, so nothing is announced');
});

t.test('existing channels match case-insensitively and after Python whitespace stripping; the stored name is answered', async (t) => {
  const s = testServer();
  const count = s.world.streams.size;
  const reply = await sub(s, HAMLET, { subscriptions: names('  sCoTlAnD\u001c', 'VENICE\t') });
  t.same(reply.body.subscribed, { [String(s.id(HAMLET))]: ['Scotland', 'Venice'] });
  t.equal(s.world.streams.size, count, 'no channel was created');
});

t.test('guests are refused before any parameter is read, even for web-public channels', async (t) => {
  const s = testServer();
  const before = channelState(s);
  t.same(errorOf(await sub(s, POLONIUS, { subscriptions: 'not json' })), bad('Not allowed for guest users'));
  t.same(errorOf(await sub(s, POLONIUS, { subscriptions: names('Rome') })), bad('Not allowed for guest users'));
  t.equal(channelState(s), before);
});

t.test('subscriptions is required and must be a list of objects with a string name', async (t) => {
  const s = testServer();
  const missing = await sub(s, HAMLET, {});
  t.same(errorOf(missing), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'subscriptions' argument" });
  t.equal(missing.body.var_name, 'subscriptions');
  t.same(errorOf(await sub(s, HAMLET, { subscriptions: { name: 'x' } })), bad('subscriptions is not a list'));
  t.same(errorOf(await sub(s, HAMLET, { subscriptions: [{ name: 5 }] })), bad('subscriptions[0]["name"] is not a string'));
  t.same(errorOf(await sub(s, HAMLET, { subscriptions: 'x' })), bad('subscriptions is not valid JSON'));
  t.equal((await sub(s, HAMLET, { subscriptions: [{ nom: 'x' }] })).status, 400, 'a missing name is refused');
});

t.test('channel names are validated with the exact messages and 1-based positions, creating nothing', async (t) => {
  const s = testServer();
  const before = channelState(s);
  const cases: Array<[string, string]> = [
    ['', "Channel name can't be empty."],
    ['   ', "Channel name can't be empty."],
    ['x'.repeat(61), 'Channel name too long (limit: 60 characters).'],
    ['😎'.repeat(61), 'Channel name too long (limit: 60 characters).'],
    ['abc\u0000', 'Invalid character in channel name, at position 4.'],
    ['new\n\rstream', 'Invalid character in channel name, at position 4.'],
    ['abc\ufffe', 'Invalid character in channel name, at position 4.'],
    ['ab\u{10ffff}', 'Invalid character in channel name, at position 3.'],
    ['a\u0085b', 'Invalid character in channel name, at position 2.'],
  ];
  for (const [name, msg] of cases) {
    t.same(errorOf(await sub(s, HAMLET, { subscriptions: [{ name: 'fine one' }, { name }] })), bad(msg), JSON.stringify(name));
  }
  // A lone surrogate can only arrive through a JSON escape.
  t.same(errorOf(await sub(s, HAMLET, { subscriptions: '[{"name": "x\\ud800y"}]' })), bad('Invalid character in channel name, at position 2.'));
  t.equal(channelState(s), before, 'no channel and no subscription came from the refused requests');
});

t.test('names at the limit, non-ASCII names and prototype-like names are ordinary channels', async (t) => {
  const s = testServer();
  const hamlet = String(s.id(HAMLET));
  const list = ['x'.repeat(60), '😎'.repeat(60), 'hümbüǵ', '__proto__', 'constructor', 'hasOwnProperty'];
  const reply = await sub(s, HAMLET, { subscriptions: names(...list) });
  t.equal(reply.status, 200);
  t.same(reply.body.subscribed, { [hamlet]: list });
  for (const name of list) {
    const found = await s.as(HAMLET).get('/get_stream_id', { stream: name });
    t.equal(found.body.stream_id, s.streamId(name), name);
  }
  const listed = await s.as(HAMLET).get('/users/me/subscriptions');
  t.ok(listed.body.subscriptions.some((x: { name: string }) => x.name === '__proto__'));
});

t.test('descriptions and colours are validated per entry', async (t) => {
  const s = testServer();
  t.same(
    errorOf(await sub(s, HAMLET, { subscriptions: [{ name: 'n', description: 'd'.repeat(1025) }] })),
    bad('subscriptions[0]["description"] is too long (limit: 1024 characters)'),
  );
  t.same(
    errorOf(await sub(s, HAMLET, { subscriptions: [{ name: 'n', color: 'red' }] })),
    bad('subscriptions[0]["color"] is not a valid hex color code'),
  );
  const ok = await sub(s, HAMLET, { subscriptions: [{ name: 'Scotland', color: '#abcdef', extra: 'ignored' }] });
  t.equal(ok.status, 200);
  t.equal(s.world.subscriptions.get(s.streamId('Scotland'))?.get(s.id(HAMLET))?.color, '#abcdef');
});

t.test('new subscriptions take the first palette colour the user does not use yet', async (t) => {
  const s = testServer();
  const used = new Set([...s.world.subscriptions.values()].map((subs) => subs.get(s.id(CORDELIA))?.color).filter(Boolean));
  await sub(s, CORDELIA, { subscriptions: names('Scotland') });
  const color = s.world.subscriptions.get(s.streamId('Scotland'))?.get(s.id(CORDELIA))?.color;
  t.notOk(used.has(color), 'a colour not used by the user');
});

t.test('an error anywhere leaves no channel and no subscription behind', async (t) => {
  const s = testServer();
  const before = channelState(s);
  t.same(errorOf(await sub(s, OTHELLO, { subscriptions: names('brand new', 'core team') })), bad('Unable to access channel (core team).'));
  t.same(errorOf(await sub(s, HAMLET, { subscriptions: names('brand new', 'Scotland'), principals: [999] })), bad('No such user'));
  t.same(errorOf(await sub(s, HAMLET, { subscriptions: names('brand new', 'Scotland'), principals: [`user${s.id(OTHELLO)}@zulipdev.com`, 'ghost@zulip.com'] })), bad('No such user'));
  t.same(errorOf(await sub(s, HAMLET, { subscriptions: names('brand new'), message_retention_days: 0 })).code, 'REQUEST_VARIABLE_INVALID');
  t.equal(channelState(s), before);
  t.notOk(s.world.streamByName('brand new'));
});

t.test('a private channel you cannot access is fatal by default, or listed under unauthorized', async (t) => {
  const s = testServer();
  t.same(errorOf(await sub(s, OTHELLO, { subscriptions: names('core team') })), bad('Unable to access channel (core team).'));
  const soft = await sub(s, OTHELLO, { subscriptions: names('core team', 'Venice'), authorization_errors_fatal: false });
  t.same(soft.body, {
    result: 'success',
    msg: '',
    subscribed: { [String(s.id(OTHELLO))]: ['Venice'] },
    already_subscribed: {},
    unauthorized: ['core team'],
    new_subscription_messages_sent: true,
  });
  const fatal = await sub(s, OTHELLO, { subscriptions: names('Rome') });
  t.notOk('unauthorized' in fatal.body, 'unauthorized appears only when authorization_errors_fatal is false');
});

t.test('subscribing others needs the realm or channel add-subscribers permission, even when errors are not fatal', async (t) => {
  const s = testServer();
  const othello = s.id(OTHELLO);
  t.equal((await sub(s, HAMLET, { subscriptions: names('Scotland'), principals: [othello] })).status, 200, 'members may by default');
  s.world.realm.settings.set('can_add_subscribers_group', { kind: 'group', groupId: s.world.systemGroupId('role:administrators') });
  const before = channelState(s);
  const refused = await sub(s, HAMLET, { subscriptions: names('Venice'), principals: [othello], authorization_errors_fatal: false });
  t.same(errorOf(refused), bad('Insufficient permission'));
  t.equal(channelState(s), before);
  t.equal((await sub(s, IAGO, { subscriptions: names('Venice'), principals: [othello] })).status, 200, 'administrators always may');
  const venice = s.world.streamByName('Rome')!;
  venice.settings.set('can_add_subscribers_group', { kind: 'anonymous', members: new Set([s.id(HAMLET)]), subgroups: new Set() });
  t.equal((await sub(s, HAMLET, { subscriptions: names('Rome'), principals: [othello] })).status, 200, 'the channel group grants it');
  const denmark = s.world.streamByName('Denmark')!;
  denmark.settings.set('can_administer_channel_group', { kind: 'anonymous', members: new Set([s.id(CORDELIA)]), subgroups: new Set() });
  t.equal((await sub(s, CORDELIA, { subscriptions: names('Denmark'), principals: [othello] })).status, 200, 'so does administering');
  t.equal((await sub(s, HAMLET, { subscriptions: names('Denmark'), principals: [s.id(HAMLET)] })).status, 200, 'only yourself is not "others"');
});

t.test('rule 2: can_add_subscribers_group members add to a private channel without being subscribed from level 349', async (t) => {
  for (const [level, ok] of [[348, false], [349, true]] as const) {
    const s = testServer({ featureLevel: level });
    const core = s.world.streamByName('core team')!;
    core.settings.set('can_add_subscribers_group', { kind: 'anonymous', members: new Set([s.id(OTHELLO)]), subgroups: new Set() });
    const reply = await sub(s, OTHELLO, { subscriptions: names('core team'), principals: [s.id(CORDELIA), s.id(OTHELLO)] });
    if (ok) t.same(reply.body.subscribed, { [String(s.id(CORDELIA))]: ['core team'], [String(s.id(OTHELLO))]: ['core team'] }, `level ${level}`);
    else t.same(errorOf(reply), bad('Unable to access channel (core team).'), `level ${level}`);
  }
});

t.test('can_subscribe_group members may join a private channel from level 357', async (t) => {
  for (const [level, ok] of [[356, false], [357, true]] as const) {
    const s = testServer({ featureLevel: level });
    s.world.streamByName('core team')!.settings.set('can_subscribe_group', { kind: 'anonymous', members: new Set([s.id(OTHELLO)]), subgroups: new Set() });
    const reply = await sub(s, OTHELLO, { subscriptions: names('core team') });
    t.equal(reply.status, ok ? 200 : 400, `level ${level}`);
  }
});

t.test('principals may be user IDs or emails; unknown, cross-realm and deactivated users are refused', async (t) => {
  const s = testServer();
  const viaEmails = await sub(s, IAGO, { subscriptions: names('Scotland'), principals: ['hamlet@zulip.com', `user${s.id(CORDELIA)}@zulipdev.com`] });
  t.same(viaEmails.body.subscribed, { [String(s.id(HAMLET))]: ['Scotland'], [String(s.id(CORDELIA))]: ['Scotland'] });
  t.same(errorOf(await sub(s, HAMLET, { subscriptions: names('Venice'), principals: ['othello@zulip.com'] })), bad('No such user'), 'members only know API emails');
  t.same(errorOf(await sub(s, IAGO, { subscriptions: names('Venice'), principals: [999] })), bad('No such user'));
  t.same(errorOf(await sub(s, IAGO, { subscriptions: names('Venice'), principals: ['nobody@zulip.com'] })), bad('No such user'));
  t.same(errorOf(await sub(s, IAGO, { subscriptions: names('Venice'), principals: [4] })), bad('No such user'), 'Notification Bot is not in the realm');
  userOf(s, OTHELLO).isActive = false;
  t.same(errorOf(await sub(s, IAGO, { subscriptions: names('Venice'), principals: [s.id(OTHELLO)] })), bad('User is deactivated'));
  t.equal((await sub(s, IAGO, { subscriptions: names('Venice'), principals: [16] })).status, 200, 'bots may be subscribed');
  t.equal((await sub(s, IAGO, { subscriptions: names('Venice'), principals: [1, 'x'] })).status, 400, 'a mixed list is refused');
});

t.test('rule 4: before level 208 a bad principal is 403 UNAUTHORIZED_PRINCIPAL naming it', async (t) => {
  const old = testServer({ featureLevel: 207 });
  const reply = await sub(old, IAGO, { subscriptions: names('Venice'), principals: [999] });
  t.same(errorOf(reply), { status: 403, code: 'UNAUTHORIZED_PRINCIPAL', msg: "User not authorized to execute queries on behalf of '999'" });
  t.equal(reply.body.principal, 999);
  const byEmail = await sub(old, IAGO, { subscriptions: names('Venice'), principals: ['ghost@zulip.com'] });
  t.equal(byEmail.body.msg, "User not authorized to execute queries on behalf of 'ghost@zulip.com'");
  userOf(old, OTHELLO).isActive = false;
  t.equal((await sub(old, IAGO, { subscriptions: names('Venice'), principals: [old.id(OTHELLO)] })).status, 403);
  const current = testServer({ featureLevel: 208 });
  t.same(errorOf(await sub(current, IAGO, { subscriptions: names('Venice'), principals: [999] })), bad('No such user'));
});

t.test('an email principal always counts as subscribing others, even your own', async (t) => {
  const s = testServer();
  s.world.realm.settings.set('can_add_subscribers_group', { kind: 'group', groupId: s.world.systemGroupId('role:administrators') });
  const own = `user${s.id(HAMLET)}@zulipdev.com`;
  t.same(errorOf(await sub(s, HAMLET, { subscriptions: names('Venice'), principals: [own] })), bad('Insufficient permission'));
  t.equal((await sub(s, HAMLET, { subscriptions: names('Venice'), principals: [s.id(HAMLET)] })).status, 200);
});

t.test('integer principals exist from level 9', async (t) => {
  const s = testServer({ featureLevel: 8 });
  t.same(errorOf(await sub(s, IAGO, { subscriptions: names('Venice'), principals: [s.id(HAMLET)] })), bad('principals[0] is not a string'));
  t.equal((await sub(s, IAGO, { subscriptions: names('Venice'), principals: [`user${s.id(HAMLET)}@zulipdev.com`] })).status, 200);
});

t.test('response keys are API emails before level 289 and user IDs from it', async (t) => {
  const old = testServer({ featureLevel: 288 });
  const reply = await sub(old, HAMLET, { subscriptions: names('Scotland', 'Denmark') });
  t.same(reply.body.subscribed, { [`user${old.id(HAMLET)}@zulipdev.com`]: ['Scotland'] });
  t.same(reply.body.already_subscribed, { [`user${old.id(HAMLET)}@zulipdev.com`]: ['Denmark'] });
  const current = testServer({ featureLevel: 289 });
  t.same((await sub(current, HAMLET, { subscriptions: names('Scotland') })).body.subscribed, { [String(current.id(HAMLET))]: ['Scotland'] });
});

t.test('new_subscription_messages_sent follows send_new_subscription_messages from level 397', async (t) => {
  const s = testServer();
  t.equal((await sub(s, HAMLET, { subscriptions: names('Scotland') })).body.new_subscription_messages_sent, true);
  const off = await sub(s, HAMLET, { subscriptions: names('Venice'), send_new_subscription_messages: false });
  t.notOk('new_subscription_messages_sent' in off.body);
  const old = testServer({ featureLevel: 396 });
  const reply = await sub(old, HAMLET, { subscriptions: names('Scotland'), send_new_subscription_messages: false });
  t.notOk('new_subscription_messages_sent' in reply.body);
  t.same(reply.body.ignored_parameters_unsupported, ['send_new_subscription_messages']);
});

t.test('a former subscription is reactivated with its old settings', async (t) => {
  const s = testServer();
  const denmark = s.streamId('Denmark');
  const row = s.world.subscriptions.get(denmark)!.get(s.id(HAMLET))!;
  row.color = '#123456';
  row.pinToTop = true;
  await s.as(HAMLET).delete('/users/me/subscriptions', { subscriptions: ['Denmark'] });
  const reply = await sub(s, HAMLET, { subscriptions: names('Denmark') });
  t.same(reply.body.subscribed, { [String(s.id(HAMLET))]: ['Denmark'] });
  t.match(s.world.subscriptions.get(denmark)!.get(s.id(HAMLET)), { active: true, color: '#123456', pinToTop: true });
});

t.test('bad input never yields a server error', async (t) => {
  const s = testServer();
  const values: unknown[] = ['', 'null', '{}', '[]', '[null]', '[{"name": null}]', '1e999', '"x"', '[1.5]', '{"__proto__": 1}', 'true', '-1', '[[]]'];
  const params = [
    'subscriptions', 'principals', 'invite_only', 'is_web_public', 'is_default_stream', 'history_public_to_subscribers',
    'message_retention_days', 'topics_policy', 'can_add_subscribers_group', 'can_remove_subscribers_group', 'announce',
    'authorization_errors_fatal', 'folder_id', 'send_new_subscription_messages',
  ];
  for (const name of params) {
    for (const value of values) {
      const reply = await sub(s, DESDEMONA, { subscriptions: names('fuzz'), [name]: value });
      t.ok(reply.status < 500, `${name}=${String(value)} -> ${reply.status}`);
    }
  }
});
