/**
 * The convergence check's replay and comparison on their own, with events in shapes our server
 * does not produce (older levels, states it does not serve), as the real server sends them.
 */
import t from 'tap';
import { compareStates } from '../conformance/convergence/compare.js';
import type { Scope } from '../conformance/convergence/normalize.js';
import { replayEvents } from '../conformance/convergence/replay.js';
import { renderReport } from '../conformance/convergence/report.js';
import type { ClientView, QueueEvent, State } from '../conformance/convergence/types.js';

const ME = 10;
const view = (featureLevel = 415): ClientView => ({ userId: ME, featureLevel, capabilities: {}, includeSubscribers: true });
let nextId = 0;
const events = (...list: Array<Record<string, unknown>>): QueueEvent[] => list.map((event) => ({ id: nextId++, ...event }) as QueueEvent);
const direct = (id: number, userIds: number[]) => ({ type: 'message', flags: [], message: { id, type: 'private', display_recipient: userIds.map((u) => ({ id: u })), sender_id: userIds[0] } });
const scope = (over: Partial<Scope> = {}): Scope => ({
  channelIds: new Set([5]),
  groupIds: new Set(),
  userIds: new Set([ME, 11, 12]),
  messageIds: new Set(),
  unknowableConversations: new Set(),
  guestWithoutPeerEvents: false,
  guestWithoutCreateEvents: false,
  ...over,
});

t.test('recent_private_conversations follows message events, newest first, and forgets a conversation whose newest message was deleted', async (t) => {
  const initial: State = { recent_private_conversations: [{ user_ids: [11], max_message_id: 3 }] };
  const replayed = replayEvents(initial, events(direct(7, [11, ME]), direct(8, [11, 12, ME]), { type: 'delete_message', message_type: 'private', message_ids: [8] }), view());
  t.same(replayed.state.recent_private_conversations, [
    { max_message_id: 8, user_ids: [11, 12] },
    { max_message_id: 7, user_ids: [11] },
  ]);
  t.same([...replayed.unknowable], ['11,12'], 'only a fresh register knows the message before 8');
});

t.test('streams gains created channels in name order and drops deleted ones, by stream_ids or by the older streams list', async (t) => {
  const initial: State = { streams: [{ stream_id: 1, name: 'b' }] };
  const created = replayEvents(initial, events({ type: 'stream', op: 'create', streams: [{ stream_id: 2, name: 'a' }] }), view());
  t.same((created.state.streams as State[]).map((s) => s.name), ['a', 'b']);
  const modern = replayEvents(created.state, events({ type: 'stream', op: 'delete', stream_ids: [1], streams: [{ stream_id: 1 }] }), view());
  const legacy = replayEvents(created.state, events({ type: 'stream', op: 'delete', streams: [{ stream_id: 1, name: 'b' }] }), view(100));
  t.same(modern.state.streams, [{ stream_id: 2, name: 'a' }]);
  t.same(legacy.state.streams, modern.state.streams);
});

t.test('delete_message applies in both shapes (message_ids for bulk deletion, message_id before it)', async (t) => {
  const initial: State = { unread_msgs: { pms: [{ other_user_id: 11, sender_id: 11, unread_message_ids: [4, 5] }], streams: [], huddles: [], mentions: [], count: 2, old_unreads_missing: false } };
  const bulk = replayEvents(initial, events({ type: 'delete_message', message_type: 'private', message_ids: [4] }), view());
  const single = replayEvents(initial, events({ type: 'delete_message', message_type: 'private', message_id: 4 }), view());
  t.same((bulk.state.unread_msgs as State).pms, [{ other_user_id: 11, sender_id: 11, unread_message_ids: [5] }]);
  t.same(single.state.unread_msgs, bulk.state.unread_msgs);
  t.equal((bulk.state.unread_msgs as State).count, 1);
});

