import t from 'tap';
import { type ApiEvent, checkEventsConvergeFor } from './support/apply-events.js';
import { CORDELIA, HAMLET, IAGO, OTHELLO, POLONIUS, sortedIds } from './support/channels.js';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer, type TestServer } from './support/harness.js';

/** What a full client keeps for channels: the three lists with subscribers, and max_message_id for Notification Bot's messages. */
const CHANNELS = {
  fetchEventTypes: ['subscription', 'message'],
  eventTypes: ['subscription', 'stream', 'message'],
  registerParams: { include_subscribers: 'true' },
} as const;

const subscribers = (s: TestServer, name: string) =>
  sortedIds([...s.world.subscribersOf(s.streamId(name))].filter(([id, sub]) => sub.active && s.world.users.get(id)?.isActive).map(([id]) => id));
const nonGuests = (s: TestServer) => activeIds(s, (u) => u.role !== 600);
const without = (ids: readonly number[], ...drop: number[]) => ids.filter((id) => !drop.includes(id));
const all = (lists: Array<ApiEvent[] | undefined>) => lists.flatMap((l) => l ?? []);

t.test('subscribing oneself to a public channel: add for the user, peer_add for the others; user and peers converge', async (t) => {
  const s = testServer();
  t.notOk(subscribers(s, 'Scotland').includes(s.id(HAMLET)), 'hamlet starts outside Scotland');
  const everyone = listenAll(s);
  const [hamlet, othello, polonius] = await checkEventsConvergeFor(t, [s.as(HAMLET), s.as(OTHELLO), s.as(POLONIUS)], {
    ...CHANNELS,
    action: () => s.as(HAMLET).post('/users/me/subscriptions', { subscriptions: [{ name: 'Scotland' }] }),
  });
  checkEventShapes(t, all([hamlet, othello, polonius]));
  t.match(hamlet, [{ type: 'subscription', op: 'add', subscriptions: [{ stream_id: s.streamId('Scotland'), subscribers: subscribers(s, 'Scotland') }] }]);
  t.same(
    (othello ?? []).map(({ id: _id, ...e }) => e),
    [{ type: 'subscription', op: 'peer_add', stream_ids: [s.streamId('Scotland')], user_ids: [s.id(HAMLET)] }],
  );
  t.same(polonius, [], 'a guest outside a public channel hears nothing');
  const received = everyone.received();
  checkRecipients(t, received, isEvent('subscription', 'add'), [s.id(HAMLET)], 'subscription/add');
  checkRecipients(t, received, isEvent('subscription', 'peer_add'), without(nonGuests(s), s.id(HAMLET)), 'peer_add');
  checkRecipients(t, received, isEvent('message'), [], 'no Notification Bot message when subscribing oneself');
});

t.test('subscribing others: each gets add and a Notification Bot message, peers get peer_add; everyone converges', async (t) => {
  const s = testServer();
  const denmark = s.streamId('Denmark');
  t.notOk(subscribers(s, 'Denmark').includes(s.id(CORDELIA)) || subscribers(s, 'Denmark').includes(s.id(POLONIUS)), 'neither is subscribed yet');
  const everyone = listenAll(s);
  const [cordelia, polonius, hamlet] = await checkEventsConvergeFor(t, [s.as(CORDELIA), s.as(POLONIUS), s.as(HAMLET)], {
    ...CHANNELS,
    action: () => s.as(IAGO).post('/users/me/subscriptions', { subscriptions: [{ name: 'Denmark' }], principals: [s.id(CORDELIA), s.id(POLONIUS)] }),
  });
  checkEventShapes(t, all([cordelia, polonius, hamlet]));
  const added = [s.id(CORDELIA), s.id(POLONIUS)];
  const received = everyone.received();
  checkRecipients(t, received, isEvent('subscription', 'add'), added, 'subscription/add');
  // Public channel: active non-guests and the channel's guests, never the users just added (the
  // only guest, polonius, is one of them).
  checkRecipients(t, received, isEvent('subscription', 'peer_add'), without(nonGuests(s), ...added), 'peer_add');
  t.match(received.get(s.id(HAMLET))?.find(isEvent('subscription', 'peer_add')), { stream_ids: [denmark], user_ids: sortedIds(added) });
  // The guest, who could not see the channel before, learns of it first (stream/create).
  t.same(
    (polonius ?? []).map((e) => [e.type, e.op]).slice(0, 2),
    [
      ['stream', 'create'],
      ['subscription', 'add'],
    ],
  );
  checkRecipients(t, received, isEvent('message'), added, 'the "subscribed you" messages');
});

