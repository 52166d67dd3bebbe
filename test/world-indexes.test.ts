/**
 * The world's indexes (per-user subscriptions, channels by name, layered settings) answer what a
 * scan of the underlying data answers, after any sequence of the writes that change them.
 */
import fc from 'fast-check';
import t, { type Test } from 'tap';
import { LayeredMap } from '../lib/state/layered-map.js';
import type { World } from '../lib/state/world.js';
import { testServer } from './support/harness.js';

const USERS = ['iago@zulip.com', 'hamlet@zulip.com', 'othello@zulip.com', 'polonius@zulip.com', 'desdemona@zulip.com'];
const CHANNELS = ['Verona', 'Denmark', 'core team', 'new one', 'New One', 'another'];

/** Every index answer, compared with a scan of `world.subscriptions` and `world.streams`. */
function assertIndexesAgree(t: Test, world: World): void {
  for (const userId of world.users.keys()) {
    const scanned = new Map<number, unknown>();
    for (const [streamId, subs] of world.subscriptions) {
      const sub = subs.get(userId);
      if (sub) scanned.set(streamId, sub);
    }
    const indexed = world.subscriptionsOf(userId);
    if (indexed.size !== scanned.size || [...indexed].some(([streamId, sub]) => scanned.get(streamId) !== sub)) {
      t.fail(`subscriptions of user ${userId} disagree with a scan`);
      return;
    }
  }
  for (const stream of world.streams.values()) {
    if (world.streamByName(stream.name.toUpperCase()) !== stream) {
      t.fail(`channel ${stream.name} not found by name`);
      return;
    }
  }
  t.pass('indexes agree with a scan');
}

const action = fc.record({
  actor: fc.constantFrom(...USERS),
  kind: fc.constantFrom('subscribe', 'unsubscribe', 'subscribe-others', 'deactivate', 'reactivate'),
  channel: fc.constantFrom(...CHANNELS),
  other: fc.constantFrom(...USERS),
});

t.test('per-user subscriptions and channel names stay true under random subscription changes', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.array(action, { maxLength: 12 }), async (actions) => {
      const s = testServer();
      const admin = s.as('iago@zulip.com');
      for (const a of actions) {
        const client = s.as(a.actor);
        const subscriptions = JSON.stringify([{ name: a.channel }]);
        if (a.kind === 'subscribe') await client.post('/users/me/subscriptions', { subscriptions });
        if (a.kind === 'subscribe-others') await client.post('/users/me/subscriptions', { subscriptions, principals: [a.other] });
        if (a.kind === 'unsubscribe') await client.delete('/users/me/subscriptions', { subscriptions: JSON.stringify([a.channel]) });
        if (a.kind === 'deactivate' && a.other !== 'iago@zulip.com') await admin.delete(`/users/${s.id(a.other)}`);
        if (a.kind === 'reactivate') await admin.post(`/users/${s.id(a.other)}/reactivate`);
      }
      // iago is never deactivated above, so can always ask.
      const reply = await s.as('iago@zulip.com').get('/users/me/subscriptions');
      const scanned = [...s.world.subscriptions.values()]
        .map((subs) => subs.get(s.id('iago@zulip.com')))
        .filter((sub) => sub?.active && !s.world.streams.get(sub.streamId)?.isArchived)
        .map((sub) => sub?.streamId)
        .sort();
      const listed = (reply.body.subscriptions as Array<{ stream_id: number }>).map((sub) => sub.stream_id).sort();
      if (JSON.stringify(listed) !== JSON.stringify(scanned)) throw new Error(`listed ${listed} but subscribed to ${scanned}`);
      assertIndexesAgree(t, s.world);
    }),
    { numRuns: 25 },
  );
});

t.test('a renamed channel is found by its new name only', async (t) => {
  const s = testServer();
  const verona = s.world.streamByName('Verona');
  if (!verona) throw new Error('no Verona');
  s.world.streams.rename(verona, 'Padua');
  t.equal(s.world.streamByName('padua'), verona);
  t.equal(s.world.streamByName('Verona'), undefined);
  s.world.streams.delete(verona.id);
  t.equal(s.world.streamByName('Padua'), undefined);
});

t.test('a direct write to a channel subscription map updates the per-user index', async (t) => {
  const s = testServer();
  const hamlet = s.id('hamlet@zulip.com');
  const verona = s.streamId('Verona');
  t.ok(s.world.subscriptionsOf(hamlet).has(verona));
  s.world.subscribersOf(verona).delete(hamlet);
  t.notOk(s.world.subscriptionsOf(hamlet).has(verona));
  s.world.subscribersOf(verona).clear();
  assertIndexesAgree(t, s.world);
});

t.test('layered settings read through to the shared base and keep their own writes', async (t) => {
  const base = new Map([
    ['a', 1],
    ['b', 2],
  ]);
  const one = LayeredMap.over(base);
  const two = LayeredMap.over(base);
  one.set('b', 20);
  one.set('c', 30);
  two.delete('a');
  t.same([...one], [['a', 1], ['b', 20], ['c', 30]], 'base keys in order, then own keys');
  t.same([...two], [['b', 2]]);
  t.equal(two.get('a'), undefined);
  t.notOk(two.has('a'));
  t.equal(one.size, 3);
  t.same([...base], [['a', 1], ['b', 2]], 'the base is never written');
  two.set('a', 5);
  t.equal(two.get('a'), 5);
  t.same(new Map(one), new Map([['a', 1], ['b', 20], ['c', 30]]), 'copies like a plain map');
});

t.test('fixture users share defaults but a setting change touches only that user', async (t) => {
  const s = testServer();
  const before = s.world.usersByEmail.get('othello@zulip.com')?.settings.get('enter_sends');
  const reply = await s.as('hamlet@zulip.com').patch('/settings', { enter_sends: !before });
  t.equal(reply.status, 200);
  t.equal(s.world.usersByEmail.get('hamlet@zulip.com')?.settings.get('enter_sends'), !before);
  t.equal(s.world.usersByEmail.get('othello@zulip.com')?.settings.get('enter_sends'), before);
});

t.test("per-channel daily message counts agree with a scan after sends, moves and deletions", async (t) => {
  const s = testServer();
  const iago = s.as('iago@zulip.com');
  const sent: number[] = [];
  for (let i = 0; i < 6; i++) {
    const reply = await iago.post('/messages', { type: 'stream', to: i % 2 === 0 ? 'Verona' : 'Denmark', topic: `count ${i}`, content: `m${i}` });
    sent.push(reply.body.id as number);
    s.clock.advance(86_400_000 / 2);
  }
  t.equal((await iago.patch(`/messages/${sent[0]}`, { stream_id: s.streamId('Scotland'), propagate_mode: 'change_one' })).status, 200);
  t.equal((await iago.delete(`/messages/${sent[1]}`)).status, 200);
  const scanned = new Map<string, number>();
  for (const message of s.world.messages.values()) {
    if (message.recipient.kind !== 'stream') continue;
    const key = `${message.recipient.streamId}:${Math.floor(message.sentAt / 86_400_000)}`;
    scanned.set(key, (scanned.get(key) ?? 0) + 1);
  }
  for (const [key, count] of scanned) {
    const [streamId, day] = key.split(':').map(Number) as [number, number];
    t.equal(s.world.messages.sentOnDay(streamId, day), count, key);
  }
  t.equal(s.world.messages.sentOnDay(s.streamId('Scotland'), Math.floor((s.world.messages.get(sent[0] as number)?.sentAt ?? 0) / 86_400_000)) > 0, true, 'the moved message counts in its new channel');
});
