/**
 * `POST /register` state that is not subscriptions: `streams`, `realm_default_streams`,
 * `recent_private_conversations` and the keys of features without
 * data here, as the real server's `fetch_initial_state_data` (zerver/lib/events.py) builds them;
 * its tests: zerver/tests/test_events.py (`test_default_streams_events`,
 * `test_recent_private_conversations`) and zerver/tests/test_home.py (the register key list).
 */
import t from 'tap';
import { testServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';
const POLONIUS = 'polonius@zulip.com';
const CORDELIA = 'cordelia@zulip.com';

const names = (streams: { name: string }[]): string[] => streams.map((s) => s.name);

t.test('streams lists every channel the user may see, by name; guests only their own and web-public ones', async (t) => {
  const s = testServer();
  const { body } = await s.as(HAMLET).post('/register', { fetch_event_types: ['stream'] });
  t.ok(names(body.streams).includes('Verona'), 'a public channel');
  t.ok(names(body.streams).includes('core team'), 'a private channel hamlet is subscribed to');
  t.same(names(body.streams), [...names(body.streams)].sort(), 'sorted by name');
  const guest = await s.as(POLONIUS).post('/register', { fetch_event_types: ['stream'] });
  t.notOk(names(guest.body.streams).includes('Scotland'), 'a public channel the guest is not subscribed to');
  t.ok(names(guest.body.streams).includes('Rome'), 'a web-public channel');
  t.ok(names(guest.body.streams).includes('Verona'), "the guest's own subscription");
});

t.test('web-public channels join the guest list at level 205; include_streams=false leaves streams out', async (t) => {
  const before = testServer({ featureLevel: 204 });
  const guest = await before.as(POLONIUS).post('/register', { fetch_event_types: ['stream'] });
  t.notOk(names(guest.body.streams).includes('Rome'));
  const s = testServer();
  const { body } = await s.as(HAMLET).post('/register', { fetch_event_types: ['stream'], include_streams: false });
  t.notOk('streams' in body);
});

t.test('archived channels appear in streams only for archived_channels clients (level 378)', async (t) => {
  const s = testServer();
  t.equal((await s.as(IAGO).delete(`/streams/${s.streamId('Denmark')}`)).status, 200);
  const plain = await s.as(IAGO).post('/register', { fetch_event_types: ['stream'] });
  t.notOk(names(plain.body.streams).includes('Denmark'));
  const capable = await s.as(IAGO).post('/register', { fetch_event_types: ['stream'], client_capabilities: { archived_channels: true } });
  t.ok(names(capable.body.streams).includes('Denmark'));
});

t.test('realm_default_streams: IDs from level 330, channel objects before, none for guests', async (t) => {
  const s = testServer();
  const { body } = await s.as(HAMLET).post('/register', { fetch_event_types: ['default_streams', 'default_stream_groups'] });
  const expected = ['Verona', 'design', 'devel', 'social', 'support'].map((name) => s.streamId(name)).sort((a, b) => a - b);
  t.same(body.realm_default_streams, expected);
  t.same(body.realm_default_stream_groups, []);
  const guest = await s.as(POLONIUS).post('/register', { fetch_event_types: ['default_streams'] });
  t.same(guest.body.realm_default_streams, []);
  const old = testServer({ featureLevel: 329 });
  const legacy = await old.as(HAMLET).post('/register', { fetch_event_types: ['default_streams'] });
  t.same(names(legacy.body.realm_default_streams), ['Verona', 'design', 'devel', 'social', 'support']);
  t.equal(legacy.body.realm_default_streams[0].stream_id, s.streamId('Verona'));
});

t.test('recent_private_conversations: each conversation once, newest first, the other participants sorted', async (t) => {
  const s = testServer();
  const sent = await s.as(HAMLET).post('/messages', { type: 'direct', to: [s.id(CORDELIA)], content: 'hi' });
  const self = await s.as(HAMLET).post('/messages', { type: 'direct', to: [s.id(HAMLET)], content: 'note' });
  const { body } = await s.as(HAMLET).post('/register', { fetch_event_types: ['recent_private_conversations'] });
  const conversations: { max_message_id: number; user_ids: number[] }[] = body.recent_private_conversations;
  t.same(conversations[0], { max_message_id: self.body.id, user_ids: [] }, 'messages to oneself have no other participant');
  t.same(conversations[1], { max_message_id: sent.body.id, user_ids: [s.id(CORDELIA)] });
  const ids = conversations.map((c) => c.max_message_id);
  t.same(ids, [...ids].sort((a, b) => b - a), 'newest first');
  const keys = conversations.map((c) => c.user_ids.join(','));
  t.equal(new Set(keys).size, keys.length, 'one entry per conversation');
  t.ok(
    conversations.some((c) => c.user_ids.join(',') === [s.id(CORDELIA), s.id(IAGO)].sort((a, b) => a - b).join(',')),
    'the seeded group conversation',
  );
  const zoe = await s.as('ZOE@zulip.com').post('/register', { fetch_event_types: ['recent_private_conversations'] });
  t.same(zoe.body.recent_private_conversations.length, 1, "only conversations the user received: ZOE's one group DM");
});

t.test('features without data here answer as a realm without any, each from its level', async (t) => {
  const types = ['video_calls', 'giphy', 'channel_folders', 'scheduled_messages', 'realm_billing'];
  const s = testServer();
  const { body } = await s.as(HAMLET).post('/register', { fetch_event_types: types });
  t.match(body, {
    has_zoom_token: false,
    giphy_api_key: '',
    channel_folders: [],
    scheduled_messages: [],
    realm_billing: { has_pending_sponsorship_request: false },
  });
  const old = testServer({ featureLevel: 46 });
  const early = await old.as(HAMLET).post('/register', { fetch_event_types: types });
  for (const absent of ['giphy_api_key', 'channel_folders', 'scheduled_messages', 'realm_billing']) t.notOk(absent in early.body, `no ${absent} at 46`);
  t.equal(early.body.has_zoom_token, false);
});

t.test('the role policies come before their group settings, read off them; the booleans before the policies', async (t) => {
  // zerver/lib/events.py of each era; changelog levels 50, 56, 75, 85, 101 and 270 to 341.
  const fetch = async (level: number) => (await testServer({ featureLevel: level }).as(HAMLET).post('/register', { fetch_event_types: ['realm'] })).body;
  const at269 = await fetch(269);
  t.match(at269, {
    realm_private_message_policy: 1,
    realm_invite_to_stream_policy: 1,
    realm_invite_to_realm_policy: 1,
    realm_move_messages_between_streams_policy: 1,
    realm_edit_topic_policy: 5,
    realm_add_custom_emoji_policy: 1,
    realm_delete_own_message_policy: 5,
    // The development realm lets owners manage every group: administrators only is the nearest enum.
    realm_user_group_edit_policy: 2,
  });
  const at415 = await fetch(415);
  for (const gone of ['realm_private_message_policy', 'realm_invite_to_stream_policy', 'realm_invite_to_realm_policy', 'realm_edit_topic_policy', 'realm_delete_own_message_policy']) {
    t.notOk(gone in at415, `${gone} is gone at 415`);
  }
  t.ok('realm_user_group_edit_policy' in at415, 'the deprecated group-edit policy is kept');
  const at49 = await fetch(49);
  t.equal(at49.realm_invite_by_admins_only, false);
  t.notOk('realm_invite_to_realm_policy' in at49);
  t.equal(at49.realm_allow_community_topic_editing, true);
  t.equal(at49.realm_add_emoji_by_admins_only, false);
  t.equal(at49.realm_allow_message_deleting, true);
});

t.test('a policy follows its group setting: moderators only is 4, nobody is 6', async (t) => {
  const s = testServer({ featureLevel: 300 });
  s.world.realm.settings.set('can_move_messages_between_channels_group', { kind: 'group', groupId: s.world.systemGroupId('role:nobody') });
  s.world.realm.settings.set('can_add_custom_emoji_group', { kind: 'group', groupId: s.world.systemGroupId('role:moderators') });
  const { body } = await s.as(HAMLET).post('/register', { fetch_event_types: ['realm'] });
  t.equal(body.realm_move_messages_between_streams_policy, 6);
  t.equal(body.realm_add_custom_emoji_policy, 4);
});
