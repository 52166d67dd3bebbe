/**
 * `emails_restricted_to_domains` and `disallow_disposable_email_addresses` where the real server
 * checks an address against the realm (`get_realm_email_validator`): creating a user
 * (`create_user_backend`), inviting (`do_invite_users`) and changing one's email
 * (`validate_email_change_request`, also behind an administrator's `new_email`), each with its
 * own texts. After
 * zerver/tests/test_realm_domains.py `test_email_allowed_for_realm`.
 */
import t from 'tap';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const OWNER = 'desdemona@zulip.com';
const ADMIN = 'iago@zulip.com';
const MEMBER = 'hamlet@zulip.com';

const createUser = (s: TestServer, email: string) => s.as(ADMIN).post('/users', { email, password: 'a-long-password', full_name: 'New Person' });
const invite = (s: TestServer, email: string) => s.as(ADMIN).post('/invites', { invitee_emails: email, stream_ids: [] });
const changeEmail = (s: TestServer, email: string) => s.as(MEMBER).patch('/settings', { email });

async function restricted(domains: ReadonlyArray<readonly [string, boolean]> = []): Promise<TestServer> {
  const s = testServer();
  for (const [domain, allow] of domains) await s.as(OWNER).post('/realm/domains', { domain, allow_subdomains: allow });
  await s.as(OWNER).patch('/realm', { emails_restricted_to_domains: true });
  return s;
}

// [address, refused?] with zulip.com (no subdomains) and test2.test1.com (subdomains) allowed.
const addresses: Array<[string, boolean]> = [
  ['new@zulip.com', false],
  ['new@ZULIP.com', false],
  ['new@sub.zulip.com', true],
  ['new@test2.test1.com', false],
  ['new@test3.test2.test1.com', false],
  ['new@test3.test1.com', true],
  ['new@example.com', true],
];

for (const [email, refused] of addresses) {
  t.test(`with emails restricted, ${email} is ${refused ? 'refused' : 'accepted'} by user creation, invitations and email changes`, async (t) => {
    const s = await restricted([['test2.test1.com', true]]);
    const created = await createUser(s, email);
    const invited = await invite(s, email.replace('new@', 'invited@'));
    const changed = await changeEmail(s, email.replace('new@', 'changed@'));
    if (refused) {
      t.same(errorOf(created), bad(`Email '${email}' not allowed in this organization`));
      t.same(invited.body.errors, [[email.replace('new@', 'invited@'), 'Outside your domain.', false]]);
      t.same(errorOf(changed), bad('Outside your domain.'));
    } else {
      t.equal(created.status, 200);
      t.equal(invited.status, 200);
      t.equal(changed.status, 200);
    }
  });
}

t.test('with emails restricted, an address with + is refused even at an allowed domain', async (t) => {
  const s = await restricted();
  t.same(errorOf(await createUser(s, 'new+tag@zulip.com')), bad('Email addresses containing + are not allowed.'));
  t.same((await invite(s, 'new+tag@zulip.com')).body.errors, [['new+tag@zulip.com', 'Email addresses containing + are not allowed.', false]]);
  t.same(errorOf(await changeEmail(s, 'new+tag@zulip.com')), bad('Email addresses containing + are not allowed.'));
});

t.test('allowing subdomains of a domain lets its subdomains in at once; removing it refuses them again', async (t) => {
  const s = await restricted();
  t.same(errorOf(await createUser(s, 'a@sub.zulip.com')), bad("Email 'a@sub.zulip.com' not allowed in this organization"));
  await s.as(OWNER).patch('/realm/domains/zulip.com', { allow_subdomains: true });
  t.equal((await createUser(s, 'a@sub.zulip.com')).status, 200);
  await s.as(OWNER).post('/realm/domains', { domain: 'acme.com', allow_subdomains: false });
  await s.as(OWNER).delete('/realm/domains/acme.com');
  t.same(errorOf(await createUser(s, 'b@acme.com')), bad("Email 'b@acme.com' not allowed in this organization"));
});

t.test('without the restriction, disposable providers are refused while disallow_disposable_email_addresses is on', async (t) => {
  const s = testServer();
  t.same(errorOf(await createUser(s, 'x@mailinator.com')), bad('Disposable email addresses are not allowed in this organization'));
  t.same(errorOf(await changeEmail(s, 'x@mailinator.com')), bad('Please use your real email address.'));
  t.equal((await createUser(s, 'new+tag@example.com')).status, 200, 'the + check belongs to restricted realms');
  await s.as(OWNER).patch('/realm', { disallow_disposable_email_addresses: false });
  t.equal((await createUser(s, 'x@mailinator.com')).status, 200);
});

t.test('a restricted realm does not check for disposable providers: its domains are the list', async (t) => {
  const s = await restricted([['mailinator.com', false]]);
  t.equal((await createUser(s, 'x@mailinator.com')).status, 200);
});

t.test("with emails restricted, an administrator's new_email for another user is refused outside the realm's domains", async (t) => {
  const s = await restricted();
  const hamlet = s.id(MEMBER);
  t.same(errorOf(await s.as(ADMIN).patch(`/users/${hamlet}`, { new_email: 'prince@example.com' })), bad('Outside your domain.'));
  t.equal(s.world.users.get(hamlet)?.deliveryEmail, MEMBER);
  t.equal((await s.as(ADMIN).patch(`/users/${hamlet}`, { new_email: 'prince@zulip.com' })).status, 200);
});
