/**
 * Realm domains, after zerver/tests/test_realm_domains.py `RealmDomainTest`
 * (`test_list_realm_domains`, `test_not_realm_owner`, `test_create_realm_domain`,
 * `test_patch_realm_domain`, `test_delete_realm_domain`, `test_delete_all_realm_domains`,
 * `test_validate_domain`) and the changelog's level 143 (owners only; administrators before).
 */
import t from 'tap';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const OWNER = 'desdemona@zulip.com';
const ADMIN = 'iago@zulip.com';
const MEMBER = 'hamlet@zulip.com';
const GUEST = 'polonius@zulip.com';

const listed = async (s: TestServer, email = GUEST) => (await s.as(email).get('/realm/domains')).body.domains;
const registered = async (s: TestServer) => (await s.as(MEMBER).post('/register', { fetch_event_types: ['realm_domains'] })).body.realm_domains;
const add = (s: TestServer, domain: string, allow = false, email = OWNER) => s.as(email).post('/realm/domains', { domain, allow_subdomains: allow });

t.test('every account, guests included, reads the seeded zulip.com and then added domains in the order they were added', async (t) => {
  const s = testServer();
  t.same(await listed(s), [{ domain: 'zulip.com', allow_subdomains: false }]);
  const reply = await add(s, '  ACME.com ', true);
  t.equal(reply.status, 200);
  t.same(reply.body.new_domain?.[1], 'acme.com', 'stripped and lowercased');
  t.equal(typeof reply.body.new_domain?.[0], 'number');
  const expected = [{ domain: 'zulip.com', allow_subdomains: false }, { domain: 'acme.com', allow_subdomains: true }];
  t.same(await listed(s), expected);
  t.same(await registered(s), expected, 'register reflects the stored domains');
});

t.test('an owner changes and removes a domain; unknown domains are refused with the path text', async (t) => {
  const s = testServer();
  await add(s, 'acme.com');
  t.equal((await s.as(OWNER).patch('/realm/domains/acme.com', { allow_subdomains: true })).status, 200);
  t.same((await listed(s))[1], { domain: 'acme.com', allow_subdomains: true });
  t.same(errorOf(await s.as(OWNER).patch('/realm/domains/non-existent.com', { allow_subdomains: true })), bad('No entry found for domain non-existent.com.'));
  t.same(errorOf(await s.as(OWNER).patch('/realm/domains/ACME.com', { allow_subdomains: true })), bad('No entry found for domain ACME.com.'), 'the path is matched exactly');
  t.same(errorOf(await s.as(OWNER).delete('/realm/domains/non-existent.com')), bad('No entry found for domain non-existent.com.'));
  t.equal((await s.as(OWNER).delete('/realm/domains/acme.com')).status, 200);
  t.same(await listed(s), [{ domain: 'zulip.com', allow_subdomains: false }]);
});

t.test('a domain already listed is refused after stripping and lowercasing', async (t) => {
  const s = testServer();
  t.same(errorOf(await add(s, ' Zulip.COM')), bad('The domain zulip.com is already a part of your organization.'));
});

const invalid: Array<[string, string]> = [
  ['', "Domain can't be empty."],
  ['   ', "Domain can't be empty."],
  ['test', 'Domain must have at least one dot (.)'],
  ['t.', 'Domain cannot start or end with a dot (.)'],
  ['.com', 'Domain cannot start or end with a dot (.)'],
  ['test...com', "Consecutive '.' are not allowed."],
  ['-test.com', "Subdomains cannot start or end with a '-'."],
  ['test.-domain.com', "Subdomains cannot start or end with a '-'."],
  ['test_domain.com', "Domain can only have letters, numbers, '.' and '-'s."],
  ['bücher.de', "Domain can only have letters, numbers, '.' and '-'s."],
  [`${'a'.repeat(255)}.com`, 'Domain is too long'],
];

for (const [domain, reason] of invalid) {
  t.test(`adding ${JSON.stringify(domain.length > 20 ? `${domain.slice(0, 8)}...` : domain)} is refused: ${reason}`, async (t) => {
    const s = testServer();
    t.same(errorOf(await add(s, domain)), bad(`Invalid domain: ${reason}`));
    t.equal(s.world.realmDomains.size, 1);
  });
}

t.test('valid domains of the real tests are accepted, and one label may end with a newline as the real pattern allows', async (t) => {
  const s = testServer();
  for (const domain of ['acme.com', 'x-x.y.3.z', 'a\n.com']) t.equal((await add(s, domain)).status, 200, JSON.stringify(domain));
});

t.test('a domain longer than the 80 characters the real column holds is refused as too long', async (t) => {
  const s = testServer();
  t.equal((await add(s, `${'a'.repeat(76)}.com`)).status, 200);
  t.same(errorOf(await add(s, `${'a'.repeat(77)}.com`)), bad('Invalid domain: Domain is too long'));
});

t.test('removing the last domain turns emails_restricted_to_domains off; removing another keeps it', async (t) => {
  const s = testServer();
  await s.as(OWNER).patch('/realm', { emails_restricted_to_domains: true });
  await add(s, 'acme.com');
  await s.as(OWNER).delete('/realm/domains/acme.com');
  const realm = async () => (await s.as(MEMBER).post('/register', { fetch_event_types: ['realm'] })).body.realm_emails_restricted_to_domains;
  t.equal(await realm(), true);
  await s.as(OWNER).delete('/realm/domains/zulip.com');
  t.equal(await realm(), false);
});

for (const [featureLevel, allowed, refused, msg] of [
  [415, OWNER, ADMIN, 'Must be an organization owner'],
  [143, OWNER, ADMIN, 'Must be an organization owner'],
  [142, ADMIN, MEMBER, 'Must be an organization administrator'],
] as const) {
  t.test(`at level ${featureLevel} writes are refused below ${allowed === OWNER ? 'owners' : 'administrators'}, before any parameter`, async (t) => {
    const s = testServer({ featureLevel });
    for (const email of [refused, GUEST]) {
      for (const reply of [await s.as(email).post('/realm/domains'), await s.as(email).patch('/realm/domains/15'), await s.as(email).delete('/realm/domains/zulip.com')]) {
        t.equal(reply.status, 400);
        t.equal(reply.body.msg, msg);
      }
    }
    t.equal((await add(s, 'acme.com', false, allowed)).status, 200);
    t.equal(s.world.realmDomains.size, 2);
  });
}

t.test('a saved world keeps its domains in order, with the ID counter', async (t) => {
  const { snapshotWorld, restoreWorld } = await import('../lib/state/world-snapshot.js');
  const s = testServer();
  await add(s, 'acme.com', true);
  const restored = restoreWorld(JSON.parse(JSON.stringify(snapshotWorld(s.world))), { clock: s.world.clock });
  t.same([...restored.realmDomains.entries()], [...s.world.realmDomains.entries()]);
  t.equal(restored.ids.next('realmDomain'), 3);
});
