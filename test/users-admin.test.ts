import t from 'tap';
import { recordEvents } from './support/events.js';
import { basic, Client, errorOf, testServer, type TestServer } from './support/harness.js';

const iago = 'iago@zulip.com';
const hamlet = 'hamlet@zulip.com';
const desdemona = 'desdemona@zulip.com';

const clientFor = (s: TestServer, email: string, key: string): Client => new Client(s.app, basic(email, key));

const newUser = { email: 'newbie@zulip.com', password: 'pw-abc-123', full_name: 'New Bie' };

t.test('POST /users creates a member with a fresh API key that works at once', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  const reply = await s.as(iago).post('/users', newUser);
  t.same(Object.keys(reply.body).sort(), ['msg', 'result', 'user_id']);
  const user = s.world.users.get(reply.body.user_id);
  t.ok(user);
  if (!user) return;
  t.match(user.apiKey, /^[A-Za-z0-9]{32}$/);
  t.not(user.apiKey, s.world.users.get(s.id(iago))?.apiKey);
  t.equal(user.role, 400);
  t.equal(user.dateJoined, s.clock.now());
  const me = await clientFor(s, 'newbie@zulip.com', user.apiKey).get('/users/me');
  t.equal(me.body.full_name, 'New Bie');
  t.equal(me.body.user_id, user.id);
  const members = s.world.groups.get(s.world.systemGroupId('role:members'));
  t.ok(members?.members.has(user.id), 'in the role group of its role');
  t.ok(s.world.groups.get(s.world.systemGroupId('role:fullmembers'))?.members.has(user.id), 'waiting period 0: a full member');
  for (const streamId of s.world.defaultStreamIds) t.ok(s.world.subscriptions.get(streamId)?.get(user.id)?.active, `subscribed to default channel ${streamId}`);
  const add = seen.find((e) => e.event.type === 'realm_user' && e.event.op === 'add');
  t.ok(add, 'realm_user add is sent');
  t.ok(seen.some((e) => e.event.type === 'subscription' && e.event.op === 'peer_add'));
  t.ok(seen.some((e) => e.event.type === 'user_group' && e.event.op === 'add_members' && e.event.group_id === s.world.systemGroupId('role:members')));
});

t.test('a new user is announced first, then subscribed to the default channels: subscription/add to them, peer_add to the peers', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  const id = (await s.as(iago).post('/users', newUser)).body.user_id as number;
  const order = seen.map((e) => `${e.event.type}/${String(e.event.op)}`);
  t.ok(order.indexOf('realm_user/add') < order.indexOf('subscription/peer_add'));
  const add = seen.filter((e) => e.event.type === 'subscription' && e.event.op === 'add');
  t.same(add.map((e) => e.userIds), [[id]]);
  const defaults = [...s.world.defaultStreamIds].sort((a, b) => a - b);
  t.same((add[0]!.event.subscriptions as Array<{ stream_id: number }>).map((x) => x.stream_id), defaults);
  // Polonius, a guest, is subscribed to each default channel: each gets its own audience.
  const peers = seen.filter((e) => e.event.type === 'subscription' && e.event.op === 'peer_add');
  t.same(peers.map((e) => e.event), defaults.map((streamId) => ({ type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: [id] })));
  t.ok(peers.every((e) => !e.userIds.includes(id) && e.userIds.includes(s.id('polonius@zulip.com'))));
});

t.test('deactivating a user tells the peers of each private channel: its subscribers and administrators', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  await s.as(iago).delete(`/users/${s.id(hamlet)}`);
  const coreTeam = s.streamId('core team');
  const peer = seen.filter((e) => e.event.type === 'subscription' && e.event.op === 'peer_remove' && (e.event.stream_ids as number[]).includes(coreTeam));
  t.same(peer.map((e) => [e.event, [...e.userIds].sort((a, b) => a - b)]), [
    [{ type: 'subscription', op: 'peer_remove', stream_ids: [coreTeam], user_ids: [s.id(hamlet)] }, [s.id(desdemona), s.id(iago)]],
  ]);
});

