import t from 'tap';
import { compareCodePoints } from '../lib/input/strings.js';
import { subscriptionsState } from '../lib/queries/channels/subscriptions.js';
import { addSubscribedMembers, bad, CORDELIA, HAMLET, IAGO, OTHELLO, POLONIUS, sortedIds, userOf } from './support/channels.js';
import { errorOf, testServer, type TestServer } from './support/harness.js';

const list = (s: TestServer, email: string, params: Record<string, unknown> = {}) => s.as(email).get('/users/me/subscriptions', params);

const CURRENT_KEYS = [
  'audible_notifications', 'can_add_subscribers_group', 'can_administer_channel_group', 'can_delete_any_message_group',
  'can_delete_own_message_group', 'can_move_messages_out_of_channel_group', 'can_move_messages_within_channel_group',
  'can_remove_subscribers_group', 'can_resolve_topics_group', 'can_send_message_group', 'can_subscribe_group', 'color',
  'creator_id', 'date_created', 'description', 'desktop_notifications', 'email_notifications', 'first_message_id', 'folder_id',
  'history_public_to_subscribers', 'in_home_view', 'invite_only', 'is_announcement_only', 'is_archived', 'is_muted',
  'is_recently_active', 'is_web_public', 'message_retention_days', 'name', 'pin_to_top', 'push_notifications',
  'rendered_description', 'stream_id', 'stream_post_policy', 'stream_weekly_traffic', 'subscriber_count', 'topics_policy',
  'wildcard_mentions_notify',
];

t.test('GET lists active subscriptions sorted by name with exactly the Subscription fields', async (t) => {
  const s = testServer();
  const reply = await list(s, HAMLET);
  t.same(Object.keys(reply.body), ['result', 'msg', 'subscriptions']);
  const subs = reply.body.subscriptions as Array<Record<string, unknown>>;
  const expected = [...s.world.subscriptions].filter(([, m]) => m.get(s.id(HAMLET))?.active).map(([id]) => s.world.streams.get(id)!.name);
  t.same(subs.map((x) => x.name), expected.sort(compareCodePoints));
  for (const entry of subs) t.same(Object.keys(entry).sort(), CURRENT_KEYS, String(entry.name));
  t.match(subs.find((x) => x.name === 'Denmark'), {
    stream_id: s.streamId('Denmark'),
    description: 'A Scandinavian country',
    is_muted: false,
    in_home_view: true,
    desktop_notifications: null,
    email_notifications: null,
    push_notifications: null,
    audible_notifications: null,
    wildcard_mentions_notify: null,
    subscriber_count: 7,
  });
});

t.test('muted subscriptions show is_muted and the inverted legacy in_home_view', async (t) => {
  const s = testServer();
  s.world.subscriptions.get(s.streamId('Denmark'))!.get(s.id(HAMLET))!.isMuted = true;
  const entry = (await list(s, HAMLET)).body.subscriptions.find((x: { name: string }) => x.name === 'Denmark');
  t.match(entry, { is_muted: true, in_home_view: false });
});

t.test('archived channels and former subscriptions are not listed', async (t) => {
  const s = testServer();
  s.world.streamByName('Denmark')!.isArchived = true;
  s.world.subscriptions.get(s.streamId('Zulip'))!.get(s.id(HAMLET))!.active = false;
  const names = (await list(s, HAMLET)).body.subscriptions.map((x: { name: string }) => x.name);
  t.notOk(names.includes('Denmark'));
  t.notOk(names.includes('Zulip'));
});

