import t from 'tap';
import { checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { bad, errorOf, testServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const NOT_ADMIN = { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' };

t.test('an administrator requests an export: it completes at once, is listed, and administrators get realm_export events', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  const reply = await s.as(IAGO).post('/export/realm', { export_type: 2 });
  t.same(reply.body, { result: 'success', msg: '', id: 1 });
  const exports = (await s.as(IAGO).get('/export/realm')).body.exports;
  t.same(exports, [
    {
      id: 1,
      export_time: Math.floor(s.clock.now() / 1000),
      acting_user_id: s.id(IAGO),
      export_url: 'http://localhost:9991/user_avatars/exports/2/00000001/zulip-export-1.tar.gz',
      deleted_timestamp: null,
      failed_timestamp: null,
      pending: false,
      export_type: 2,
    },
  ]);
  const events = everyone.received().get(s.id(IAGO)) ?? [];
  t.same(
    events.map((e) => (e.exports as Array<{ pending: boolean }>)[0]?.pending),
    [true, false],
    'a pending event, then the finished one',
  );
  const humanAdmins = [...s.world.users.values()].filter((u) => u.isActive && !u.isBot && u.role <= 200).map((u) => u.id);
  checkRecipients(t, everyone.received(), isEvent('realm_export'), humanAdmins, 'realm_export');
});

t.test('exports: five a week, then Exceeded rate limit.', async (t) => {
  const s = testServer();
  for (let i = 0; i < 5; i++) t.equal((await s.as(IAGO).post('/export/realm')).status, 200);
  t.same(errorOf(await s.as(IAGO).post('/export/realm')), bad('Exceeded rate limit.'));
  s.clock.advance(7 * 24 * 3600 * 1000 + 1);
  t.equal((await s.as(IAGO).post('/export/realm')).status, 200);
});

t.test('deleting an export marks it deleted once', async (t) => {
  const s = testServer();
  await s.as(IAGO).post('/export/realm');
  t.equal((await s.as(IAGO).delete('/export/realm/1')).status, 200);
  t.match((await s.as(IAGO).get('/export/realm')).body.exports[0], { deleted_timestamp: Math.floor(s.clock.now() / 1000) });
  t.same(errorOf(await s.as(IAGO).delete('/export/realm/1')), bad('Export already deleted'));
  t.same(errorOf(await s.as(IAGO).delete('/export/realm/9')), bad('Invalid data export ID'));
});

t.test('export endpoints are for administrators; export_type must be 1 or 2 and exists from 304', async (t) => {
  const s = testServer();
  for (const email of ['shiva@zulip.com', 'hamlet@zulip.com', 'polonius@zulip.com']) {
    t.same(errorOf(await s.as(email).get('/export/realm')), NOT_ADMIN);
    t.same(errorOf(await s.as(email).post('/export/realm')), NOT_ADMIN);
    t.same(errorOf(await s.as(email).get('/export/realm/consents')), NOT_ADMIN);
  }
  t.same(errorOf(await s.as(IAGO).post('/export/realm', { export_type: 3 })), bad('Invalid export_type: Value error, Not in the list of possible values'));
  const old = testServer({ featureLevel: 303 });
  t.same((await old.as(IAGO).post('/export/realm', { export_type: 2 })).body.ignored_parameters_unsupported, ['export_type']);
  t.notOk('export_type' in (await old.as(IAGO).get('/export/realm')).body.exports[0]);
});

t.test('GET /export/realm/consents lists active humans and their consent, from level 295', async (t) => {
  const s = testServer();
  const consents = (await s.as(IAGO).get('/export/realm/consents')).body.export_consents as Array<{ user_id: number; consented: boolean }>;
  t.ok(consents.some((c) => c.user_id === s.id('hamlet@zulip.com')));
  t.notOk(consents.some((c) => c.user_id === s.id('default-bot@zulip.com')), 'no bots');
  t.equal((await testServer({ featureLevel: 294 }).as(IAGO).get('/export/realm/consents')).status, 404);
});
