import t from 'tap';
import { type ApiEvent, checkEventsConvergeFor } from './support/apply-events.js';
import { HAMLET, IAGO, OTHELLO, sortedIds, ZOE } from './support/channels.js';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer, type TestServer } from './support/harness.js';

/** Everything a client keeps about people: users, groups (members) and channel subscribers. */
const PEOPLE = {
  fetchEventTypes: ['realm_user', 'realm_user_groups', 'subscription'],
  eventTypes: ['realm_user', 'realm_bot', 'user_group', 'subscription', 'stream'],
  registerParams: { include_subscribers: 'true' },
} as const;
const all = (lists: Array<ApiEvent[] | undefined>) => lists.flatMap((l) => l ?? []);

const channelsOf = (s: TestServer, email: string) =>
  sortedIds([...s.world.subscriptions].filter(([streamId, subs]) => subs.get(s.id(email))?.active && !s.world.streams.get(streamId)?.isArchived).map(([id]) => id));
const groupsOf = (s: TestServer, email: string) => sortedIds([...s.world.groups.values()].filter((g) => g.members.has(s.id(email))).map((g) => g.id));

t.test('deactivation: everyone else gets realm_user update is_active false and peer_remove; observers converge', async (t) => {
  const s = testServer();
  const channels = channelsOf(s, OTHELLO);
  const everyone = listenAll(s);
  const [hamlet, iago] = await checkEventsConvergeFor(t, [s.as(HAMLET), s.as(IAGO)], { ...PEOPLE, action: () => s.as(IAGO).delete(`/users/${s.id(OTHELLO)}`) });
  checkEventShapes(t, all([hamlet, iago]));
  t.same(
    (hamlet ?? []).filter(isEvent('realm_user')).map(({ id: _id, ...e }) => e),
    [{ type: 'realm_user', op: 'update', person: { user_id: s.id(OTHELLO), is_active: false } }],
  );
  const received = everyone.received();
  checkRecipients(t, received, isEvent('realm_user', 'update'), activeIds(s), 'realm_user/update');
  checkRecipients(t, received, isEvent('realm_user', 'remove'), [], 'no realm_user/remove since level 222');
  const removedFrom = sortedIds((received.get(s.id(HAMLET)) ?? []).filter(isEvent('subscription', 'peer_remove')).flatMap((e) => e.stream_ids as number[]));
  t.same(removedFrom, channels.filter((id) => !s.world.streams.get(id)?.inviteOnly || s.world.subscribersOf(id).get(s.id(HAMLET))?.active), 'peer_remove for each channel hamlet can see');
  checkRecipients(t, received, isEvent('user_group'), [], 'no group events: clients drop the user from groups themselves');
});

t.test('deactivating a bot owner deactivates the bots first; administrators and the owner hear about the bot', async (t) => {
  const s = testServer();
  const bot = s.id('webhook-bot@zulip.com');
  const everyone = listenAll(s);
  const [iago] = await checkEventsConvergeFor(t, [s.as(IAGO), s.as(HAMLET)], { ...PEOPLE, action: () => s.as(IAGO).delete(`/users/${s.id(ZOE)}`) });
  t.same(
    (iago ?? []).filter(isEvent('realm_user')).map((e) => e.person),
    [
      { user_id: bot, is_active: false },
      { user_id: s.id(ZOE), is_active: false },
    ],
  );
  const received = everyone.received();
  // The bot goes first, while its owner is still active: administrators and the owner.
  checkRecipients(t, received, isEvent('realm_bot', 'update'), [...activeIds(s, (u) => u.role <= 200), s.id(ZOE)], 'realm_bot/update');
  t.match(received.get(s.id(IAGO))?.find(isEvent('realm_bot')), { type: 'realm_bot', op: 'update', bot: { user_id: bot, is_active: false } });
});

t.test('reactivation: realm_user update is_active true, peer_add and add_members for the user\'s groups; observers converge', async (t) => {
  const s = testServer();
  await s.as(IAGO).delete(`/users/${s.id(OTHELLO)}`);
  const groups = groupsOf(s, OTHELLO);
  const everyone = listenAll(s);
  const [hamlet, iago] = await checkEventsConvergeFor(t, [s.as(HAMLET), s.as(IAGO)], {
    ...PEOPLE,
    action: () => s.as(IAGO).post(`/users/${s.id(OTHELLO)}/reactivate`),
  });
  checkEventShapes(t, all([hamlet, iago]));
  t.same(
    (hamlet ?? []).filter(isEvent('realm_user')).map(({ id: _id, ...e }) => e),
    [{ type: 'realm_user', op: 'update', person: { user_id: s.id(OTHELLO), is_active: true } }],
  );
  t.same(
    sortedIds((hamlet ?? []).filter(isEvent('user_group', 'add_members')).map((e) => e.group_id as number)),
    groups,
    'one add_members per group the user belongs to',
  );
  // Everyone else; whether the reactivated user is named too cannot be observed (a deactivated
  // user has no event queue), so it is left out of the comparison.
  const received = everyone.received();
  received.delete(s.id(OTHELLO));
  const others = activeIds(s).filter((id) => id !== s.id(OTHELLO));
  checkRecipients(t, received, isEvent('realm_user', 'update'), others, 'realm_user/update');
  checkRecipients(t, received, isEvent('user_group', 'add_members'), others, 'user_group/add_members');
});

t.test('before level 222 deactivation sent realm_user remove with the full name, and clients still converge', async (t) => {
  const s = testServer({ featureLevel: 221 });
  const [hamlet] = await checkEventsConvergeFor(t, [s.as(HAMLET)], { ...PEOPLE, action: () => s.as(IAGO).delete(`/users/${s.id(OTHELLO)}`) });
  t.match((hamlet ?? []).filter(isEvent('realm_user')), [
    { type: 'realm_user', op: 'remove', person: { user_id: s.id(OTHELLO), full_name: 'Othello, the Moor of Venice' } },
  ]);
});
