import t from 'tap';
import {
  activeIds,
  CORDELIA,
  DESDEMONA,
  HAMLET,
  IAGO,
  names,
  ofType,
  OTHELLO,
  POLONIUS,
  recordEvents,
  sortedIds,
  sub,
} from './support/channels.js';
import { testServer } from './support/harness.js';

t.test('a new public channel: stream/create to non-guests, subscription/add to each subscriber, peer_add to the rest, then its first message', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  await sub(s, HAMLET, { subscriptions: [{ name: 'brand new', description: 'hi' }], principals: [s.id(HAMLET), s.id(OTHELLO)] });
  const id = s.streamId('brand new');
  const nonGuests = activeIds(s, { guests: false });
  t.same(
    events.map((e) => [e.event.type, e.event.op]),
    [
      ['stream', 'create'],
      ['subscription', 'add'],
      ['subscription', 'add'],
      ['subscription', 'peer_add'],
      ['message', undefined],
      ['message', undefined],
    ],
  );
  const create = events[0]!;
  t.same(create.userIds, nonGuests, 'every active non-guest, bots included');
  t.match((create.event.streams as unknown[])[0], { stream_id: id, name: 'brand new', stream_weekly_traffic: null, subscriber_count: 0 });
  t.same(events[1]!.userIds, [s.id(HAMLET)]);
  t.same(events[2]!.userIds, [s.id(OTHELLO)]);
  t.same(events[3]!.event, { type: 'subscription', op: 'peer_add', stream_ids: [id], user_ids: sortedIds([s.id(HAMLET), s.id(OTHELLO)]) });
  t.same(events[3]!.userIds, nonGuests.filter((u) => u !== s.id(HAMLET) && u !== s.id(OTHELLO)), 'the new subscribers are not peers');
});

t.test('subscription/add objects are the GET /users/me/subscriptions entries with subscribers', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  await sub(s, HAMLET, { subscriptions: names('Scotland', 'brand new') });
  const added = ofType(events, 'subscription', 'add')[0]!.event.subscriptions as Array<Record<string, unknown>>;
  const listed = (await s.as(HAMLET).get('/users/me/subscriptions', { include_subscribers: true })).body.subscriptions as Array<Record<string, unknown>>;
  for (const entry of added) {
    // The created channel's first message (Notification Bot's) is posted after the event.
    const now = { ...listed.find((x) => x.stream_id === entry.stream_id), first_message_id: entry.first_message_id };
    t.same(entry, now, String(entry.name));
  }
  t.equal(added[1]!.first_message_id, null, 'sent before the channel-events message');
  t.same(added.map((x) => x.name), ['Scotland', 'brand new'], 'existing channels first, then created ones');
});

t.test('a new private channel is announced to administrators and its channel administrators, then to new members', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  await sub(s, HAMLET, { subscriptions: names('secret'), invite_only: true, principals: [s.id(HAMLET), s.id(OTHELLO)] });
  const id = s.streamId('secret');
  const creates = ofType(events, 'stream', 'create');
  t.same(creates.map((e) => e.userIds), [sortedIds([s.id(DESDEMONA), s.id(IAGO), s.id(HAMLET)]), [s.id(OTHELLO)]]);
  t.same(ofType(events, 'subscription', 'peer_add').map((e) => [e.event.stream_ids, e.userIds]), [[[id], sortedIds([s.id(DESDEMONA), s.id(IAGO)])]]);
});

t.test('before level 349 the creator of a private channel learns of it as a new member', async (t) => {
  const s = testServer({ featureLevel: 348 });
  const events = recordEvents(s);
  await sub(s, HAMLET, { subscriptions: names('secret'), invite_only: true });
  t.same(ofType(events, 'stream', 'create').map((e) => e.userIds), [sortedIds([s.id(DESDEMONA), s.id(IAGO)]), [s.id(HAMLET)]]);
});

t.test('a new web-public channel is announced to guests too, from level 220', async (t) => {
  for (const [level, guests] of [[219, false], [220, true]] as const) {
    const s = testServer({ featureLevel: level });
    const events = recordEvents(s);
    await sub(s, DESDEMONA, { subscriptions: names('open'), is_web_public: true });
    t.equal(ofType(events, 'stream', 'create')[0]!.userIds.includes(s.id(POLONIUS)), guests, `level ${level}`);
  }
});

t.test('a guest subscribed to a public channel gets stream/create from level 192', async (t) => {
  for (const [level, expected] of [[191, 0], [192, 1]] as const) {
    const s = testServer({ featureLevel: level });
    const events = recordEvents(s);
    await sub(s, IAGO, { subscriptions: names('Denmark'), principals: [s.id(POLONIUS)] });
    t.equal(ofType(events, 'stream', 'create').filter((e) => e.userIds.includes(s.id(POLONIUS))).length, expected, `level ${level}`);
  }
});

t.test('peer_add groups public channels changed for the same users, and reaches subscribed guests separately', async (t) => {
  const s = testServer();
  const scotland = s.streamId('Scotland');
  const venice = s.streamId('Venice');
  const denmark = s.streamId('Denmark');
  await sub(s, IAGO, { subscriptions: names('Denmark'), principals: [s.id(POLONIUS)] });
  const events = recordEvents(s);
  await sub(s, CORDELIA, { subscriptions: names('Scotland', 'Venice', 'Denmark', 'Rome') });
  const peers = ofType(events, 'subscription', 'peer_add').map((e) => [e.event.stream_ids, e.userIds]);
  const cordelia = s.id(CORDELIA);
  const nonGuests = activeIds(s, { guests: false }).filter((u) => u !== cordelia);
  const everyone = activeIds(s, { guests: true }).filter((u) => u !== cordelia);
  t.same(
    new Set(peers.map((p) => JSON.stringify(p))),
    new Set([
      JSON.stringify([[denmark], sortedIds([...nonGuests, s.id(POLONIUS)])]),
      JSON.stringify([[s.streamId('Rome')], everyone]),
      JSON.stringify([sortedIds([scotland, venice]), nonGuests]),
    ]),
  );
});

t.test('a guest subscribed to a public channel is not a peer before level 220', async (t) => {
  const s = testServer({ featureLevel: 219 });
  const events = recordEvents(s);
  await sub(s, CORDELIA, { subscriptions: names('Rome') });
  t.notOk(ofType(events, 'subscription', 'peer_add')[0]!.userIds.includes(s.id(POLONIUS)));
});
