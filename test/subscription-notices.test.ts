import t from 'tap';
import { channelPolicy, newSubscriptionMessagesAllowed } from '../lib/actions/channels/subscription-notices.js';
import type { Message } from '../lib/entities/message.js';
import type { Stream } from '../lib/entities/stream.js';
import { addSubscribedMembers, CORDELIA, DESDEMONA, HAMLET, IAGO, names, ofType, OTHELLO, recordEvents, sortedIds, sub, userOf } from './support/channels.js';
import { testServer, type TestServer } from './support/harness.js';

const BOT = 'notification-bot@zulip.com';
const mention = (s: TestServer, email: string) => `@_**${userOf(s, email).fullName}|${s.id(email)}**`;
const isRead = (m: Message, userId: number) => m.flags.get(userId)?.has('read') === true;

/** Direct messages from Notification Bot to `email`, oldest first. */
function botDmsTo(s: TestServer, email: string): Message[] {
  const ids = [s.id(BOT), s.id(email)].sort((a, b) => a - b);
  return [...s.world.messages.values()].filter(
    (m) => m.senderId === s.id(BOT) && m.recipient.kind === 'direct' && JSON.stringify(m.recipient.userIds) === JSON.stringify(ids),
  );
}

/** Messages in a channel topic, oldest first. */
function inTopic(s: TestServer, channel: string, topic: string): Message[] {
  const streamId = s.streamId(channel);
  return [...s.world.messages.values()].filter((m) => m.recipient.kind === 'stream' && m.recipient.streamId === streamId && m.recipient.topic === topic);
}

t.test('users subscribed by someone else get a Notification Bot DM listing the existing channels, sorted', async (t) => {
  const s = testServer();
  const reply = await sub(s, IAGO, {
    subscriptions: names('Venice', 'Scotland', 'brand new'),
    principals: [s.id(IAGO), s.id(HAMLET), s.id(CORDELIA), s.id('default-bot@zulip.com')],
  });
  t.equal(reply.body.new_subscription_messages_sent, true);
  for (const email of [HAMLET, CORDELIA]) {
    const dms = botDmsTo(s, email);
    t.equal(dms.length, 1, email);
    t.equal(dms[0]!.content, `${mention(s, IAGO)} subscribed you to the following channels:\n\n* #**Scotland**\n* #**Venice**`);
    t.notOk(isRead(dms[0]!, s.id(email)), 'unread for the recipient');
  }
  t.same(botDmsTo(s, IAGO), [], 'nothing for the requester');
  t.same(botDmsTo(s, 'default-bot@zulip.com'), [], 'nothing for bots');
});

t.test('a DM about one channel names it inline; channels created by the request are never in it', async (t) => {
  const s = testServer();
  await sub(s, IAGO, { subscriptions: names('Venice', 'fresh'), principals: [s.id(HAMLET)] });
  t.same(botDmsTo(s, HAMLET).map((m) => m.content), [`${mention(s, IAGO)} subscribed you to #**Venice**.`]);
  await sub(s, IAGO, { subscriptions: names('fresher'), principals: [s.id(OTHELLO)] });
  t.same(botDmsTo(s, OTHELLO), [], 'only a created channel: no DM');
});

t.test('subscribing yourself or someone already subscribed sends no DM', async (t) => {
  const s = testServer();
  const before = s.world.messages.size;
  await sub(s, HAMLET, { subscriptions: names('Venice') });
  await sub(s, IAGO, { subscriptions: names('Denmark'), principals: [s.id(HAMLET)] });
  t.equal(s.world.messages.size, before);
});

t.test('from level 397 the DMs follow send_new_subscription_messages, reported in new_subscription_messages_sent', async (t) => {
  const s = testServer();
  const off = await sub(s, IAGO, { subscriptions: names('Venice'), principals: [s.id(HAMLET)], send_new_subscription_messages: false });
  t.notOk('new_subscription_messages_sent' in off.body, 'absent unless requested');
  t.same(botDmsTo(s, HAMLET), []);
  const old = testServer({ featureLevel: 396 });
  const before = await sub(old, IAGO, { subscriptions: names('Venice'), principals: [old.id(HAMLET)], send_new_subscription_messages: false });
  t.same(before.body.ignored_parameters_unsupported, ['send_new_subscription_messages']);
  t.notOk('new_subscription_messages_sent' in before.body);
  t.equal(botDmsTo(old, HAMLET).length, 1, 'before 397 the DM is always sent');
});

t.test('more than 100 new subscribers: no DMs, and new_subscription_messages_sent is false', async (t) => {
  const s = testServer();
  const many = addSubscribedMembers(s, s.streamId('Denmark'), 101);
  const before = s.world.messages.size;
  const reply = await sub(s, IAGO, { subscriptions: names('Venice'), principals: many });
  t.equal(reply.body.new_subscription_messages_sent, false);
  t.equal(s.world.messages.size, before);
  const input = { actor: userOf(s, IAGO), created: [], announce: false, sendNewSubscriptionMessages: true };
  const subscribed = (n: number) => new Map(Array.from({ length: n }, (_, i) => [i + 1000, [] as Stream[]]));
  t.equal(newSubscriptionMessagesAllowed(s.world, { ...input, subscribed: subscribed(100) }), true, 'exactly 100 is allowed');
});

