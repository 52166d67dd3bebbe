import t from 'tap';
import type { Message } from '../lib/entities/message.js';
import { recordEvents } from './support/events.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const IAGO = 'iago@zulip.com';

async function send(s: TestServer, params: Record<string, unknown> = {}, as = HAMLET): Promise<number> {
  const reply = await s.as(as).post('/messages', { type: 'stream', to: 'Verona', topic: 'test', content: 'hello', ...params });
  if (reply.status !== 200) throw new Error(`send failed: ${reply.text}`);
  return reply.body.id as number;
}

function message(s: TestServer, id: number): Message {
  const found = s.world.messages.get(id);
  if (!found) throw new Error(`no message ${id}`);
  return found;
}

const topicOf = (m: Message): string => (m.recipient.kind === 'stream' ? m.recipient.topic : '');

t.test('the sender edits content; history and last_edit_timestamp record it', async (t) => {
  const s = testServer();
  const id = await send(s, { content: 'first' });
  s.clock.advance(5000);
  const reply = await s.as(HAMLET).patch(`/messages/${id}`, { content: 'second' });
  t.same(reply.body, { result: 'success', msg: '', detached_uploads: [] });
  const m = message(s, id);
  t.equal(m.content, 'second');
  t.equal(m.renderedContent, '<p>second</p>');
  t.same(m.editHistory, [{ userId: 10, timestamp: s.clock.now(), prevContent: 'first', prevRenderedContent: '<p>first</p>' }]);
  const fetched = (await s.as(HAMLET).get(`/messages/${id}`)).body.message;
  t.equal(fetched.last_edit_timestamp, Math.floor(s.clock.now() / 1000));
  t.notOk('last_moved_timestamp' in fetched);
  t.same(fetched.edit_history, [
    { user_id: 10, timestamp: Math.floor(s.clock.now() / 1000), prev_content: 'first', prev_rendered_content: '<p>first</p>' },
  ]);
});

t.test('blank new content becomes "(deleted)"', async (t) => {
  const s = testServer();
  const id = await send(s);
  await s.as(HAMLET).patch(`/messages/${id}`, { content: '  \n ' });
  t.equal(message(s, id).content, '(deleted)');
});

t.test('content edits need message editing on, the sender, and the time limit plus 20 seconds', async (t) => {
  const s = testServer();
  const id = await send(s, { content: 'original' });
  t.same(errorOf(await s.as(IAGO).patch(`/messages/${id}`, { content: 'x' })), bad("You don't have permission to edit this message"));
  s.world.realm.allowMessageEditing = false;
  t.same(errorOf(await s.as(HAMLET).patch(`/messages/${id}`, { content: 'x' })), bad('Your organization has turned off message editing'));
  s.world.realm.allowMessageEditing = true;
  s.clock.advance(620_000);
  t.equal((await s.as(HAMLET).patch(`/messages/${id}`, { content: 'at the limit' })).status, 200);
  s.clock.advance(1000);
  t.same(errorOf(await s.as(HAMLET).patch(`/messages/${id}`, { content: 'late' })), bad('The time limit for editing this message has passed'));
  t.equal(message(s, id).content, 'at the limit');
  t.equal((await s.as(HAMLET).patch(`/messages/${id}`, { topic: 'still movable' })).status, 200, 'topic edits ignore the content limit');
  s.world.realm.messageContentEditLimitSeconds = null;
  t.equal((await s.as(HAMLET).patch(`/messages/${id}`, { content: 'no limit' })).status, 200);
});