t.test('each field appears from its feature level', async (t) => {
  const keysAt = async (level: number) => {
    const s = testServer({ featureLevel: level });
    return Object.keys((await list(s, HAMLET)).body.subscriptions[0]).sort();
  };
  const without = (...drop: string[]) => CURRENT_KEYS.filter((k) => !drop.includes(k));
  t.same(await keysAt(406), without('can_delete_any_message_group', 'can_delete_own_message_group'));
  t.same(await keysAt(393), without('can_delete_any_message_group', 'can_delete_own_message_group', 'can_move_messages_out_of_channel_group', 'can_move_messages_within_channel_group', 'can_resolve_topics_group', 'subscriber_count'));
  const at300 = await keysAt(300);
  for (const key of ['is_archived', 'is_recently_active', 'can_administer_channel_group', 'can_send_message_group', 'topics_policy', 'folder_id']) {
    t.notOk(at300.includes(key), `${key} absent at 300`);
  }
  t.ok(at300.includes('creator_id') && at300.includes('can_remove_subscribers_group'));
  const at150 = await keysAt(150);
  t.ok(at150.includes('can_remove_subscribers_group_id') && !at150.includes('can_remove_subscribers_group'), 'named _id before 197');
  t.ok(at150.includes('email_address') && !at150.includes('creator_id'), 'email_address until 226, creator_id from 254');
  const at16 = await keysAt(16);
  t.notOk(at16.includes('message_retention_days') || at16.includes('date_created'));
});

t.test('include_subscribers: a JSON boolean, or partial from level 412', async (t) => {
  const s = testServer();
  const withSubs = (await list(s, HAMLET, { include_subscribers: true })).body.subscriptions;
  const denmark = withSubs.find((x: { name: string }) => x.name === 'Denmark');
  t.same(denmark.subscribers, sortedIds(s.world.subscriptions.get(s.streamId('Denmark'))!.keys()));
  t.notOk('subscribers' in (await list(s, HAMLET, { include_subscribers: false })).body.subscriptions[0]);
  const partial = (await list(s, HAMLET, { include_subscribers: 'partial' })).body.subscriptions;
  t.same(partial.find((x: { name: string }) => x.name === 'Denmark').subscribers, denmark.subscribers, 'small channels get full lists');
  t.same(errorOf(await list(s, HAMLET, { include_subscribers: 'yes' })), bad('include_subscribers is not valid JSON'));
  t.same(errorOf(await list(s, HAMLET, { include_subscribers: 1 })), bad('include_subscribers is not a boolean'));
  const old = testServer({ featureLevel: 411 });
  t.same(errorOf(await list(old, HAMLET, { include_subscribers: 'partial' })), bad('include_subscribers is not valid JSON'));
});

t.test('partial subscriber lists of large channels keep bots and recently active users', async (t) => {
  const s = testServer();
  const denmark = s.streamId('Denmark');
  const extra = addSubscribedMembers(s, denmark, 250);
  s.world.subscribersOf(denmark).set(16, { ...s.world.subscriptions.get(denmark)!.get(s.id(HAMLET))!, userId: 16 });
  const active = sortedIds([...s.world.subscriptions.get(denmark)!.keys()].filter((id) => s.world.presence.has(id) || id === 16));
  const entry = (await list(s, HAMLET, { include_subscribers: 'partial' })).body.subscriptions.find((x: { name: string }) => x.name === 'Denmark');
  t.notOk('subscribers' in entry);
  t.same(entry.partial_subscribers, active);
  t.notOk(entry.partial_subscribers.includes(extra[0]), 'users never seen are left out');
});