t.test('POST /users checks the administrator role before parameters', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(hamlet).post('/users', {})), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
  const missing = await s.as(iago).post('/users', { email: 'x@zulip.com', full_name: 'Xavier' });
  t.same(errorOf(missing), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'password' argument" });
});

t.test('POST /users needs the realm option that stands for the can_create_users flag', async (t) => {
  const s = testServer();
  s.world.realm.canCreateUsers = false;
  const users = s.world.users.size;
  t.same(errorOf(await s.as(iago).post('/users', newUser)), { status: 400, code: 'BAD_REQUEST', msg: 'User not authorized to create users' });
  t.equal(s.world.users.size, users);
});

t.test('before level 36 any administrator could create users; user_id is returned from level 30', async (t) => {
  const at35 = testServer({ featureLevel: 35 });
  at35.world.realm.canCreateUsers = false;
  const reply = await at35.as(iago).post('/users', newUser);
  t.same(Object.keys(reply.body).sort(), ['msg', 'result', 'user_id']);
  const at29 = testServer({ featureLevel: 29 });
  const old = await at29.as(iago).post('/users', newUser);
  t.same(old.body, { result: 'success', msg: '' });
  t.ok(at29.world.usersByEmail.get('newbie@zulip.com'));
  const at36 = testServer({ featureLevel: 36 });
  at36.world.realm.canCreateUsers = false;
  t.equal((await at36.as(iago).post('/users', newUser)).body.msg, 'User not authorized to create users');
});

t.test('POST /users refuses bad names, bad emails and emails in use, creating nothing', async (t) => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ full_name: 'x' }, 'Name too short!'],
    [{ full_name: '  y  ' }, 'Name too short!'],
    [{ full_name: 'a'.repeat(101) }, 'Name too long!'],
    [{ full_name: 'Bad@Name' }, 'Invalid characters in name!'],
    [{ full_name: 'Tab\u0007Name' }, 'Invalid characters in name!'],
    [{ full_name: 'Someone|12' }, 'Invalid format!'],
    [{ email: 'not-an-email' }, 'Bad name or username'],
    [{ email: 'HAMLET@zulip.com' }, "Email 'HAMLET@zulip.com' already in use"],
  ];
  for (const [override, msg] of cases) {
    const s = testServer();
    const users = s.world.users.size;
    t.same(errorOf(await s.as(iago).post('/users', { ...newUser, ...override })), { status: 400, code: 'BAD_REQUEST', msg }, msg);
    t.equal(s.world.users.size, users);
  }
  const s = testServer();
  await s.as(iago).delete(`/users/${s.id('othello@zulip.com')}`);
  t.equal((await s.as(iago).post('/users', { ...newUser, email: 'othello@zulip.com' })).body.msg, "Email 'othello@zulip.com' already in use", 'deactivated users count');
  const ok = await s.as(iago).post('/users', { ...newUser, full_name: '  Trimmed Name  ' });
  t.equal(s.world.users.get(ok.body.user_id)?.fullName, 'Trimmed Name');
});

t.test('DELETE /users/{id} deactivates at once: the next request gets 401 Account is deactivated', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  const othello = s.id('othello@zulip.com');
  t.same((await s.as(iago).delete(`/users/${othello}`)).body, { result: 'success', msg: '' });
  t.equal(s.world.users.get(othello)?.isActive, false);
  t.same(errorOf(await s.as('othello@zulip.com').get('/users/me')), { status: 401, code: 'UNAUTHORIZED', msg: 'Account is deactivated' });
  const update = seen.find((e) => e.event.type === 'realm_user');
  t.same(update?.event, { type: 'realm_user', op: 'update', person: { user_id: othello, is_active: false } });
  t.ok(update?.userIds.includes(s.id(hamlet)));
  t.notOk(update?.userIds.includes(othello));
  const peer = seen.filter((e) => e.event.type === 'subscription' && e.event.op === 'peer_remove');
  t.ok(peer.length > 0, 'peer_remove for the channels');
  const streams = new Set(peer.flatMap((e) => e.event.stream_ids as number[]));
  t.ok(streams.has(s.streamId('Denmark')));
  t.ok(peer.every((e) => (e.event.user_ids as number[]).join() === String(othello)));
  t.equal(s.world.outbox.length, 0, 'no email without a comment');
});

