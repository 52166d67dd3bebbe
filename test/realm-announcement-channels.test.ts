/**
 * The realm's announcement channels through `PATCH /realm`, after the real server's `update_realm`
 * and `do_set_realm_new_stream_announcements_stream` / `..._signup_...` / `..._zulip_update_...`
 * (zerver/tests/test_realm.py `test_change_new_stream_announcements_stream`,
 * `test_change_signup_announcements_stream`, `test_change_zulip_update_announcements_stream`).
 */
import t from 'tap';
import { checkEventsConverge } from './support/apply-events.js';
import { bad, errorOf, testServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';

for (const [name, registerField] of [
  ['new_stream_announcements_stream_id', 'realm_new_stream_announcements_stream_id'],
  ['signup_announcements_stream_id', 'realm_signup_announcements_stream_id'],
  ['zulip_update_announcements_stream_id', 'realm_zulip_update_announcements_stream_id'],
] as const) {
  t.test(`PATCH /realm ${name}: a visible channel or -1, one realm/update event, register converges`, async (t) => {
    const s = testServer();
    const denmark = s.streamId('Denmark');
    let reply: { body: Record<string, unknown> } | undefined;
    await checkEventsConverge(t, s.as(HAMLET), { fetchEventTypes: ['realm'], action: async () => (reply = await s.as(IAGO).patch('/realm', { [name]: denmark })) });
    t.same(reply?.body, { result: 'success', msg: '', [name]: denmark });
    t.equal((await s.as(HAMLET).post('/register', { fetch_event_types: ['realm'] })).body[registerField], denmark);
    t.same(errorOf(await s.as(IAGO).patch('/realm', { [name]: 999999 })), bad('Invalid channel ID'));
    t.same((await s.as(IAGO).patch('/realm', { [name]: denmark })).body, { result: 'success', msg: '' }, 'the same channel changes nothing');
    t.same((await s.as(IAGO).patch('/realm', { [name]: -1 })).body, { result: 'success', msg: '', [name]: -1 });
    t.equal((await s.as(HAMLET).post('/register', { fetch_event_types: ['realm'] })).body[registerField], -1);
  });
}

t.test('before level 241 the first two are notifications_stream_id and signup_notifications_stream_id', async (t) => {
  const s = testServer({ featureLevel: 240 });
  const denmark = s.streamId('Denmark');
  const reply = await s.as(IAGO).patch('/realm', { notifications_stream_id: denmark, new_stream_announcements_stream_id: denmark });
  t.same(reply.body, { result: 'success', msg: '', notifications_stream_id: denmark, ignored_parameters_unsupported: ['new_stream_announcements_stream_id'] });
  t.equal(s.world.realm.newStreamAnnouncementsStreamId, denmark);
});

t.test('new channels are announced in the channel the setting names', async (t) => {
  const s = testServer();
  t.equal((await s.as(IAGO).patch('/realm', { new_stream_announcements_stream_id: s.streamId('Denmark') })).status, 200);
  t.equal((await s.as(HAMLET).post('/users/me/subscriptions', { subscriptions: [{ name: 'brand new' }], announce: true })).status, 200);
  const inDenmark = [...s.world.messages.values()].filter((m) => m.recipient.kind === 'stream' && m.recipient.streamId === s.streamId('Denmark'));
  t.match(inDenmark.at(-1)?.content, /brand new/);
  t.same(errorOf(await s.as(HAMLET).patch('/realm', { new_stream_announcements_stream_id: -1 })).code, 'UNAUTHORIZED_PRINCIPAL', 'administrators only');
});