t.test('creating a channel with subscribers: creators, members and the realm converge', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  const [hamlet, othello, iago] = await checkEventsConvergeFor(t, [s.as(HAMLET), s.as(OTHELLO), s.as(IAGO)], {
    ...CHANNELS,
    // iago does not subscribe: the new channel's first message reaches only its subscribers, and
    // (as on the real server, whose apply_event maintains it for subscriptions only) a
    // never-subscribed channel's first_message_id stays null until the next register.
    setAside: (state) => {
      for (const channel of (state.never_subscribed ?? []) as Array<Record<string, unknown>>) {
        if (channel.name === 'brand new') channel.first_message_id = null;
      }
    },
    action: () =>
      s.as(HAMLET).post('/users/me/subscriptions', { subscriptions: [{ name: 'brand new', description: 'fresh' }], principals: [s.id(HAMLET), s.id(OTHELLO)] }),
  });
  checkEventShapes(t, all([hamlet, othello, iago]));
  const id = s.streamId('brand new');
  const received = everyone.received();
  checkRecipients(t, received, isEvent('stream', 'create'), nonGuests(s), 'stream/create');
  checkRecipients(t, received, isEvent('subscription', 'peer_add'), without(nonGuests(s), s.id(HAMLET), s.id(OTHELLO)), 'peer_add');
  t.match(iago, [{ type: 'stream', op: 'create', streams: [{ stream_id: id, subscriber_count: 0, first_message_id: null }] }, { op: 'peer_add' }]);
});

t.test('unsubscribing: remove for the user, peer_remove for the others; user and peers converge', async (t) => {
  const s = testServer();
  t.ok(subscribers(s, 'Verona').includes(s.id(HAMLET)) && subscribers(s, 'Verona').includes(s.id(OTHELLO)));
  const everyone = listenAll(s);
  const [hamlet, othello] = await checkEventsConvergeFor(t, [s.as(HAMLET), s.as(OTHELLO)], {
    ...CHANNELS,
    action: () => s.as(HAMLET).delete('/users/me/subscriptions', { subscriptions: ['Verona'] }),
  });
  checkEventShapes(t, all([hamlet, othello]));
  t.same(
    (hamlet ?? []).map(({ id: _id, ...e }) => e),
    [{ type: 'subscription', op: 'remove', subscriptions: [{ name: 'Verona', stream_id: s.streamId('Verona') }] }],
  );
  t.same(
    (othello ?? []).map(({ id: _id, ...e }) => e),
    [{ type: 'subscription', op: 'peer_remove', stream_ids: [s.streamId('Verona')], user_ids: [s.id(HAMLET)] }],
  );
  const received = everyone.received();
  checkRecipients(t, received, isEvent('subscription', 'remove'), [s.id(HAMLET)], 'subscription/remove');
  const guestsInVerona = subscribers(s, 'Verona').filter((id) => id === s.id(POLONIUS));
  checkRecipients(t, received, isEvent('subscription', 'peer_remove'), without(sortedIds([...nonGuests(s), ...guestsInVerona]), s.id(HAMLET)), 'peer_remove');
});

t.test('leaving a private channel: the user loses sight of it (stream/delete) and converges; subscribers converge', async (t) => {
  const s = testServer();
  const secret = 'secret plans';
  await s.as(HAMLET).post('/users/me/subscriptions', { subscriptions: [{ name: secret }], invite_only: true, principals: [s.id(HAMLET), s.id(OTHELLO)] });
  const everyone = listenAll(s);
  const [othello, hamlet, iago] = await checkEventsConvergeFor(t, [s.as(OTHELLO), s.as(HAMLET), s.as(IAGO)], {
    ...CHANNELS,
    action: () => s.as(OTHELLO).delete('/users/me/subscriptions', { subscriptions: [secret] }),
  });
  checkEventShapes(t, all([othello, hamlet, iago]));
  t.same(
    (othello ?? []).map((e) => [e.type, e.op]),
    [
      ['subscription', 'remove'],
      ['stream', 'delete'],
    ],
  );
  const received = everyone.received();
  // Private channel: the remaining subscribers and the administrators.
  const admins = activeIds(s, (u) => u.role <= 200);
  checkRecipients(t, received, isEvent('subscription', 'peer_remove'), without(sortedIds([...subscribers(s, secret), ...admins]), s.id(OTHELLO)), 'peer_remove');
  checkRecipients(t, received, isEvent('stream', 'delete'), [s.id(OTHELLO)], 'stream/delete');
});
