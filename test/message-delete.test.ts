import t from 'tap';
import { uploadAttachment } from '../lib/actions/personal/attachments.js';
import { namedGroup } from '../lib/entities/group.js';
import type { RealmPermissionSetting } from '../lib/entities/realm.js';
import type { SystemGroupName } from '../lib/entities/group.js';
import { CORDELIA, DESDEMONA, HAMLET, IAGO, ofType, OTHELLO, POLONIUS, recordEvents, SHIVA, sortedIds } from './support/channels.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const NO_PERMISSION = bad("You don't have permission to delete this message");

async function send(s: TestServer, from: string, to = 'Verona', topic = 'Lunch'): Promise<number> {
  const reply = await s.as(from).post('/messages', { type: 'stream', to, topic, content: 'pizza?' });
  if (reply.status !== 200) throw new Error(reply.text);
  return reply.body.id as number;
}

const remove = (s: TestServer, email: string, id: number) => s.as(email).delete(`/messages/${id}`);
const setRealm = (s: TestServer, name: string, group: SystemGroupName) =>
  s.world.realm.settings.set(name as RealmPermissionSetting, namedGroup(s.world.systemGroupId(group)));
const setChannel = (s: TestServer, channel: string, name: 'can_delete_any_message_group' | 'can_delete_own_message_group', group: SystemGroupName) =>
  s.world.streams.get(s.streamId(channel))?.settings.set(name, namedGroup(s.world.systemGroupId(group)));
const subscribers = (s: TestServer, name: string) =>
  sortedIds([...s.world.subscribersOf(s.streamId(name))].filter(([id, sub]) => sub.active && s.world.users.get(id)?.isActive).map(([id]) => id));

t.test('the sender deletes their channel message; everyone who may read it gets delete_message with the lowercased topic', async (t) => {
  const s = testServer();
  const id = await send(s, HAMLET);
  const events = recordEvents(s);
  t.same((await remove(s, HAMLET, id)).body, { result: 'success', msg: '' });
  t.notOk(s.world.messages.has(id));
  t.same(ofType(events, 'delete_message'), [
    {
      event: { type: 'delete_message', message_ids: [id], stream_id: s.streamId('Verona'), topic: 'lunch', message_type: 'stream' },
      userIds: subscribers(s, 'Verona'),
    },
  ]);
  t.same(errorOf(await remove(s, HAMLET, id)), bad('Invalid message(s)'), 'a deleted message is gone');
});

t.test('by default owners and administrators delete anyone\'s messages; moderators, members and guests only their own', async (t) => {
  for (const [email, others] of [[DESDEMONA, true], [IAGO, true], [SHIVA, false], [OTHELLO, false], [POLONIUS, false]] as const) {
    const s = testServer();
    const theirs = await send(s, CORDELIA);
    const own = await send(s, email);
    t.same((await remove(s, email, theirs)).status === 200, others, `${email} on another's message`);
    if (!others) t.same(errorOf(await remove(s, email, theirs)), NO_PERMISSION);
    t.equal((await remove(s, email, own)).status, 200, `${email} on their own message`);
  }
});

t.test('the realm\'s delete groups decide who deletes what; below level 407 channels have no say', async (t) => {
  const s = testServer();
  setRealm(s, 'can_delete_any_message_group', 'role:moderators');
  t.equal((await remove(s, SHIVA, await send(s, CORDELIA))).status, 200, 'moderators may delete any message');
  setRealm(s, 'can_delete_own_message_group', 'role:administrators');
  const dm = (await s.as(OTHELLO).post('/messages', { type: 'direct', to: [s.id(CORDELIA)], content: 'x' })).body.id as number;
  t.same(errorOf(await remove(s, OTHELLO, dm)), NO_PERMISSION, 'own direct message without the realm permission');
  // A channel's own-message group defaults to role:nobody (Stream.stream_permission_group_settings).
  t.same(errorOf(await remove(s, OTHELLO, await send(s, OTHELLO))), NO_PERMISSION, 'neither realm nor channel (nobody by default) allows it');
  setChannel(s, 'Verona', 'can_delete_own_message_group', 'role:everyone');
  t.equal((await remove(s, OTHELLO, await send(s, OTHELLO))).status, 200, 'the channel\'s own-message group, widened to everyone, allows it');
  const old = testServer({ featureLevel: 406 });
  setRealm(old, 'can_delete_own_message_group', 'role:administrators');
  t.same(errorOf(await remove(old, OTHELLO, await send(old, OTHELLO))), NO_PERMISSION, 'at 406 the channel group does not count');
});

t.test('a channel\'s can_delete_any_message_group lets its members delete others\' messages there, from level 407', async (t) => {
  for (const [level, allowed] of [[415, true], [407, true], [406, false]] as const) {
    const s = testServer({ featureLevel: level });
    setChannel(s, 'Verona', 'can_delete_any_message_group', 'role:members');
    t.equal((await remove(s, OTHELLO, await send(s, CORDELIA))).status === 200, allowed, `Verona at ${level}`);
    t.same(errorOf(await remove(s, OTHELLO, await send(s, CORDELIA, 'Denmark'))), NO_PERMISSION, `another channel at ${level}`);
  }
});

