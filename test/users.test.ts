import t from 'tap';
import { errorOf, testServer } from './support/harness.js';

const iago = 'iago@zulip.com';
const hamlet = 'hamlet@zulip.com';

const HUMAN_KEYS = [
  'email', 'user_id', 'avatar_version', 'is_admin', 'is_owner', 'is_guest', 'role', 'is_bot', 'full_name',
  'timezone', 'is_active', 'date_joined', 'delivery_email', 'avatar_url', 'bot_type', 'bot_owner_id',
];

t.test('GET /users/{id} returns every field of section 2.3 and nothing else', async (t) => {
  const s = testServer();
  const reply = await s.as(iago).get(`/users/${s.id(hamlet)}`);
  t.equal(reply.status, 200);
  t.same(Object.keys(reply.body.user).sort(), [...HUMAN_KEYS].sort());
  t.match(reply.body.user, {
    user_id: s.id(hamlet),
    full_name: 'King Hamlet',
    role: 400,
    is_admin: false,
    is_owner: false,
    is_guest: false,
    is_bot: false,
    is_active: true,
    email: `user${s.id(hamlet)}@zulipdev.com`,
    delivery_email: 'hamlet@zulip.com',
  });
  t.match(reply.body.user.date_joined, /^\d{4}-\d\d-\d\dT\d\d:\d\d\+00:00$/);
});

t.test('the real email is visible only to the roles the target allows (administrators for the dev realm)', async (t) => {
  const s = testServer();
  const asMember = await s.as('othello@zulip.com').get(`/users/${s.id(hamlet)}`);
  t.equal(asMember.body.user.delivery_email, null);
  t.equal(asMember.body.user.email, `user${s.id(hamlet)}@zulipdev.com`, 'the API email is the same for every viewer');
  const self = await s.as(hamlet).get(`/users/${s.id(hamlet)}`);
  t.equal(self.body.user.delivery_email, 'hamlet@zulip.com', 'a user always sees their own');
  const moderator = await s.as('shiva@zulip.com').get(`/users/${s.id(hamlet)}`);
  t.equal(moderator.body.user.delivery_email, null, 'moderators are not administrators');
});

t.test('bots carry bot_type and bot_owner_id, an always-visible email, and no profile_data', async (t) => {
  const s = testServer();
  const bot = s.id('default-bot@zulip.com');
  const reply = await s.as('othello@zulip.com').get(`/users/${bot}`, { include_custom_profile_fields: true });
  t.match(reply.body.user, { is_bot: true, bot_type: 1, bot_owner_id: s.id('desdemona@zulip.com'), delivery_email: 'default-bot@zulip.com', email: 'default-bot@zulip.com' });
  t.notOk('profile_data' in reply.body.user);
  const human = await s.as(iago).get(`/users/${s.id(hamlet)}`);
  t.match(human.body.user, { bot_type: null, bot_owner_id: null }, 'non-bots carry null bot fields, as section 2.3 documents');
});

t.test('client_gravatar true gives a null avatar_url for gravatar users whose real email the caller can access', async (t) => {
  const s = testServer();
  const bot = await s.as('othello@zulip.com').get(`/users/${s.id('default-bot@zulip.com')}`);
  t.equal(bot.body.user.avatar_url, null, "bots' emails are visible to everyone");
  const hidden = await s.as('othello@zulip.com').get(`/users/${s.id(hamlet)}`);
  t.match(hidden.body.user.avatar_url, /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/, 'a member cannot see hamlet\'s real email');
  const visible = await s.as(iago).get(`/users/${s.id(hamlet)}`);
  t.equal(visible.body.user.avatar_url, null, 'an administrator can, and computes the URL itself');
  const explicit = await s.as(iago).get(`/users/${s.id('default-bot@zulip.com')}`, { client_gravatar: false });
  t.type(explicit.body.user.avatar_url, 'string');
});

t.test('client_gravatar defaulted to false before level 92', async (t) => {
  const s = testServer({ featureLevel: 91 });
  const reply = await s.as(iago).get(`/users/${s.id('default-bot@zulip.com')}`);
  t.type(reply.body.user.avatar_url, 'string');
});

t.test('include_custom_profile_fields adds profile_data keyed by field ID, rendered for Markdown fields', async (t) => {
  const s = testServer();
  const reply = await s.as(iago).get(`/users/${s.id(hamlet)}`, { include_custom_profile_fields: true });
  const data = reply.body.user.profile_data;
  t.same(data['1'], { value: '+0-11-23-456-7890', rendered_value: '<p>+0-11-23-456-7890</p>' });
  t.same(data['4'], { value: 'vim' }, 'list fields are not rendered');
  const none = await s.as(iago).get(`/users/${s.id('othello@zulip.com')}`, { include_custom_profile_fields: true });
  t.same(none.body.user.profile_data, {});
});

t.test('unknown, cross-realm and nonexistent users are "No such user"; deactivated users are returned', async (t) => {
  const s = testServer();
  for (const id of [99999, 4]) t.same(errorOf(await s.as(iago).get(`/users/${id}`)), { status: 400, code: 'BAD_REQUEST', msg: 'No such user' });
  s.world.users.get(s.id('othello@zulip.com'))!.isActive = false;
  const reply = await s.as(iago).get(`/users/${s.id('othello@zulip.com')}`);
  t.equal(reply.body.user.is_active, false);
  t.equal((await s.as(iago).get('/users/abc')).body.msg, 'No such user', 'a non-numeric segment is looked up as an email');
});

