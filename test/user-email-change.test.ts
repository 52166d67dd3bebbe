/**
 * `new_email` on `PATCH /users/{user_id}` and `PATCH /users/{email}` (level 313). The effects
 * follow the real server's `do_change_user_delivery_email` (zerver/actions/user_settings.py); the
 * permission text and the order of checks follow api_docs/changelog.md (313) and are unconfirmed.
 */
import t from 'tap';
import { EMAIL_VISIBILITY } from '../lib/entities/user.js';
import { restoreWorld, snapshotWorld } from '../lib/state/world-snapshot.js';
import { ofType, recordEvents } from './support/events.js';
import { basic, Client, errorOf, testServer, type TestServer } from './support/harness.js';

const iago = 'iago@zulip.com';
const hamlet = 'hamlet@zulip.com';
const cordelia = 'cordelia@zulip.com';
const refused = 'User not authorized to change user emails';

const withEveryoneVisibility = (s: TestServer, email: string): void => {
  s.world.usersByEmail.get(email)?.settings.set('email_address_visibility', EMAIL_VISIBILITY.EVERYONE);
};

t.test('an administrator with the permission changes a hidden address: delivery email to its viewers, the index and logins follow', async (t) => {
  const s = testServer();
  const target = s.world.users.get(s.id(hamlet))!;
  const apiEmailBefore = `user${target.id}@zulipdev.com`;
  const seen = recordEvents(s, { sortRecipients: true });
  const reply = await s.as(iago).patch(`/users/${target.id}`, { new_email: 'prince@zulip.com' });
  t.equal(reply.status, 200);
  t.equal(target.deliveryEmail, 'prince@zulip.com');
  t.equal(s.world.usersByEmail.get('prince@zulip.com'), target);
  t.notOk(s.world.usersByEmail.has(hamlet), 'the old address no longer finds anyone');
  const updates = ofType(seen, 'realm_user', 'update');
  const delivery = updates.find((e) => 'delivery_email' in (e.event.person as object));
  t.same(delivery?.event.person, { user_id: target.id, delivery_email: 'prince@zulip.com' });
  // Visibility "administrators": the user and the administrators, nobody else.
  const admins = [...s.world.users.values()].filter((u) => u.isActive && !u.isSystemBot && !u.isBot && (u.role <= 200 || u.id === target.id)).map((u) => u.id);
  t.same(delivery?.userIds, admins.sort((a, b) => a - b));
  t.notOk(updates.some((e) => 'new_email' in (e.event.person as object)), 'the API email stays the synthetic one');
  t.ok(updates.some((e) => 'avatar_url' in (e.event.person as object)), 'a Gravatar follows the address');
  const me = await new Client(s.app, basic('prince@zulip.com', target.apiKey)).get('/users/me');
  t.equal(me.body.email, apiEmailBefore);
  t.equal(me.body.delivery_email, 'prince@zulip.com');
  t.equal((await new Client(s.app, basic(hamlet, target.apiKey)).get('/users/me')).status, 401, 'the old address no longer logs in');
  t.equal((await s.as(iago).get('/users/prince@zulip.com')).body.user?.user_id, target.id);
});

t.test('an address visible to everyone changes the API email too: new_email to every active user', async (t) => {
  const s = testServer();
  withEveryoneVisibility(s, hamlet);
  const hamletId = s.id(hamlet);
  const seen = recordEvents(s, { sortRecipients: true });
  await s.as(iago).patch(`/users/${hamletId}`, { new_email: 'Prince@zulip.com' });
  const newEmail = ofType(seen, 'realm_user', 'update').find((e) => 'new_email' in (e.event.person as object));
  t.same(newEmail?.event.person, { user_id: hamletId, new_email: 'Prince@zulip.com' });
  t.ok(newEmail?.userIds.includes(s.id(cordelia)));
  const found = await s.as(cordelia).get('/users/prince@zulip.com');
  t.equal(found.body.user?.email, 'Prince@zulip.com', 'stored as given, found case-insensitively');
});

t.test('the permission is checked after the target lookup: unknown users and non-administrators get the lookup errors', async (t) => {
  const s = testServer();
  s.world.realm.canChangeUserEmails = false;
  t.same(errorOf(await s.as(iago).patch('/users/9999', { new_email: 'x@zulip.com' })), { status: 400, code: 'BAD_REQUEST', msg: 'No such user' });
  t.same(errorOf(await s.as(iago).patch(`/users/${s.id(hamlet)}`, { new_email: 'x@zulip.com' })), { status: 400, code: 'BAD_REQUEST', msg: refused });
  t.same(errorOf(await s.as(hamlet).patch(`/users/${s.id(cordelia)}`, { new_email: 'x@zulip.com' })), { status: 400, code: 'BAD_REQUEST', msg: 'Insufficient permission' });
  t.equal(s.world.users.get(s.id(hamlet))?.deliveryEmail, hamlet);
});

t.test('a refused email change changes nothing else in the same request', async (t) => {
  const s = testServer();
  s.world.realm.canChangeUserEmails = false;
  const seen = recordEvents(s);
  const reply = await s.as(iago).patch(`/users/${s.id(hamlet)}`, { full_name: 'Prince Hamlet', new_email: 'x@zulip.com' });
  t.equal(errorOf(reply).msg, refused);
  t.equal(s.world.users.get(s.id(hamlet))?.fullName, 'King Hamlet');
  t.same(seen, []);
});

