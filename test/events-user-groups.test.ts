import t from 'tap';
import { type ApiEvent, checkEventsConvergeFor } from './support/apply-events.js';
import { CORDELIA, HAMLET, OTHELLO, POLONIUS, sortedIds } from './support/channels.js';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer, type TestServer } from './support/harness.js';

/** Groups, and max_message_id for Notification Bot's "added you" messages. */
const GROUPS = { fetchEventTypes: ['realm_user_groups', 'message'], eventTypes: ['user_group', 'message'] } as const;
const all = (lists: Array<ApiEvent[] | undefined>) => lists.flatMap((l) => l ?? []);
const stripIds = (events: ApiEvent[] | undefined) => (events ?? []).filter((e) => e.type === 'user_group').map(({ id: _id, ...e }) => e);

async function makeGroup(s: TestServer, name: string, members: string[], extra: Record<string, unknown> = {}): Promise<number> {
  const reply = await s.as(HAMLET).post('/user_groups/create', { name, description: `${name} group`, members: members.map((m) => s.id(m)), ...extra });
  if (reply.status !== 200) throw new Error(reply.text);
  return reply.body.group_id as number;
}

t.test('user_group add (with subgroups): every active account gets the group, then its subgroups; members and others converge', async (t) => {
  const s = testServer();
  const sub = await makeGroup(s, 'inner', [CORDELIA]);
  const everyone = listenAll(s);
  let id = 0;
  const [hamlet, othello, polonius] = await checkEventsConvergeFor(t, [s.as(HAMLET), s.as(OTHELLO), s.as(POLONIUS)], {
    ...GROUPS,
    action: async () => {
      id = await makeGroup(s, 'outer', [HAMLET, OTHELLO], { subgroups: [sub] });
    },
  });
  checkEventShapes(t, all([hamlet, othello, polonius]));
  const [add, subgroups] = stripIds(othello);
  t.match(add, {
    type: 'user_group',
    op: 'add',
    group: {
      id,
      name: 'outer',
      description: 'outer group',
      members: sortedIds([s.id(HAMLET), s.id(OTHELLO)]),
      direct_subgroup_ids: [],
      creator_id: s.id(HAMLET),
      date_created: Math.floor(s.clock.now() / 1000),
      is_system_group: false,
      deactivated: false,
    },
  });
  t.same(subgroups, { type: 'user_group', op: 'add_subgroups', group_id: id, direct_subgroup_ids: [sub] });
  const received = everyone.received();
  checkRecipients(t, received, isEvent('user_group', 'add'), activeIds(s), 'user_group/add');
  checkRecipients(t, received, isEvent('user_group', 'add_subgroups'), activeIds(s), 'user_group/add_subgroups');
});

type Change = [
  op: string,
  action: (s: TestServer, group: number, sub: number) => Promise<unknown>,
  event: (s: TestServer, group: number, sub: number) => Record<string, unknown>,
  /** Who gets a Notification Bot message about it (reference §3.7: members added or removed by someone else). */
  notified: readonly string[],
];

const changes: Change[] = [
  [
    'add_members',
    (s, group) => s.as(HAMLET).post(`/user_groups/${group}/members`, { add: [s.id(CORDELIA), s.id(POLONIUS)] }),
    (s, group) => ({ type: 'user_group', op: 'add_members', group_id: group, user_ids: [s.id(CORDELIA), s.id(POLONIUS)] }),
    [CORDELIA, POLONIUS],
  ],
  [
    'remove_members',
    (s, group) => s.as(HAMLET).post(`/user_groups/${group}/members`, { delete: [s.id(OTHELLO)] }),
    (s, group) => ({ type: 'user_group', op: 'remove_members', group_id: group, user_ids: [s.id(OTHELLO)] }),
    [OTHELLO],
  ],
  [
    'add_subgroups',
    (s, group, sub) => s.as(HAMLET).post(`/user_groups/${group}/subgroups`, { add: [sub] }),
    (_s, group, sub) => ({ type: 'user_group', op: 'add_subgroups', group_id: group, direct_subgroup_ids: [sub] }),
    [],
  ],
  [
    'remove_subgroups',
    async (s, group, sub) => {
      await s.as(HAMLET).post(`/user_groups/${group}/subgroups`, { add: [sub] });
      return s.as(HAMLET).post(`/user_groups/${group}/subgroups`, { delete: [sub] });
    },
    (_s, group, sub) => ({ type: 'user_group', op: 'remove_subgroups', group_id: group, direct_subgroup_ids: [sub] }),
    [],
  ],
];

for (const [op, action, expected, notified] of changes) {
  t.test(`user_group ${op}: every active account gets it, and members, newcomers and others converge`, async (t) => {
    const s = testServer();
    const sub = await makeGroup(s, 'inner', [CORDELIA]);
    const group = await makeGroup(s, 'outer', [HAMLET, OTHELLO]);
    const everyone = listenAll(s);
    const clients = [s.as(HAMLET), s.as(OTHELLO), s.as(CORDELIA), s.as(POLONIUS)];
    const results = await checkEventsConvergeFor(t, clients, { ...GROUPS, action: () => action(s, group, sub) });
    checkEventShapes(t, all(results));
    t.same(stripIds(results[1]).at(-1), expected(s, group, sub));
    checkRecipients(t, everyone.received(), isEvent('user_group', op), activeIds(s), `user_group/${op}`);
    checkRecipients(t, everyone.received(), isEvent('message'), notified.map((email) => s.id(email)), 'the Notification Bot messages');
  });
}

t.test('a refused membership change sends nothing and leaves every state as it was', async (t) => {
  const s = testServer();
  const group = await makeGroup(s, 'outer', [HAMLET, OTHELLO]);
  const everyone = listenAll(s);
  const [hamlet] = await checkEventsConvergeFor(t, [s.as(HAMLET)], {
    ...GROUPS,
    expectEvents: false,
    // The add is valid, the delete is not: the whole request fails.
    action: () => s.as(HAMLET).post(`/user_groups/${group}/members`, { add: [s.id(CORDELIA)], delete: [s.id(POLONIUS)] }),
  });
  t.same(hamlet, []);
  t.same([...everyone.received().keys()], []);
});

t.test('deactivating a group: update for clients that keep deactivated groups, remove for the others; both converge', async (t) => {
  const s = testServer();
  const first = await makeGroup(s, 'first', [HAMLET]);
  const second = await makeGroup(s, 'second', [HAMLET]);
  const everyone = listenAll(s);
  const [capable] = await checkEventsConvergeFor(t, [s.as(OTHELLO)], {
    ...GROUPS,
    registerParams: { client_capabilities: { notification_settings_null: true, include_deactivated_groups: true } },
    action: () => s.as(HAMLET).post(`/user_groups/${first}/deactivate`),
  });
  checkEventShapes(t, capable ?? []);
  t.same(stripIds(capable), [{ type: 'user_group', op: 'update', group_id: first, data: { deactivated: true } }]);
  const [legacy] = await checkEventsConvergeFor(t, [s.as(OTHELLO)], { ...GROUPS, action: () => s.as(HAMLET).post(`/user_groups/${second}/deactivate`) });
  checkEventShapes(t, legacy ?? []);
  t.same(stripIds(legacy), [{ type: 'user_group', op: 'remove', group_id: second }]);
  checkRecipients(t, everyone.received(), isEvent('user_group', 'update'), activeIds(s), 'user_group/update');
  checkRecipients(t, everyone.received(), isEvent('user_group', 'remove'), activeIds(s), 'user_group/remove');
});