t.test('delivery_email is always present from level 163, and before it only when restricted and visible', async (t) => {
  const s = testServer({ featureLevel: 162 });
  const member = await s.as('othello@zulip.com').get(`/users/${s.id(hamlet)}`);
  t.notOk('delivery_email' in member.body.user);
  const admin = await s.as(iago).get(`/users/${s.id(hamlet)}`);
  t.equal(admin.body.user.delivery_email, 'hamlet@zulip.com');
  const bot = await s.as(iago).get(`/users/${s.id('default-bot@zulip.com')}`);
  t.notOk('delivery_email' in bot.body.user, 'public emails were not repeated');
});

t.test('is_billing_admin is sent only before level 363', async (t) => {
  const old = testServer({ featureLevel: 362 });
  t.equal((await old.as(iago).get(`/users/${old.id(hamlet)}`)).body.user.is_billing_admin, false);
  const s = testServer();
  t.notOk('is_billing_admin' in (await s.as(iago).get(`/users/${s.id(hamlet)}`)).body.user);
});

t.test('GET /users lists the realm, bots and deactivated users included, system bots excluded', async (t) => {
  const s = testServer();
  const reply = await s.as(iago).get('/users');
  const ids = reply.body.members.map((u: { user_id: number }) => u.user_id);
  t.ok(ids.includes(s.id('default-bot@zulip.com')));
  t.notOk(ids.includes(4), 'no cross-realm bots');
  t.equal(ids.length, 13);
});

t.test('GET /users user_ids (level 384) selects users and silently drops unknown IDs', async (t) => {
  const s = testServer();
  const reply = await s.as(iago).get('/users', { user_ids: [s.id(hamlet), 99999] });
  t.same(reply.body.members.map((u: { user_id: number }) => u.user_id), [s.id(hamlet)]);
  const old = testServer({ featureLevel: 383 });
  const oldReply = await old.as(iago).get('/users', { user_ids: [old.id(hamlet)] });
  t.equal(oldReply.body.members.length, 13);
  t.same(oldReply.body.ignored_parameters_unsupported, ['user_ids']);
});

t.test('a guest restricted from accessing all users sees placeholders for users they share nothing with', async (t) => {
  const s = testServer();
  const polonius = s.id('polonius@zulip.com');
  const othello = s.id('othello@zulip.com');
  s.world.realm.settings.set('can_access_all_users_group', { kind: 'group', groupId: s.world.systemGroupId('role:members') });
  for (const subs of s.world.subscriptions.values()) {
    const sub = subs.get(polonius);
    if (sub && subs.get(othello)?.active) sub.active = false;
  }
  t.same(errorOf(await s.as('polonius@zulip.com').get(`/users/${othello}`)), { status: 400, code: 'BAD_REQUEST', msg: 'Insufficient permission' });
  const list = await s.as('polonius@zulip.com').get('/users');
  const placeholder = list.body.members.find((u: { user_id: number }) => u.user_id === othello);
  t.match(placeholder, { full_name: 'Unknown user', delivery_email: null });
  t.equal(list.body.members.at(-1).full_name, 'Unknown user', 'placeholders come after accessible users');
  t.equal((await s.as('polonius@zulip.com').get(`/users/${s.id('default-bot@zulip.com')}`)).status, 200, 'bots stay accessible');
});

t.test('GET /users/me returns the caller with profile data and max_message_id', async (t) => {
  const s = testServer();
  const newest = (await s.as(iago).post('/messages', { type: 'stream', to: 'Verona', topic: 'max id', content: 'newest' })).body.id as number;
  const reply = await s.as(iago).get('/users/me');
  t.match(reply.body, { user_id: s.id(iago), delivery_email: 'iago@zulip.com', is_admin: true, max_message_id: newest });
  t.type(reply.body.profile_data, 'object');
  t.type(reply.body.avatar_url, 'string', 'the own avatar URL is always computed');
});

t.test('GET /users/{email} finds a user by API email, or by real email where visible', async (t) => {
  const s = testServer();
  const byApi = await s.as('othello@zulip.com').get(`/users/user${s.id(hamlet)}@zulipdev.com`);
  t.equal(byApi.body.user.user_id, s.id(hamlet));
  const byReal = await s.as(iago).get('/users/hamlet@zulip.com');
  t.equal(byReal.body.user.user_id, s.id(hamlet));
  t.equal((await s.as('othello@zulip.com').get('/users/hamlet@zulip.com')).body.msg, 'No such user', 'a hidden email is not a lookup key');
});

t.test('GET /realm/emoji lists the custom emoji keyed by ID', async (t) => {
  const s = testServer();
  const reply = await s.as('hamlet@zulip.com').get('/realm/emoji');
  t.equal(reply.status, 200);
  t.match(reply.body.emoji['1'], { id: '1', name: 'green_tick', deactivated: false, author_id: s.id(iago) });
});