t.test('register lists: former subscriptions and never-subscribed channels the user can see', async (t) => {
  const s = testServer();
  s.world.subscriptions.get(s.streamId('Denmark'))!.get(s.id(HAMLET))!.active = false;
  s.world.subscriptions.get(s.streamId('core team'))!.get(s.id(HAMLET))!.active = false;
  const hamlet = subscriptionsState(s.world, userOf(s, HAMLET), { includeSubscribers: false });
  t.same(hamlet.unsubscribed.map((x) => x.name), ['Denmark'], 'a private channel left behind is no longer visible');
  t.ok(hamlet.never_subscribed.some((x) => x.name === 'Scotland'));
  t.notOk('color' in hamlet.never_subscribed[0]!, 'never-subscribed entries are channel objects');
  s.world.subscriptions.get(s.streamId('core team'))!.get(s.id(IAGO))!.active = false;
  const iago = subscriptionsState(s.world, userOf(s, IAGO), { includeSubscribers: true });
  const core = iago.unsubscribed.find((x) => x.name === 'core team');
  t.ok(core, 'administrators keep seeing private channels');
  t.same(core?.subscribers, [s.id('desdemona@zulip.com')], 'and their subscribers');
  const cordelia = subscriptionsState(s.world, userOf(s, CORDELIA), { includeSubscribers: true });
  t.notOk(cordelia.never_subscribed.some((x) => x.name === 'core team'));
  const polonius = subscriptionsState(s.world, userOf(s, POLONIUS), { includeSubscribers: true });
  t.same(polonius.never_subscribed.map((x) => x.name), ['Rome'], 'guests see only web-public channels');
  t.same(polonius.never_subscribed[0]?.subscribers, [s.id('ZOE@zulip.com')]);
});

t.test('channel administrators see never-subscribed private channels from level 349', async (t) => {
  for (const [level, visible] of [[348, false], [349, true]] as const) {
    const s = testServer({ featureLevel: level });
    s.world.streamByName('core team')!.settings.set('can_administer_channel_group', {
      kind: 'anonymous',
      members: new Set([s.id(OTHELLO)]),
      subgroups: new Set(),
    });
    const state = subscriptionsState(s.world, userOf(s, OTHELLO), { includeSubscribers: true });
    const core = state.never_subscribed.find((x) => x.name === 'core team');
    t.equal(core !== undefined, visible, `level ${level}`);
    // As peer events reach them (and a channel administrator gaining access gets a peer_add), they see the subscribers.
    if (core) t.same(core.subscribers, [9, 10, 11], 'group-granted metadata access reveals the subscribers');
  }
});

t.test('archived channels appear only with the archived_channels capability', async (t) => {
  const s = testServer();
  s.world.streamByName('Scotland')!.isArchived = true;
  const user = userOf(s, HAMLET);
  t.notOk(subscriptionsState(s.world, user, { includeSubscribers: false }).never_subscribed.some((x) => x.name === 'Scotland'));
  const withArchived = subscriptionsState(s.world, user, { includeSubscribers: false, includeArchived: true });
  t.match(withArchived.never_subscribed.find((x) => x.name === 'Scotland'), { is_archived: true });
});

t.test('GET /get_stream_id finds accessible channels case-insensitively and hides the rest', async (t) => {
  const s = testServer();
  t.same((await s.as(HAMLET).get('/get_stream_id', { stream: 'denmark' })).body, { result: 'success', msg: '', stream_id: s.streamId('Denmark') });
  t.same(errorOf(await s.as(OTHELLO).get('/get_stream_id', { stream: 'core team' })), bad("Invalid channel name 'core team'"));
  t.same(errorOf(await s.as(HAMLET).get('/get_stream_id', { stream: 'nonexistent' })), bad("Invalid channel name 'nonexistent'"));
  t.same(errorOf(await s.as(HAMLET).get('/get_stream_id', { stream: '__proto__' })), bad("Invalid channel name '__proto__'"));
  t.same(errorOf(await s.as(HAMLET).get('/get_stream_id', { stream: ' Denmark' })), bad("Invalid channel name ' Denmark'"), 'not stripped');
  t.same(errorOf(await s.as(POLONIUS).get('/get_stream_id', { stream: 'Denmark' })), bad("Invalid channel name 'Denmark'"), 'guests need a subscription');
  t.equal((await s.as(POLONIUS).get('/get_stream_id', { stream: 'Rome' })).status, 200, 'or a web-public channel');
  s.world.streamByName('Venice')!.isArchived = true;
  t.same(errorOf(await s.as(IAGO).get('/get_stream_id', { stream: 'Venice' })), bad("Invalid channel name 'Venice'"));
  const missing = await s.as(HAMLET).get('/get_stream_id');
  t.same(errorOf(missing), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'stream' argument" });
});