t.test('request shape errors come with the real texts and change nothing', async (t) => {
  const s = testServer();
  const id = await send(s, { content: 'x' });
  const dm = (await s.as(HAMLET).post('/messages', { type: 'direct', to: [12], content: 'dm' })).body.id as number;
  const cases: Array<[number, Record<string, unknown>, string]> = [
    [id, {}, 'Nothing to change'],
    [id, { topic: 'test' }, 'Nothing to change'],
    [dm, { stream_id: 4 }, 'Direct messages cannot be moved to channels.'],
    [dm, { topic: 'x' }, 'Direct messages cannot have topics.'],
    [id, { content: 'y', propagate_mode: 'change_all' }, 'Invalid propagate_mode without topic edit'],
    [id, { topic: '✔' }, 'General chat cannot be marked as resolved'],
    [id, { topic: '✔ general chat' }, 'General chat cannot be marked as resolved'],
    [id, { topic: 'bad\u0007' }, 'Invalid character in topic, at position 4!'],
    [id, { content: 'y', stream_id: 4 }, 'Cannot change message content while changing channel'],
    [id, { topic: 'x', propagate_mode: 'change_some' }, 'Invalid propagate_mode'],
    [999, { content: 'y' }, 'Invalid message(s)'],
  ];
  const events = recordEvents(s);
  for (const [target, params, msg] of cases) {
    t.same(errorOf(await s.as(HAMLET).patch(`/messages/${target}`, params)), bad(msg), msg);
  }
  t.equal(message(s, id).editHistory.length, 0);
  t.equal(events.length, 0);
  const poll = await send(s, { content: '/poll Lunch?' });
  t.same(errorOf(await s.as(HAMLET).patch(`/messages/${poll}`, { content: '/poll Dinner?' })), bad('Widgets cannot be edited.'));
});

t.test('messages in archived channels cannot be edited', async (t) => {
  const s = testServer();
  const id = await send(s);
  const verona = s.world.streams.get(s.streamId('Verona'));
  if (verona) verona.isArchived = true;
  t.same(errorOf(await s.as(HAMLET).patch(`/messages/${id}`, { content: 'y' })), bad('Invalid message(s)'));
});

