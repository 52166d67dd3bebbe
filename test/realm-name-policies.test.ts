/**
 * The realm's name and email policies where users change themselves and others, after the real
 * server (zerver/views/user_settings.py `json_change_settings`, zerver/lib/users.py
 * `check_full_name`; zerver/tests/test_users.py `test_require_unique_names`,
 * zerver/tests/test_settings.py `test_change_full_name_disabled` / email change tests).
 */
import t from 'tap';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const IAGO = 'iago@zulip.com';
const OWNER = 'desdemona@zulip.com';

const setRealm = async (s: TestServer, params: Record<string, unknown>) => t.equal((await s.as(OWNER).patch('/realm', params)).status, 200);

t.test('require_unique_names refuses a name another account has, compared after NFKC and case folding', async (t) => {
  const s = testServer();
  t.equal((await s.as(OWNER).patch(`/users/${s.id(HAMLET)}`, { full_name: 'IaGo' })).status, 200, 'allowed while the setting is off');
  await s.as(OWNER).patch(`/users/${s.id(HAMLET)}`, { full_name: 'King Hamlet' });
  await setRealm(s, { require_unique_names: true });
  const refused = bad('Unique names required in this organization.');
  for (const name of ['IaGo', 'ｉａｇｏ', '𝕚𝕒𝕘𝕠']) t.same(errorOf(await s.as(OWNER).patch(`/users/${s.id(HAMLET)}`, { full_name: name })), refused, name);
  t.same(errorOf(await s.as(HAMLET).patch('/settings', { full_name: 'iago' })), refused, 'PATCH /settings too');
  t.same(errorOf(await s.as(IAGO).post('/users', { email: 'new@zulip.com', password: 'pw-secret', full_name: 'IAGO' })), refused, 'POST /users too');
  t.same(errorOf(await s.as(HAMLET).post('/bots', { full_name: 'Iago', short_name: 'iagobot' })), refused, 'bots too');
  t.equal((await s.as(HAMLET).patch('/settings', { full_name: 'Hamlet the Dane' })).status, 200, 'a free name passes');
});

t.test('name_changes_disabled drops a member’s new name without an error; administrators still change theirs', async (t) => {
  const s = testServer();
  await setRealm(s, { name_changes_disabled: true });
  const reply = await s.as(HAMLET).patch('/settings', { full_name: 'Someone Else' });
  t.same(reply.body, { result: 'success', msg: '' });
  t.equal(s.world.users.get(s.id(HAMLET))?.fullName, 'King Hamlet');
  t.equal((await s.as(IAGO).patch('/settings', { full_name: 'Iago Admin' })).status, 200);
  t.equal(s.world.users.get(s.id(IAGO))?.fullName, 'Iago Admin');
});

t.test('email_changes_disabled refuses a member’s email change; administrators may still ask for one', async (t) => {
  const s = testServer();
  await setRealm(s, { email_changes_disabled: true });
  t.same(errorOf(await s.as(HAMLET).patch('/settings', { email: 'hamlet-new@zulip.com' })), bad('Email address changes are disabled in this organization.'));
  t.equal((await s.as(IAGO).patch('/settings', { email: 'iago-new@zulip.com' })).status, 200);
});