t.test('the owner of a bot may delete its messages', async (t) => {
  const s = testServer();
  const bot = s.world.users.get(16);
  if (!bot) throw new Error('no bot');
  bot.botOwnerId = s.id(HAMLET);
  const client = s.as(bot.deliveryEmail);
  const id = (await client.post('/messages', { type: 'stream', to: 'Verona', topic: 'bots', content: 'beep' })).body.id as number;
  t.same(errorOf(await remove(s, OTHELLO, id)), NO_PERMISSION);
  t.equal((await remove(s, HAMLET, id)).status, 200);
});

t.test('message_content_delete_limit_seconds limits deleting one\'s own messages, not deleting any message', async (t) => {
  const s = testServer();
  t.equal((await s.as(IAGO).patch('/realm', { message_content_delete_limit_seconds: 600 })).status, 200, 'set through PATCH /realm');
  const a = await send(s, HAMLET);
  const b = await send(s, HAMLET);
  s.clock.advance(600_000);
  t.equal((await remove(s, HAMLET, a)).status, 200, 'exactly at the limit');
  s.clock.advance(1_000);
  t.same(errorOf(await remove(s, HAMLET, b)), bad('The time limit for deleting this message has passed'));
  t.equal((await remove(s, IAGO, b)).status, 200, 'administrators have no limit');
  const registered = await s.as(HAMLET).post('/register', { fetch_event_types: ['realm'] });
  t.equal(registered.body.realm_message_content_delete_limit_seconds, 600);
});

t.test('unreadable, unknown and archived-channel messages are Invalid message(s), before any permission check', async (t) => {
  const s = testServer();
  const secret = await send(s, IAGO, 'core team');
  t.same(errorOf(await remove(s, OTHELLO, secret)), bad('Invalid message(s)'));
  t.same(errorOf(await remove(s, OTHELLO, 999_999)), bad('Invalid message(s)'));
  const id = await send(s, HAMLET);
  const verona = s.world.streams.get(s.streamId('Verona'));
  if (verona) verona.isArchived = true;
  t.same(errorOf(await remove(s, IAGO, id)), bad('Invalid message(s)'));
  t.ok(s.world.messages.has(id));
});

t.test('direct-message deletions reach the participants; sender_id and recipient_id only before level 77', async (t) => {
  for (const level of [415, 77, 76]) {
    const s = testServer({ featureLevel: level });
    const id = (await s.as(HAMLET).post('/messages', { type: 'private', to: [s.id(CORDELIA)], content: 'x' })).body.id as number;
    const recorded = recordEvents(s);
    await remove(s, HAMLET, id);
    const events = ofType(recorded, 'delete_message');
    const expected: Record<string, unknown> = { type: 'delete_message', message_ids: [id], message_type: 'private' };
    const event = events[0]?.event ?? {};
    if (level < 77) t.match(event, { ...expected, sender_id: s.id(HAMLET), recipient_id: Number }, `level ${level}`);
    else t.same(event, expected, `level ${level}`);
    t.same(events[0]?.userIds, sortedIds([s.id(HAMLET), s.id(CORDELIA)]));
  }
});

t.test('from level 274 the user who deleted gets the event even without being subscribed', async (t) => {
  for (const [level, told] of [[415, true], [274, true], [273, false]] as const) {
    const s = testServer({ featureLevel: level });
    const id = await send(s, OTHELLO, 'Scotland');
    const events = recordEvents(s);
    await remove(s, DESDEMONA, id);
    t.equal(events[0]?.userIds.includes(s.id(DESDEMONA)), told, `level ${level}`);
  }
});

t.test('deleting a channel\'s first message moves first_message_id, announced from level 256', async (t) => {
  for (const [level, announced] of [[415, true], [256, true], [255, false]] as const) {
    const s = testServer({ featureLevel: level });
    const first = await send(s, HAMLET, 'Zulip');
    const second = await send(s, HAMLET, 'Zulip');
    const stream = s.world.streams.get(s.streamId('Zulip'));
    if (stream) stream.firstMessageId = first;
    const events = recordEvents(s);
    await remove(s, HAMLET, first);
    t.equal(stream?.firstMessageId, second);
    const update = events.find((e) => e.event.type === 'stream');
    t.equal(update !== undefined, announced, `level ${level}`);
    if (update) t.same(update.event, { type: 'stream', op: 'update', property: 'first_message_id', value: second, stream_id: s.streamId('Zulip'), name: 'Zulip' });
  }
});

t.test('an upload linked only by the deleted message is deleted with it', async (t) => {
  const s = testServer();
  const hamlet = s.world.users.get(s.id(HAMLET));
  if (!hamlet) throw new Error('no hamlet');
  const { url } = uploadAttachment(s.world, hamlet, { name: 'notes.txt', contentType: 'text/plain', bytes: new Uint8Array([1, 2, 3]) });
  const reply = await s.as(HAMLET).post('/messages', { type: 'stream', to: 'Verona', topic: 'files', content: `[notes](${url})` });
  t.equal(s.world.attachments.size, 1);
  const events = recordEvents(s);
  await remove(s, HAMLET, reply.body.id as number);
  t.equal(s.world.attachments.size, 0);
  t.same(ofType(events, 'attachment').map((e) => [e.event.op, e.userIds]), [['remove', [s.id(HAMLET)]]]);
});
