import t from 'tap';
import { userStatusState } from '../lib/queries/users/user-status.js';
import type { User } from '../lib/entities/user.js';
import { recordEvents } from './support/events.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const iago = 'iago@zulip.com';
const hamlet = 'hamlet@zulip.com';
const othello = 'othello@zulip.com';

const userOf = (s: TestServer, email: string): User => s.world.users.get(s.id(email)) as User;

t.test('a user sets a text and an emoji by name; GET returns them', async (t) => {
  const s = testServer();
  const reply = await s.as(hamlet).post('/users/me/status', { status_text: '  on vacation  ', emoji_name: 'car' });
  t.same(reply.body, { result: 'success', msg: '' });
  const status = await s.as(othello).get(`/users/${s.id(hamlet)}/status`);
  t.same(status.body, {
    result: 'success',
    msg: '',
    status: { status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' },
  });
});

t.test('GET status of a user who never set one is an empty object', async (t) => {
  const s = testServer();
  t.same((await s.as(hamlet).get(`/users/${s.id(othello)}/status`)).body.status, {});
});

t.test('the user_status event carries only the fields the request set, to users who can access the user', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  await s.as(hamlet).post('/users/me/status', { status_text: 'busy' });
  t.same(seen[0]?.event, { type: 'user_status', user_id: s.id(hamlet), status_text: 'busy' });
  t.ok(seen[0]?.userIds.includes(s.id(othello)));
  await s.as(hamlet).post('/users/me/status', { emoji_name: 'octopus' });
  t.same(seen[1]?.event, { type: 'user_status', user_id: s.id(hamlet), emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' });
  t.same((await s.as(othello).get(`/users/${s.id(hamlet)}/status`)).body.status.status_text, 'busy', 'the text set earlier stays');
});

t.test('the 60-character limit applies after stripping whitespace', async (t) => {
  const s = testServer();
  t.equal((await s.as(hamlet).post('/users/me/status', { status_text: ` ${'a'.repeat(60)}  ` })).status, 200);
  t.same(errorOf(await s.as(hamlet).post('/users/me/status', { status_text: 'a'.repeat(61) })), bad('status_text is too long (limit: 60 characters)'));
  t.equal(s.world.statuses.get(s.id(hamlet))?.statusText, 'a'.repeat(60));
});

t.test('an empty text clears the text and an empty emoji name clears the emoji', async (t) => {
  const s = testServer();
  await s.as(hamlet).post('/users/me/status', { status_text: 'busy', emoji_name: 'heart' });
  await s.as(hamlet).post('/users/me/status', { status_text: '', emoji_name: '', emoji_code: '1f697' });
  t.same((await s.as(othello).get(`/users/${s.id(hamlet)}/status`)).body.status, {});
  t.match(s.world.statuses.get(s.id(hamlet)), { emojiName: '', emojiCode: '', reactionType: 'unicode_emoji' });
});

t.test('every error condition of section 4.7 has the real message and leaves the status unchanged', async (t) => {
  const s = testServer();
  await s.as(hamlet).post('/users/me/status', { status_text: 'kept', emoji_name: 'smile' });
  const before = JSON.stringify(s.world.statuses.get(s.id(hamlet)));
  const cases: Array<[Record<string, string>, string]> = [
    [{}, 'Client did not pass any new values.'],
    [{ emoji_code: '1f697' }, 'Client did not pass any new values.'],
    [{ status_text: 'x', emoji_code: '1f697' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
    [{ status_text: 'x', reaction_type: 'unicode_emoji' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
    [{ emoji_name: 'invalid' }, "Emoji 'invalid' does not exist"],
    [{ emoji_name: 'car', emoji_code: '1f4bb' }, 'Invalid emoji name.'],
    [{ emoji_name: 'car', emoji_code: 'zzzz', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.'],
    [{ emoji_name: 'green_tick', emoji_code: '999', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
    [{ emoji_name: 'other', emoji_code: '1', reaction_type: 'realm_emoji' }, 'Invalid custom emoji name.'],
    [{ emoji_name: 'zulip', emoji_code: 'zap', reaction_type: 'zulip_extra_emoji' }, 'Invalid emoji code.'],
    [{ emoji_name: 'smile', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }, 'Invalid emoji name.'],
    [{ emoji_name: 'car', emoji_code: '1f697', reaction_type: 'bogus' }, 'Invalid emoji type.'],
  ];
  for (const [params, msg] of cases) {
    t.same(errorOf(await s.as(hamlet).post('/users/me/status', params)), bad(msg), msg);
    t.equal(JSON.stringify(s.world.statuses.get(s.id(hamlet))), before);
  }
  t.equal((await s.as(hamlet).post('/users/me/status', { status_text: 'x', emoji_code: '' })).status, 200, 'empty code without a name is not an error');
});

t.test('custom emoji resolve by name before Unicode names; deactivated ones are refused', async (t) => {
  const s = testServer();
  await s.as(hamlet).post('/users/me/status', { emoji_name: 'green_tick' });
  t.match((await s.as(othello).get(`/users/${s.id(hamlet)}/status`)).body.status, { emoji_name: 'green_tick', emoji_code: '1', reaction_type: 'realm_emoji' });
  const emoji = s.world.realmEmoji.get(1);
  if (emoji) emoji.deactivated = true;
  t.same(errorOf(await s.as(hamlet).post('/users/me/status', { emoji_name: 'green_tick', emoji_code: '1', reaction_type: 'realm_emoji' })), bad('This custom emoji has been deactivated.'));
  t.same(errorOf(await s.as(hamlet).post('/users/me/status', { emoji_name: 'green_tick' })), bad("Emoji 'green_tick' does not exist"));
});

t.test('the zulip emoji is zulip_extra_emoji; the description spelling service_extra_emoji is accepted', async (t) => {
  const s = testServer();
  await s.as(hamlet).post('/users/me/status', { emoji_name: 'zulip' });
  t.match(s.world.statuses.get(s.id(hamlet)), { emojiCode: 'zulip', reactionType: 'zulip_extra_emoji' });
  await s.as(hamlet).post('/users/me/status', { emoji_name: 'smile' });
  await s.as(hamlet).post('/users/me/status', { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' });
  t.match(s.world.statuses.get(s.id(hamlet)), { emojiName: 'zulip', emojiCode: 'zulip', reactionType: 'zulip_extra_emoji' });
});

t.test('bots may not set their own status', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as('default-bot@zulip.com').post('/users/me/status', { status_text: 'x' })), bad('This endpoint does not accept bot requests.'));
});

t.test('away mirrors presence_enabled from level 148', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  await s.as(hamlet).post('/users/me/status', { away: true });
  const user = s.world.users.get(s.id(hamlet));
  t.equal(user?.settings.get('presence_enabled'), false);
  t.ok(seen.some((e) => e.event.type === 'user_settings' && e.event.property === 'presence_enabled' && e.event.value === false));
  t.same(seen.find((e) => e.event.type === 'user_status')?.event, { type: 'user_status', user_id: s.id(hamlet), away: true });
  t.same((await s.as(othello).get(`/users/${s.id(hamlet)}/status`)).body.status, { away: true });
  await s.as(hamlet).post('/users/me/status', { away: false });
  t.equal(user?.settings.get('presence_enabled'), true);
  t.same((await s.as(othello).get(`/users/${s.id(hamlet)}/status`)).body.status, {});
});

t.test('below level 148 away is part of the status and leaves presence_enabled alone', async (t) => {
  const s = testServer({ featureLevel: 147 });
  await s.as(hamlet).post('/users/me/status', { away: true });
  t.equal(s.world.users.get(s.id(hamlet))?.settings.get('presence_enabled'), true);
  t.same(userStatusState(s.world, userOf(s, othello))[String(s.id(hamlet))], { away: true });
});

t.test('emoji parameters exist from level 86', async (t) => {
  const s = testServer({ featureLevel: 85 });
  const reply = await s.as(hamlet).post('/users/me/status', { status_text: 'x', emoji_name: 'car' });
  t.equal(reply.status, 200);
  t.equal(s.world.statuses.get(s.id(hamlet))?.emojiName, '');
});

t.test('GET /users/{id}/status: unknown, bot and deactivated users are refused; level 262', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(hamlet).get('/users/12345/status')), bad('No such user'));
  t.same(errorOf(await s.as(hamlet).get(`/users/${s.id('default-bot@zulip.com')}/status`)), bad('No such user'));
  await s.as(iago).delete(`/users/${s.id(othello)}`);
  t.same(errorOf(await s.as(hamlet).get(`/users/${s.id(othello)}/status`)), bad('User is deactivated'));
  const reply = await s.as(hamlet).get(`/users/${s.id(iago)}/status`, { bogus: 1 });
  t.same(reply.body, { result: 'success', msg: '', status: {} }, 'never reports ignored parameters');
  t.equal((await testServer({ featureLevel: 261 }).as(hamlet).get(`/users/${s.id(iago)}/status`)).status, 404);
});

t.test('administrators set another user status (level 407); others get Insufficient permission', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  const reply = await s.as(iago).post(`/users/${s.id(hamlet)}/status`, { status_text: '   at the beach  ', emoji_name: 'car', away: true });
  t.same(reply.body, { result: 'success', msg: '', ignored_parameters_unsupported: ['away'] });
  t.same((await s.as(othello).get(`/users/${s.id(hamlet)}/status`)).body.status, { status_text: 'at the beach', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
  t.equal(s.world.users.get(s.id(hamlet))?.settings.get('presence_enabled'), true, 'away is not a parameter here');
  t.same(seen.find((e) => e.event.type === 'user_status')?.event, {
    type: 'user_status',
    user_id: s.id(hamlet),
    status_text: 'at the beach',
    emoji_name: 'car',
    emoji_code: '1f697',
    reaction_type: 'unicode_emoji',
  });
  t.same(errorOf(await s.as(hamlet).post(`/users/${s.id(iago)}/status`, { status_text: 'x' })), bad('Insufficient permission'));
  t.same(errorOf(await s.as('shiva@zulip.com').post(`/users/${s.id(hamlet)}/status`, { status_text: 'x' })), bad('Insufficient permission'));
  t.same(errorOf(await s.as(iago).post('/users/12345/status', { status_text: 'x' })), bad('No such user'));
  t.same(errorOf(await s.as(iago).post(`/users/${s.id('default-bot@zulip.com')}/status`, { status_text: 'x' })), bad('No such user'));
  t.same(errorOf(await s.as(iago).post('/users/12345/status', { status_text: 'a'.repeat(61) })), bad('status_text is too long (limit: 60 characters)'), 'parameters are parsed before the lookup');
  t.same(errorOf(await s.as(iago).post(`/users/${s.id(hamlet)}/status`, {})), bad('Client did not pass any new values.'));
  t.equal((await s.as(iago).post(`/users/${s.id(iago)}/status`, { status_text: 'self' })).status, 200, 'an administrator may target themselves');
  t.equal((await s.as(iago).post(`/users/${s.id(hamlet)}/status`, { emoji_name: '' })).status, 200);
  t.same((await s.as(othello).get(`/users/${s.id(hamlet)}/status`)).body.status, { status_text: 'at the beach' });
});

t.test('the administrators endpoint does not exist below level 407', async (t) => {
  const s = testServer({ featureLevel: 406 });
  t.equal((await s.as(iago).post(`/users/${s.id(hamlet)}/status`, { status_text: 'x' })).status, 405, 'only GET is served on the path');
});

t.test('register state lists statuses that say something, for users the viewer can access', async (t) => {
  const s = testServer();
  await s.as(hamlet).post('/users/me/status', { status_text: 'busy' });
  await s.as(othello).post('/users/me/status', { status_text: '' });
  await s.as('cordelia@zulip.com').post('/users/me/status', { away: true });
  const state = userStatusState(s.world, userOf(s, iago));
  t.same(state, { [String(s.id(hamlet))]: { status_text: 'busy' }, [String(s.id('cordelia@zulip.com'))]: { away: true } });
  // A guest restricted by can_access_all_users_group does not see users it shares nothing with.
  const loner = (await s.as(iago).post('/users', { email: 'loner@zulip.com', password: 'pw-123-abc', full_name: 'Lone Wolf' })).body.user_id as number;
  for (const subs of s.world.subscriptions.values()) subs.delete(loner);
  t.equal((await s.as('loner@zulip.com').post('/users/me/status', { status_text: 'alone' })).status, 200);
  s.world.realm.settings.set('can_access_all_users_group', { kind: 'group', groupId: s.world.systemGroupId('role:members') });
  const limited = userStatusState(s.world, userOf(s, 'polonius@zulip.com'));
  t.ok(String(s.id(hamlet)) in limited, 'shares a channel with the guest');
  t.notOk(String(loner) in limited, 'inaccessible users are left out');
  t.ok(String(loner) in userStatusState(s.world, userOf(s, iago)));
});
