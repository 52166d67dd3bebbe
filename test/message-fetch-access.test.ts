/**
 * Who reads what through GET /messages: history of public channels for every role but guests,
 * web-public channels, private channels with and without shared history, messages kept after
 * leaving.
 */
import t from 'tap';
import { errorOf, testServer, withoutSeededMessages, type TestServer } from './support/harness.js';
import { fetchIds, sendToChannel } from './support/messages.js';

const NEWEST = { anchor: 'newest', num_before: 100 };
const ROLES: [string, string][] = [
  ['owner', 'desdemona@zulip.com'],
  ['administrator', 'iago@zulip.com'],
  ['moderator', 'shiva@zulip.com'],
  ['member', 'hamlet@zulip.com'],
  ['guest', 'polonius@zulip.com'],
];

const inChannel = (s: TestServer, email: string, channel: string) => fetchIds(s.as(email), { ...NEWEST, narrow: [['stream', channel]] });

t.test('a public channel\'s history is readable by every role but guests, as historical messages', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const id = await sendToChannel(s, 'othello@zulip.com', 'Venice', 'x', 'old news');
  for (const [role, email] of ROLES) {
    const expected = role === 'guest' ? [] : [id];
    t.same(await inChannel(s, email, 'Venice'), expected, `${role} (not subscribed)`);
  }
  const [message] = (await s.as('hamlet@zulip.com').get('/messages', { ...NEWEST, narrow: [['stream', 'Venice']] })).body.messages;
  t.same(message.flags, ['read', 'historical']);
  t.same(await fetchIds(s.as('hamlet@zulip.com'), { ...NEWEST, narrow: [['channels', 'public']] }), [id], 'channels:public reads history too');
  t.same(await fetchIds(s.as('polonius@zulip.com'), { ...NEWEST, narrow: [['channels', 'public']] }), [], 'but not for guests');
  t.same(await fetchIds(s.as('hamlet@zulip.com'), { ...NEWEST, narrow: [['stream', 'Venice'], ['is', 'unread']] }), [], 'is: terms search only received messages');
  t.same(await fetchIds(s.as('hamlet@zulip.com'), { ...NEWEST, narrow: [{ operator: 'stream', operand: 'Venice', negated: true }] }), [], 'a negated channel term reads no history');
});

t.test('web-public channels are readable by guests too', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const id = await sendToChannel(s, 'ZOE@zulip.com', 'Rome', 'x', 'ciao');
  for (const [role, email] of ROLES) t.same(await inChannel(s, email, 'Rome'), [id], role);
});

t.test('private channels: history only for subscribers, and only when shared', async (t) => {
  for (const shared of [true, false]) {
    const s = testServer({ fixture: withoutSeededMessages() });
    const stream = s.world.streams.get(s.streamId('core team'));
    if (stream) stream.historyPublicToSubscribers = shared;
    const old = await sendToChannel(s, 'iago@zulip.com', 'core team', 'x', 'before othello');
    const added = await s.as('iago@zulip.com').post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'core team' }]), principals: JSON.stringify([12]) });
    t.equal(added.status, 200, added.text);
    const recent = await sendToChannel(s, 'iago@zulip.com', 'core team', 'x', 'after othello');
    const notices = (await inChannel(s, 'iago@zulip.com', 'core team')).filter((id) => id !== old && id !== recent);
    const othello = (await inChannel(s, 'othello@zulip.com', 'core team')).filter((id) => !notices.includes(id));
    t.same(othello, shared ? [old, recent] : [recent], `a new subscriber, history shared: ${shared}`);
    t.same(await inChannel(s, 'shiva@zulip.com', 'core team'), [], 'a non-subscriber reads nothing (no error: the channel exists)');
    for (const [role, email] of ROLES.filter(([r]) => r !== 'owner' && r !== 'administrator' && r !== 'member')) {
      t.same(await inChannel(s, email, 'core team'), [], `${role} without a subscription`);
    }
  }
});

t.test('messages received stay readable after leaving a private channel', async (t) => {
  const s = testServer({ fixture: withoutSeededMessages() });
  const id = await sendToChannel(s, 'iago@zulip.com', 'core team', 'x', 'secret');
  await s.as('hamlet@zulip.com').delete('/users/me/subscriptions', { subscriptions: JSON.stringify(['core team']) });
  t.same(await inChannel(s, 'hamlet@zulip.com', 'core team'), [id]);
  t.same(await fetchIds(s.as('hamlet@zulip.com'), NEWEST), [id], 'and in the combined feed');
});

