/**
 * The `realm_export_consent` event (level 312). Real-server references: the event's description
 * in zerver/openapi/zulip.yaml ("sent to administrators when the data export consent status for
 * a user changes, whether due to a user changing their consent preferences or a user being
 * created or reactivated"), `do_reactivate_user` in zerver/actions/create_user.py (humans only,
 * to `realm.get_human_admin_users()`), and `apply_event` in zerver/lib/events.py (no register
 * state changes for it).
 */
import t from 'tap';
import { checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { testServer, type TestServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';

const humanAdmins = (s: TestServer): number[] =>
  [...s.world.users.values()].filter((u) => u.isActive && !u.isBot && u.role <= 200).map((u) => u.id);

const consentEvents = (recorder: ReturnType<typeof listenAll>, userId: number) =>
  (recorder.received().get(userId) ?? []).filter(isEvent('realm_export_consent'));

t.test('changing allow_private_data_export tells the human administrators and owners, and no one else', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  t.equal((await s.as(HAMLET).patch('/settings', { allow_private_data_export: true })).status, 200);
  t.same(consentEvents(everyone, s.id(IAGO)), [{ type: 'realm_export_consent', user_id: s.id(HAMLET), consented: true }]);
  checkRecipients(t, everyone.received(), isEvent('realm_export_consent'), humanAdmins(s), 'realm_export_consent');
  t.ok(humanAdmins(s).includes(s.id('desdemona@zulip.com')), 'owners are administrators here');
  await s.as(HAMLET).patch('/settings', { allow_private_data_export: false });
  t.same(consentEvents(everyone, s.id(IAGO)).map((e) => e.consented), [true, false]);
  const consents = (await s.as(IAGO).get('/export/realm/consents')).body.export_consents as Array<{ user_id: number; consented: boolean }>;
  t.same(consents.find((c) => c.user_id === s.id(HAMLET)), { user_id: s.id(HAMLET), consented: false }, 'the event agrees with the consents list');
});

t.test('before level 312 a consent change sends no realm_export_consent event', async (t) => {
  const s = testServer({ featureLevel: 311 });
  const everyone = listenAll(s);
  t.equal((await s.as(HAMLET).patch('/settings', { allow_private_data_export: true })).status, 200);
  t.same(consentEvents(everyone, s.id(IAGO)), []);
  t.ok((everyone.received().get(s.id(HAMLET)) ?? []).some(isEvent('user_settings')), 'the user still gets user_settings');
});

t.test('reactivating a human reports its consent to administrators; reactivating a bot does not', async (t) => {
  const s = testServer();
  const othello = s.id('othello@zulip.com');
  await s.as('othello@zulip.com').patch('/settings', { allow_private_data_export: true });
  await s.as(IAGO).delete(`/users/${othello}`);
  const bot = [...s.world.users.values()].find((u) => u.isBot && u.isActive && !u.isSystemBot && u.botOwnerId !== null);
  if (!bot) throw new Error('fixture has an owned bot');
  t.equal((await s.as(IAGO).delete(`/bots/${bot.id}`)).status, 200);
  const everyone = listenAll(s);
  t.equal((await s.as(IAGO).post(`/users/${othello}/reactivate`)).status, 200);
  t.equal((await s.as(IAGO).post(`/users/${bot.id}/reactivate`)).status, 200);
  t.same(consentEvents(everyone, s.id(IAGO)), [{ type: 'realm_export_consent', user_id: othello, consented: true }]);
  checkRecipients(t, everyone.received(), isEvent('realm_export_consent'), humanAdmins(s), 'realm_export_consent');
});

t.test('creating a user reports its (default) consent to administrators', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  const reply = await s.as(IAGO).post('/users', { email: 'newbie@zulip.com', password: 'pw-123456', full_name: 'New Bie' });
  t.equal(reply.status, 200);
  t.same(consentEvents(everyone, s.id(IAGO)), [{ type: 'realm_export_consent', user_id: reply.body.user_id, consented: false }]);
});
