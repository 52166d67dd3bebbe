import t from 'tap';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { bad, errorOf, testServer } from './support/harness.js';

const OWNER = 'desdemona@zulip.com';

t.test('an owner deactivates the organization: everyone gets realm/deactivated, owners are emailed, then every request is refused', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  const recipients = activeIds(s);
  t.same((await s.as(OWNER).post('/realm/deactivate')).body, { result: 'success', msg: '' });
  checkRecipients(t, everyone.received(), isEvent('realm', 'deactivated'), recipients, 'realm/deactivated');
  t.same(everyone.received().get(s.id(OWNER))?.at(-1), { type: 'realm', op: 'deactivated', realm_id: 2 });
  t.same(s.world.outbox.at(-1)?.to, [OWNER]);
  for (const email of [OWNER, 'hamlet@zulip.com']) {
    const reply = await s.as(email).get('/users/me');
    t.same(errorOf(reply), { status: 401, code: 'UNAUTHORIZED', msg: 'This organization has been deactivated' });
    t.equal(reply.headers['WWW-Authenticate'] ?? reply.headers['www-authenticate'], 'Basic realm="zulip"');
  }
  const login = await s.anonymous.post('/fetch_api_key', { username: OWNER, password: 'desdemona-password' });
  t.same(errorOf(login), { status: 401, code: 'REALM_DEACTIVATED', msg: 'This organization has been deactivated' });
});

t.test('only owners may deactivate; deletion_delay_days has a minimum from level 332', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as('iago@zulip.com').post('/realm/deactivate')), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
  t.same(errorOf(await s.as(OWNER).post('/realm/deactivate', { deletion_delay_days: 3 })), bad('Data deletion time must be at least 14 days in the future.'));
  t.equal((await s.as('hamlet@zulip.com').get('/users/me')).status, 200, 'a refused request changes nothing');
  const old = testServer({ featureLevel: 331 });
  t.same((await old.as(OWNER).post('/realm/deactivate', { deletion_delay_days: 3 })).body.ignored_parameters_unsupported, ['deletion_delay_days']);
});