t.test('flag events before level 32 (operation) apply, and below level 155 a message starred again is listed once', async (t) => {
  const initial: State = { starred_messages: [3] };
  const old = replayEvents(initial, events({ type: 'update_message_flags', operation: 'add', flag: 'starred', messages: [3, 4], all: false }), view(30));
  t.same(old.state.starred_messages, [3, 4], 'every requested message was listed, changed or not');
  const modern = replayEvents(initial, events({ type: 'update_message_flags', op: 'add', flag: 'starred', messages: [3], all: false }), view());
  t.same(modern.state.starred_messages, [3, 3], 'from level 155 an unchanged message in the event is a duplicate event');
});

t.test('an in_home_view update also sets is_muted (servers below level 139 send only in_home_view)', async (t) => {
  const initial: State = { subscriptions: [{ stream_id: 5, name: 'x', is_muted: false, in_home_view: true }], unsubscribed: [], never_subscribed: [] };
  const replayed = replayEvents(initial, events({ type: 'subscription', op: 'update', stream_id: 5, property: 'in_home_view', value: false }), view(100));
  t.same((replayed.state.subscriptions as State[])[0], { stream_id: 5, name: 'x', is_muted: true, in_home_view: false });
});

t.test('a move whose orig_subject is not where the client has the message is reported against that event', async (t) => {
  const sent = { type: 'message', flags: [], message: { id: 9, type: 'stream', stream_id: 5, subject: 'alpha', display_recipient: 'x' } };
  const moved = { type: 'update_message', message_id: 9, message_ids: [9], stream_id: 5, orig_subject: 'beta', subject: 'gamma', propagate_mode: 'change_one' };
  const replayed = replayEvents({ max_message_id: 1 }, events(sent, moved), view());
  t.same(
    replayed.problems.map((p) => [p.eventIndex, p.path, p.expected, p.received]),
    [[1, 'messages[9].topic', 'alpha', 'beta']],
  );
});

t.test('unread count is compared only when nothing outside the run changed the unread messages; the run\'s entries always', async (t) => {
  const unread = (streams: State[], count: number): State => ({ unread_msgs: { pms: [], streams, huddles: [], mentions: [], count, old_unreads_missing: false } });
  const ours = { stream_id: 5, topic: 'alpha', unread_message_ids: [20] };
  const theirs = (ids: number[]) => ({ stream_id: 99, topic: 'other', unread_message_ids: ids });
  const initial = unread([ours, theirs([1])], 2);
  const quiet = compareStates({ initial, fresh: unread([ours, theirs([1])], 2), replayed: unread([ours, theirs([1])], 3), scope: scope(), deleted: new Set() });
  t.same(
    quiet.divergences.map((d) => [d.key, d.part]),
    [['unread_msgs', 'derived']],
    'a stale count is caught on a quiet realm',
  );
  const busy = compareStates({ initial, fresh: unread([theirs([1, 2])], 3), replayed: unread([ours, theirs([1])], 9), scope: scope(), deleted: new Set() });
  t.same(
    busy.divergences.map((d) => [d.key, d.part]),
    [['unread_msgs', 'own']],
    "other traffic: the count is not compared, the run's missing entry is",
  );
  t.match(busy.notes, [/only the run's own objects compared/]);
});

t.test('the divergence report names the observer, the field path, both values and the event that changed the field', async (t) => {
  const initial: State = { user_settings: { twenty_four_hour_time: false } };
  const queue = events({ type: 'user_settings', op: 'update', property: 'twenty_four_hour_time', value: 'yes' });
  const replayed = replayEvents(initial, queue, view());
  const comparison = compareStates({ initial, fresh: { user_settings: { twenty_four_hour_time: true } }, replayed: replayed.state, scope: scope(), deleted: new Set() });
  const report = renderReport([{ who: 'member', userId: ME, view: view(), initial, events: queue, scope: scope(), comparison, problems: replayed.problems }], ['member sets twenty_four_hour_time to true']);
  t.match(report, /member \(user 10\)/);
  t.match(report, /user_settings\.twenty_four_hour_time\n\s+expected \(fresh register\): true\n\s+received \(register \+ events\): "yes"/);
  t.match(report, /changed by #0 user_settings\/update twenty_four_hour_time \(event id \d+\)/);
  t.match(report, /actions:\n\s+1\. member sets twenty_four_hour_time to true/);
});