t.test('DELETE /users/{id} checks in the real order with the real messages', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(hamlet).delete(`/users/${s.id('othello@zulip.com')}`)), { status: 400, code: 'BAD_REQUEST', msg: 'Insufficient permission' });
  t.same(errorOf(await s.as('shiva@zulip.com').delete(`/users/${s.id('othello@zulip.com')}`)), { status: 400, code: 'BAD_REQUEST', msg: 'Insufficient permission' }, 'moderators cannot');
  t.same(errorOf(await s.as(iago).delete('/users/1000')), { status: 400, code: 'BAD_REQUEST', msg: 'No such user' });
  t.same(errorOf(await s.as(iago).delete(`/users/${s.id('webhook-bot@zulip.com')}`)), { status: 400, code: 'BAD_REQUEST', msg: 'No such user' });
  t.same(errorOf(await s.as(iago).delete(`/users/${s.id(desdemona)}`)), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
  t.same(errorOf(await s.as(desdemona).delete(`/users/${s.id(desdemona)}`)), { status: 400, code: 'BAD_REQUEST', msg: 'Cannot deactivate the only organization owner' });
  t.same(
    errorOf(await s.as(iago).delete(`/users/${s.id('othello@zulip.com')}`, { deactivation_notification_comment: 'x'.repeat(2001) })),
    { status: 400, code: 'BAD_REQUEST', msg: 'deactivation_notification_comment is too long (limit: 2000 characters)' },
  );
  await s.as(iago).delete(`/users/${s.id('othello@zulip.com')}`);
  t.same(errorOf(await s.as(iago).delete(`/users/${s.id('othello@zulip.com')}`)), { status: 400, code: 'BAD_REQUEST', msg: 'User is deactivated' });
  for (const email of [desdemona, iago, hamlet]) t.equal(s.world.usersByEmail.get(email)?.isActive, true, `${email} untouched`);
});

t.test('an owner may deactivate another owner unless that owner is the last one', async (t) => {
  const s = testServer();
  const iagoUser = s.world.users.get(s.id(iago));
  if (iagoUser) iagoUser.role = 100;
  t.equal((await s.as(desdemona).delete(`/users/${s.id(iago)}`)).status, 200);
  t.equal((await s.as(desdemona).delete(`/users/${s.id(desdemona)}`)).body.msg, 'Cannot deactivate the only organization owner');
});

t.test('the notification email is queued when a comment is passed, with custom text only when non-empty', async (t) => {
  const s = testServer();
  await s.as(iago).delete(`/users/${s.id('othello@zulip.com')}`, { deactivation_notification_comment: '  Farewell!  ' });
  t.equal(s.world.outbox.length, 1);
  t.match(s.world.outbox[0], {
    template: 'deactivate',
    to: ['othello@zulip.com'],
    subject: 'Notification of account deactivation on Zulip Dev',
    context: { deactivation_notification_comment: 'Farewell!' },
  });
  await s.as(iago).delete(`/users/${s.id('cordelia@zulip.com')}`, { deactivation_notification_comment: '' });
  t.equal(s.world.outbox.length, 2);
  t.equal(s.world.outbox[1]?.context.deactivation_notification_comment, '');
});

t.test('deactivation_notification_comment exists from level 135', async (t) => {
  const s = testServer({ featureLevel: 134 });
  const reply = await s.as(iago).delete(`/users/${s.id('othello@zulip.com')}`, { deactivation_notification_comment: 'bye' });
  t.same(reply.body.ignored_parameters_unsupported, undefined, 'below 167 nothing is reported');
  t.equal(s.world.outbox.length, 0);
  t.equal(s.world.usersByEmail.get('othello@zulip.com')?.isActive, false);
});