t.test('a content edit sends update_message with the old and new content to every row holder', async (t) => {
  const s = testServer();
  const id = await send(s, { content: 'old' });
  const events = recordEvents(s);
  await s.as(HAMLET).patch(`/messages/${id}`, { content: 'new @**Iago**' });
  const updates = events.filter((e) => e.event.type === 'update_message');
  const receivers = updates.flatMap((e) => e.userIds).sort((a, b) => a - b);
  t.same(receivers, [6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
  const forIago = updates.find((e) => e.userIds.includes(11))?.event;
  t.same(forIago, {
    type: 'update_message',
    user_id: 10,
    edit_timestamp: Math.floor(s.clock.now() / 1000),
    message_id: id,
    rendering_only: false,
    orig_content: 'old',
    orig_rendered_content: '<p>old</p>',
    content: 'new @**Iago**',
    rendered_content: '<p>new <span class="user-mention" data-user-id="11">@Iago</span></p>',
    is_me_message: false,
    stream_name: 'Verona',
    stream_id: s.streamId('Verona'),
    message_ids: [id],
    flags: ['mentioned'],
  });
  t.ok(message(s, id).flags.get(11)?.has('mentioned'), 'the new mention is flagged');
});

t.test('a topic edit moves one, later or all messages of the topic and records topic history', async (t) => {
  const s = testServer();
  const first = await send(s, { content: 'one' });
  const second = await send(s, { content: 'two' });
  const third = await send(s, { content: 'three' });
  await s.as(HAMLET).patch(`/messages/${second}`, { topic: 'later', propagate_mode: 'change_later', send_notification_to_new_thread: false });
  t.same([first, second, third].map((id) => topicOf(message(s, id))), ['test', 'later', 'later']);
  t.same(message(s, third).editHistory, [{ userId: 10, timestamp: s.clock.now(), prevTopic: 'test', topic: 'later' }]);
  await s.as(HAMLET).patch(`/messages/${first}`, { topic: 'Later', propagate_mode: 'change_one', send_notification_to_new_thread: false });
  await s.as(HAMLET).patch(`/messages/${first}`, { topic: 'all', propagate_mode: 'change_all', send_notification_to_new_thread: false });
  t.same([first, second, third].map((id) => topicOf(message(s, id))), ['all', 'all', 'all'], 'topics match case-insensitively');
  const fetched = (await s.as(HAMLET).get(`/messages/${first}`)).body.message;
  t.equal(fetched.last_moved_timestamp, Math.floor(s.clock.now() / 1000));
  t.notOk('last_edit_timestamp' in fetched, 'moves are not content edits');
});

t.test('"general chat" as a new topic means the empty topic', async (t) => {
  const s = testServer();
  const id = await send(s);
  await s.as(HAMLET).patch(`/messages/${id}`, { topic: 'general chat', send_notification_to_new_thread: false });
  t.equal(topicOf(message(s, id)), '');
});

t.test('moving a topic posts Notification Bot breadcrumbs as asked', async (t) => {
  const s = testServer();
  const id = await send(s);
  const before = s.world.messages.size;
  await s.as(HAMLET).patch(`/messages/${id}`, { topic: 'moved', send_notification_to_old_thread: true });
  const notices = [...s.world.messages.values()].slice(before);
  t.same(
    notices.map((m) => [m.senderId, topicOf(m), m.content]),
    [
      [4, 'moved', 'This topic was moved here from #**Verona>test** by @_**King Hamlet|10**.'],
      [4, 'test', 'This topic was moved to #**Verona>moved** by @_**King Hamlet|10**.'],
    ],
  );
  t.ok(notices[0]?.flags.get(10)?.has('read'), 'the mover has read the notice');
  t.notOk(notices[0]?.flags.get(12)?.has('read'));
});

t.test('resolving a topic needs the resolve permission and posts a resolve notice', async (t) => {
  const s = testServer();
  const id = await send(s);
  const nobody = { kind: 'group' as const, groupId: s.world.systemGroupId('role:nobody') };
  s.world.realm.settings.set('can_resolve_topics_group', nobody);
  const resolve = { topic: '✔ test', propagate_mode: 'change_all' };
  t.same(errorOf(await s.as(HAMLET).patch(`/messages/${id}`, resolve)), bad("You don't have permission to resolve topics in this channel."));
  s.world.realm.settings.set('can_resolve_topics_group', { kind: 'group', groupId: s.world.systemGroupId('role:everyone') });
  const before = s.world.messages.size;
  t.equal((await s.as(HAMLET).patch(`/messages/${id}`, resolve)).status, 200);
  t.equal(topicOf(message(s, id)), '✔ test');
  const notice = [...s.world.messages.values()].slice(before);
  t.same(notice.map((m) => m.content), ['@_**King Hamlet|10** has marked this topic as resolved.']);
  t.notOk('last_moved_timestamp' in (await s.as(HAMLET).get(`/messages/${id}`)).body.message, 'resolving is not a move');
});

t.test('topic moves need the topic permission and respect the 7-day limit for non-moderators', async (t) => {
  const s = testServer();
  const id = await send(s);
  s.world.realm.settings.set('can_move_messages_between_topics_group', { kind: 'group', groupId: s.world.systemGroupId('role:moderators') });
  t.same(errorOf(await s.as(HAMLET).patch(`/messages/${id}`, { topic: 'x' })), bad("You don't have permission to edit this message"));
  s.world.realm.settings.set('can_move_messages_between_topics_group', { kind: 'group', groupId: s.world.systemGroupId('role:everyone') });
  s.clock.advance((7 * 86400 + 21) * 1000);
  t.same(errorOf(await s.as(HAMLET).patch(`/messages/${id}`, { topic: 'x' })), bad("The time limit for editing this message's topic has passed."));
  t.equal((await s.as('shiva@zulip.com').patch(`/messages/${id}`, { topic: 'x' })).status, 200, 'moderators have no limit');
});

t.test('moving to another channel needs the move permission and posting rights there', async (t) => {
  const s = testServer();
  const id = await send(s);
  const denmark = s.streamId('Denmark');
  t.same(errorOf(await s.as('polonius@zulip.com').patch(`/messages/${id}`, { stream_id: denmark })), bad('Invalid channel ID'));
  t.same(errorOf(await s.as(HAMLET).patch(`/messages/${id}`, { stream_id: s.streamId('announce') })), bad('You do not have permission to post in this channel.'));
  s.world.realm.settings.set('can_move_messages_between_channels_group', { kind: 'group', groupId: s.world.systemGroupId('role:administrators') });
  t.same(errorOf(await s.as(HAMLET).patch(`/messages/${id}`, { stream_id: denmark })), bad("You don't have permission to move this message"));
  const events = recordEvents(s);
  t.equal((await s.as(IAGO).patch(`/messages/${id}`, { stream_id: denmark, send_notification_to_new_thread: false })).status, 200);
  const m = message(s, id);
  t.same(m.recipient, { kind: 'stream', streamId: denmark, topic: 'test' });
  t.same(m.editHistory[0], { userId: 11, timestamp: s.clock.now(), prevStream: s.streamId('Verona'), stream: denmark });
  const update = events.find((e) => e.event.type === 'update_message')?.event;
  t.equal(update?.new_stream_id, denmark);
  t.equal(update?.orig_subject, 'test');
  t.equal(update?.propagate_mode, 'change_one');
  t.notOk(m.flags.has(8), 'Verona-only subscribers lose their rows');
});

t.test('moving into a private channel sends delete_message to users who lose access', async (t) => {
  const s = testServer();
  const id = await send(s);
  const events = recordEvents(s);
  await s.as(IAGO).patch(`/messages/${id}`, { stream_id: s.streamId('core team'), send_notification_to_new_thread: false });
  const deletion = events.find((e) => e.event.type === 'delete_message');
  t.same(deletion?.event, { type: 'delete_message', message_ids: [id], message_type: 'stream', stream_id: s.streamId('Verona'), topic: 'test' });
  t.same([...(deletion?.userIds ?? [])].sort((a, b) => a - b), [6, 7, 8, 12, 13, 14, 15]);
  t.same(errorOf(await s.as('othello@zulip.com').get(`/messages/${id}`)), bad('Invalid message(s)'));
});

t.test('change_all refuses with MOVE_MESSAGES_TIME_LIMIT_EXCEEDED when older messages are past the limit', async (t) => {
  const s = testServer();
  const old = await send(s, { content: 'old' });
  s.clock.advance((7 * 86400 + 60) * 1000);
  const recent = await send(s, { content: 'recent' });
  const reply = await s.as(HAMLET).patch(`/messages/${recent}`, { topic: 'x', propagate_mode: 'change_all' });
  t.same(reply.body, {
    result: 'error',
    msg: 'You only have permission to move the 1/2 most recent messages in this topic.',
    first_message_id_allowed_to_move: recent,
    total_messages_in_topic: 2,
    total_messages_allowed_to_move: 1,
    code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
  });
  t.equal(topicOf(message(s, old)), 'test');
});

t.test('the channel topics policy applies to the new topic', async (t) => {
  const s = testServer();
  const id = await send(s);
  s.world.realm.topicsPolicy = 'disable_empty_topic';
  t.same(errorOf(await s.as(HAMLET).patch(`/messages/${id}`, { topic: '' })), bad('Sending messages to the general chat is not allowed in this channel.'));
  t.equal(topicOf(message(s, id)), 'test');
});

t.test('before level 152 the notice flags apply to channel moves only, and the old-thread notice is on by default', async (t) => {
  const s = testServer({ featureLevel: 151 });
  const id = await send(s);
  const before = s.world.messages.size;
  await s.as(IAGO).patch(`/messages/${id}`, { topic: 'moved', send_notification_to_old_thread: true });
  t.equal(s.world.messages.size, before, 'a topic-only move posts no notice');
  await s.as(IAGO).patch(`/messages/${id}`, { stream_id: s.streamId('Denmark') });
  t.same([...s.world.messages.values()].slice(before).map(topicOf), ['moved', 'moved'], 'a channel move posts both notices');
});

t.test('before level 365 last_edit_timestamp also counts moves and there is no last_moved_timestamp', async (t) => {
  const s = testServer({ featureLevel: 364 });
  const id = await send(s);
  s.clock.advance(3000);
  await s.as(HAMLET).patch(`/messages/${id}`, { topic: 'moved', send_notification_to_new_thread: false });
  const fetched = (await s.as(HAMLET).get(`/messages/${id}`)).body.message;
  t.equal(fetched.last_edit_timestamp, Math.floor(s.clock.now() / 1000));
  t.notOk('last_moved_timestamp' in fetched);
});
