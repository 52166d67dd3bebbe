import t from 'tap';
import { CORDELIA, HAMLET, IAGO, OTHELLO, POLONIUS } from './support/channels.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const names = async (s: TestServer, email: string, params: Record<string, unknown> = {}): Promise<string[]> => {
  const reply = await s.as(email).get('/streams', params);
  if (reply.status !== 200) throw new Error(`GET /streams answered ${reply.status}`);
  return (reply.body.streams as Array<{ name: string }>).map((c) => c.name);
};

t.test('GET /streams lists public and subscribed channels by name; private ones only to their subscribers', async (t) => {
  const s = testServer();
  const hamlet = await names(s, HAMLET);
  t.same(hamlet, [...hamlet].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), 'sorted by code point');
  t.ok(hamlet.includes('core team'), 'a subscriber sees the private channel');
  t.notOk((await names(s, OTHELLO)).includes('core team'), 'a non-subscriber does not');
  t.notOk((await names(s, IAGO, { include_subscribed: false, include_public: true })).includes('core team'), 'nor an administrator without include_all');
});

t.test('the include flags select the sources the real server ORs together', async (t) => {
  const s = testServer();
  t.same(await names(s, OTHELLO, { include_public: false, include_subscribed: false }), [], 'no source, no channel');
  t.same(await names(s, OTHELLO, { include_public: false, include_subscribed: false, include_web_public: true }), ['Rome']);
  t.same(await names(s, POLONIUS, { include_web_public: true }), [...(await names(s, POLONIUS)), 'Rome'].sort(), 'guests get web-public channels only when asked');
  t.notOk((await names(s, POLONIUS, { include_public: true })).includes('Denmark'), 'include_public does nothing for guests');
  const withDefault = (await s.as(HAMLET).get('/streams', { include_default: true })).body.streams as Array<{ name: string; is_default: boolean }>;
  t.equal(withDefault.find((c) => c.name === 'Verona')?.is_default, true);
  t.equal(withDefault.find((c) => c.name === 'Denmark')?.is_default, false);
  t.notOk('is_default' in (await s.as(HAMLET).get('/streams')).body.streams[0], 'is_default only with include_default');
});

t.test('include_all lists what the user has metadata access to (356); include_all_active is its older name', async (t) => {
  const s = testServer();
  t.ok((await names(s, IAGO, { include_all: true })).includes('core team'), 'administrators see every channel');
  t.ok((await names(s, IAGO, { include_all_active: true })).includes('core team'));
  t.notOk((await names(s, OTHELLO, { include_all: true })).includes('core team'), 'members only what they may see');
  const content = await names(s, OTHELLO, { include_can_access_content: true, include_public: false, include_subscribed: false });
  t.ok(content.includes('Denmark') && !content.includes('core team'), 'include_can_access_content: public and subscribed channels');
});

t.test('before level 356 include_all_active is for administrators only and include_all is ignored', async (t) => {
  const s = testServer({ featureLevel: 355 });
  t.same(errorOf(await s.as(OTHELLO).get('/streams', { include_all_active: true })), bad('User not authorized for this query'));
  t.ok((await names(s, IAGO, { include_all_active: true })).includes('core team'));
  const reply = await s.as(OTHELLO).get('/streams', { include_all: true, include_can_access_content: true });
  t.same(reply.body.ignored_parameters_unsupported, ['include_all', 'include_can_access_content']);
});

t.test('archived channels are excluded unless exclude_archived is false (from level 315)', async (t) => {
  const s = testServer();
  t.equal((await s.as(IAGO).delete(`/streams/${s.streamId('Denmark')}`)).status, 200);
  t.notOk((await names(s, HAMLET)).includes('Denmark'));
  const all = (await s.as(HAMLET).get('/streams', { exclude_archived: false })).body.streams as Array<{ name: string; is_archived: boolean }>;
  t.equal(all.find((c) => c.name === 'Denmark')?.is_archived, true);
  const old = testServer({ featureLevel: 314 });
  t.same((await old.as(HAMLET).get('/streams', { exclude_archived: false })).body.ignored_parameters_unsupported, ['exclude_archived']);
});

t.test('include_owner_subscribed adds the channels a bot owner is subscribed to', async (t) => {
  const s = testServer();
  const bot = [...s.world.users.values()].find((u) => u.isBot && !u.isSystemBot && u.botOwnerId !== null)!;
  const owner = s.world.users.get(bot.botOwnerId!)!;
  const as = s.as(bot.deliveryEmail);
  const plain = (await as.get('/streams', { include_public: false, include_subscribed: false })).body.streams;
  const owned = (await as.get('/streams', { include_public: false, include_subscribed: false, include_owner_subscribed: true })).body.streams as Array<{ stream_id: number }>;
  t.same(plain, []);
  const ownerIds = [...s.world.subscriptions].filter(([, subs]) => subs.get(owner.id)?.active).map(([id]) => id).sort((a, b) => a - b);
  t.same(owned.map((c) => c.stream_id).sort((a, b) => a - b), ownerIds.filter((id) => !s.world.streams.get(id)!.isArchived));
  t.same((await s.as(CORDELIA).get('/streams', { include_public: false, include_subscribed: false, include_owner_subscribed: true })).body.streams, [], 'humans: ignored');
});

t.test('GET /streams/{stream_id}: the channel object with metadata access, Invalid channel ID otherwise (from level 132)', async (t) => {
  const s = testServer();
  const core = s.streamId('core team');
  const reply = await s.as(IAGO).get(`/streams/${core}`);
  t.match(reply.body.stream, { stream_id: core, name: 'core team', invite_only: true });
  t.same(errorOf(await s.as(OTHELLO).get(`/streams/${core}`)), bad('Invalid channel ID'));
  t.same(errorOf(await s.as(OTHELLO).get('/streams/9999')), bad('Invalid channel ID'));
  t.same(errorOf(await s.as(POLONIUS).get(`/streams/${s.streamId('Denmark')}`)), bad('Invalid channel ID'), 'guests: public channels they are not in');
  t.equal((await testServer({ featureLevel: 131 }).as(IAGO).get(`/streams/${core}`)).status, 405, 'before 132 the route has PATCH and DELETE only');
});

t.test('GET /streams/{stream_id}/members: subscribers for who may see them', async (t) => {
  const s = testServer();
  const core = s.streamId('core team');
  t.same((await s.as(HAMLET).get(`/streams/${core}/members`)).body.subscribers, [9, 10, 11]);
  t.same((await s.as(IAGO).get(`/streams/${core}/members`)).body.subscribers, [9, 10, 11], 'administrators without subscribing');
  t.same(errorOf(await s.as(OTHELLO).get(`/streams/${core}/members`)), bad('Invalid channel ID'));
});

t.test('GET /streams/{stream_id}/email_address: the gateway address with content access (from level 226)', async (t) => {
  const s = testServer();
  const reply = await s.as(HAMLET).get(`/streams/${s.streamId('Denmark')}/email_address`);
  t.match(reply.body.email, /^denmark\.[0-9a-f]{32}\.show-sender@/);
  t.same(errorOf(await s.as(OTHELLO).get(`/streams/${s.streamId('core team')}/email_address`)), bad('Invalid channel ID'));
  t.equal((await testServer({ featureLevel: 225 }).as(HAMLET).get(`/streams/${s.streamId('Denmark')}/email_address`)).status, 404);
});