t.test('the new address is checked like a self-service change: syntax, accounts, deactivated accounts, system bots', async (t) => {
  const s = testServer();
  await s.as(iago).delete(`/users/${s.id('othello@zulip.com')}`);
  const cases: Array<[string, string]> = [
    ['not an address', 'Invalid address.'],
    [cordelia, 'Already has an account.'],
    ['CORDELIA@zulip.com', 'Already has an account.'],
    ['othello@zulip.com', 'Account has been deactivated.'],
    ['notification-bot@zulip.com', 'Reserved for system bots.'],
  ];
  const seen = recordEvents(s);
  for (const [address, msg] of cases) {
    t.same(errorOf(await s.as(iago).patch(`/users/${s.id(hamlet)}`, { new_email: address })), { status: 400, code: 'BAD_REQUEST', msg }, address);
  }
  t.equal(s.world.users.get(s.id(hamlet))?.deliveryEmail, hamlet);
  t.same(seen, []);
});

t.test('the current address is no change: success without events', async (t) => {
  const s = testServer();
  const seen = recordEvents(s);
  t.equal((await s.as(iago).patch(`/users/${s.id(hamlet)}`, { new_email: hamlet })).status, 200);
  t.same(seen, []);
});

t.test("a bot's new address reaches its owner's bot record with the new Gravatar", async (t) => {
  const s = testServer();
  const bot = s.world.usersByEmail.get('default-bot@zulip.com')!;
  const seen = recordEvents(s);
  await s.as(iago).patch(`/users/${bot.id}`, { new_email: 'renamed-bot@zulip.com' });
  const record = ofType(seen, 'realm_bot', 'update')[0];
  t.ok(record?.userIds.includes(s.id('desdemona@zulip.com')));
  t.match(record?.event.bot, { user_id: bot.id, avatar_url: /gravatar/ });
  const bots = await s.as('desdemona@zulip.com').get('/bots');
  t.ok((bots.body.bots as Array<{ username: string }>).some((b) => b.username === 'renamed-bot@zulip.com'));
});

t.test('below level 313 new_email is an ignored parameter and PATCH /users/{email} is not a route', async (t) => {
  const s = testServer({ featureLevel: 312 });
  const reply = await s.as(iago).patch(`/users/${s.id(hamlet)}`, { new_email: 'prince@zulip.com' });
  t.same(reply.body.ignored_parameters_unsupported, ['new_email']);
  t.equal(s.world.users.get(s.id(hamlet))?.deliveryEmail, hamlet);
  const byEmail = await s.as(iago).patch(`/users/${hamlet}`, { full_name: 'Prince Hamlet' });
  t.equal(byEmail.status, 405);
  t.equal(s.world.users.get(s.id(hamlet))?.fullName, 'King Hamlet');
});

t.test('PATCH /users/{email} finds the user as GET /users/{email} does and updates like PATCH /users/{user_id}', async (t) => {
  const s = testServer();
  withEveryoneVisibility(s, cordelia);
  t.equal((await s.as(iago).patch(`/users/${cordelia}`, { full_name: 'Lady Cordelia' })).status, 200);
  t.equal(s.world.users.get(s.id(cordelia))?.fullName, 'Lady Cordelia');
  // Hidden address: the synthetic API email finds the user, and so does the real one for an administrator.
  const target = s.world.users.get(s.id(hamlet))!;
  t.equal((await s.as(iago).patch(`/users/user${target.id}@zulipdev.com`, { full_name: 'Prince Hamlet' })).status, 200);
  t.equal((await s.as(iago).patch(`/users/${hamlet}`, { new_email: 'prince@zulip.com' })).status, 200);
  t.equal(target.deliveryEmail, 'prince@zulip.com');
  const unknown = await s.as(iago).patch('/users/nobody@zulip.com', { full_name: 'Nobody Here' });
  t.same(errorOf(unknown), errorOf(await s.as(iago).get('/users/nobody@zulip.com')));
  t.equal(errorOf(unknown).msg, 'No such user');
  t.same(errorOf(await s.as('othello@zulip.com').patch(`/users/${cordelia}`, { full_name: 'X Y' })), { status: 400, code: 'BAD_REQUEST', msg: 'Insufficient permission' });
});

t.test('PATCH /users/me and numeric IDs keep their own routes', async (t) => {
  const s = testServer();
  t.equal((await s.as(iago).patch('/users/me', { full_name: 'Iago Again' })).status, 405);
  t.equal(s.world.users.get(s.id(iago))?.fullName, 'Iago');
  t.same(errorOf(await s.as(iago).patch('/users/9999', { full_name: 'Nobody Here' })).msg, 'No such user');
});

t.test('the realm option is on in the development realm and round-trips through a saved world', async (t) => {
  const s = testServer();
  t.equal(s.world.realm.canChangeUserEmails, true, 'on in the development realm');
  s.world.realm.canChangeUserEmails = false;
  t.equal(restoreWorld(JSON.parse(JSON.stringify(snapshotWorld(s.world)))).realm.canChangeUserEmails, false);
  s.world.realm.canChangeUserEmails = true;
  t.equal(restoreWorld(JSON.parse(JSON.stringify(snapshotWorld(s.world)))).realm.canChangeUserEmails, true);
});