t.test('each created channel gets a "channel events" message, read for the requester only', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  await sub(s, HAMLET, { subscriptions: [{ name: 'brand new', description: 'A *fine* place' }], principals: [s.id(HAMLET), s.id(OTHELLO)] });
  const [message, ...more] = inTopic(s, 'brand new', 'channel events');
  t.same(more, []);
  t.equal(message!.senderId, s.id(BOT));
  t.equal(message!.content, `**Public** channel created by ${mention(s, HAMLET)}. **Description:**\n\`\`\`\` quote\nA *fine* place\n\`\`\`\``);
  t.ok(isRead(message!, s.id(HAMLET)));
  t.notOk(isRead(message!, s.id(OTHELLO)));
  t.same(sortedIds(ofType(events, 'message').flatMap((e) => e.userIds)), sortedIds([s.id(HAMLET), s.id(OTHELLO)]), 'a message event to each subscriber');
});

t.test('the channel-events heading follows the channel type, and an empty description says so', async (t) => {
  const s = testServer();
  await sub(s, IAGO, { subscriptions: names('shared'), invite_only: true, history_public_to_subscribers: true });
  await sub(s, IAGO, { subscriptions: names('protected'), invite_only: true });
  await sub(s, DESDEMONA, { subscriptions: names('open web'), is_web_public: true });
  const who = mention(s, IAGO);
  const none = '\n```` quote\n*No description.*\n````';
  t.equal(inTopic(s, 'shared', 'channel events')[0]?.content, `**Private, shared history** channel created by ${who}. **Description:**${none}`);
  t.equal(inTopic(s, 'protected', 'channel events')[0]?.content, `**Private, protected history** channel created by ${who}. **Description:**${none}`);
  t.equal(inTopic(s, 'open web', 'channel events')[0]?.content, `**Web-public** channel created by ${mention(s, DESDEMONA)}. **Description:**${none}`);
  const base = s.world.streamByName('Denmark')!;
  t.equal(channelPolicy(base), 'public');
  t.equal(channelPolicy({ ...base, inviteOnly: true, historyPublicToSubscribers: false }), 'private_protected_history');
});

t.test('announce posts in the new-channel announcements channel, topic "new channels", read for the requester', async (t) => {
  const s = testServer();
  await sub(s, HAMLET, { subscriptions: names('loud'), announce: true });
  const [one] = inTopic(s, 'Verona', 'new channels');
  t.equal(one!.senderId, s.id(BOT));
  t.equal(one!.content, `${mention(s, HAMLET)} created a new channel #**loud**.`);
  t.ok(isRead(one!, s.id(HAMLET)));
  t.notOk(isRead(one!, s.id(OTHELLO)));
  await sub(s, HAMLET, { subscriptions: names('b>one', 'another'), announce: true });
  t.equal(
    inTopic(s, 'Verona', 'new channels')[1]?.content,
    `${mention(s, HAMLET)} created the following channels: [#b&gt;one](#narrow/channel/${s.streamId('b>one')}-b.3Eone), #**another**.`,
    'request order; names that break the #** syntax become plain links',
  );
});

t.test('no announcement without announce, without a created channel, or without an announcements channel', async (t) => {
  const s = testServer();
  await sub(s, HAMLET, { subscriptions: names('quiet') });
  await sub(s, HAMLET, { subscriptions: names('Denmark'), announce: true });
  s.world.realm.newStreamAnnouncementsStreamId = null;
  await sub(s, HAMLET, { subscriptions: names('unannounced'), announce: true });
  t.same(inTopic(s, 'Verona', 'new channels'), []);
  t.equal(inTopic(s, 'unannounced', 'channel events').length, 1, 'the channel-events message is still posted');
});

t.test('DMs come first, then the announcement, then the channel-events messages', async (t) => {
  const s = testServer();
  const before = s.world.messages.size;
  await sub(s, IAGO, { subscriptions: names('Venice', 'first', 'second'), principals: [s.id(IAGO), s.id(HAMLET)], announce: true });
  const order = [...s.world.messages.values()].slice(before).map((m) => (m.recipient.kind === 'direct' ? 'dm' : m.recipient.topic));
  t.same(order, ['dm', 'new channels', 'channel events', 'channel events']);
});

t.test('a failed subscribe sends no message', async (t) => {
  const s = testServer();
  const before = s.world.messages.size;
  const reply = await sub(s, HAMLET, { subscriptions: names('new one'), principals: [999], announce: true });
  t.equal(reply.status, 400);
  t.equal(s.world.messages.size, before);
});