t.test('bots owned by the deactivated user are deactivated too', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  const bot = s.id('outgoing-webhook@zulip.com');
  await s.as(iago).delete(`/users/${s.id('AARON@zulip.com')}`);
  t.equal(s.world.users.get(bot)?.isActive, false);
  t.ok(seen.some((e) => e.event.type === 'realm_bot' && (e.event.bot as { user_id: number }).user_id === bot));
  t.equal(s.world.users.get(s.id('default-bot@zulip.com'))?.isActive, true, "other users' bots stay");
});

t.test('POST /users/{id}/reactivate restores access and announces it', async (t) => {
  const s = testServer();
  const othello = s.id('othello@zulip.com');
  await s.as(iago).delete(`/users/${othello}`);
  const seen = recordEvents(s);
  const reply = await s.as(iago).post(`/users/${othello}/reactivate`, { bogus: 1 });
  t.same(reply.body, { result: 'success', msg: '' }, 'no ignored_parameters_unsupported: the view does not parse parameters');
  t.equal((await s.as('othello@zulip.com').get('/users/me')).status, 200);
  t.same(seen.find((e) => e.event.type === 'realm_user')?.event, { type: 'realm_user', op: 'update', person: { user_id: othello, is_active: true } });
  t.ok(seen.some((e) => e.event.type === 'subscription' && e.event.op === 'peer_add'));
});

t.test('reactivation is for administrators; unknown users are refused', async (t) => {
  const s = testServer();
  const othello = s.id('othello@zulip.com');
  await s.as(iago).delete(`/users/${othello}`);
  t.same(errorOf(await s.as(hamlet).post(`/users/${othello}/reactivate`)), { status: 400, code: 'BAD_REQUEST', msg: 'Insufficient permission' });
  t.same(errorOf(await s.as(iago).post('/users/9999/reactivate')), { status: 400, code: 'BAD_REQUEST', msg: 'No such user' });
  t.equal(s.world.users.get(othello)?.isActive, false);
});

t.test('a bot cannot be reactivated while an active user has its name', async (t) => {
  const s = testServer();
  const bot = s.world.users.get(s.id('outgoing-webhook@zulip.com'));
  await s.as(iago).delete(`/users/${s.id('AARON@zulip.com')}`);
  await s.as(iago).patch(`/users/${s.id('othello@zulip.com')}`, { full_name: 'Outgoing Webhook' });
  t.same(errorOf(await s.as(iago).post(`/users/${bot?.id}/reactivate`)), {
    status: 400,
    code: 'BAD_REQUEST',
    msg: 'There is already an active bot named "Outgoing Webhook" in this organization. To reactivate this bot, you must rename or deactivate the other one first.',
  });
  t.equal(bot?.isActive, false);
  await s.as(iago).patch(`/users/${s.id('othello@zulip.com')}`, { full_name: 'Othello' });
  t.equal((await s.as(iago).post(`/users/${bot?.id}/reactivate`)).status, 200);
  t.equal(bot?.botOwnerId, s.id(iago), 'a bot whose owner is deactivated gets the reactivating administrator');
});

t.test('below level 222 deactivation sends realm_user remove, and reactivation a realm_user add', async (t) => {
  const s = testServer({ featureLevel: 221 });
  const seen = recordEvents(s);
  const othello = s.id('othello@zulip.com');
  await s.as(iago).delete(`/users/${othello}`);
  t.same(seen.find((e) => e.event.type === 'realm_user')?.event, {
    type: 'realm_user',
    op: 'remove',
    person: { user_id: othello, full_name: 'Othello, the Moor of Venice' },
  });
  await s.as(iago).post(`/users/${othello}/reactivate`);
  const add = seen.find((e) => e.event.type === 'realm_user' && e.event.op === 'add');
  t.equal((add?.event.person as { user_id: number }).user_id, othello);
  const current = testServer({ featureLevel: 222 });
  const events = recordEvents(current);
  await current.as(iago).delete(`/users/${othello}`);
  t.equal(events.find((e) => e.event.type === 'realm_user')?.event.op, 'update');
});
