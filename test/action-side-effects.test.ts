/**
 * What actions change besides their main object, after the real server's actions
 * (zerver/actions/streams.py `do_deactivate_stream` removing default channels;
 * zerver/actions/message_edit.py resolve notices and `resolved_topic_notice_auto_read_policy`,
 * zerver/tests/test_message_move_topic.py `test_resolved_topic_notice_auto_read_policy`).
 */
import t from 'tap';
import { VISIBILITY_POLICY } from '../lib/entities/personal.js';
import { ofType, recordEvents } from './support/events.js';
import { testServer, type TestServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const OTHELLO = 'othello@zulip.com';

t.test('archiving a default channel removes it from the default channels, with a default_streams event', async (t) => {
  const s = testServer();
  const verona = s.streamId('Verona');
  t.ok(s.world.defaultStreamIds.has(verona), 'fixture check: Verona is a default channel');
  const seen = recordEvents(s);
  t.equal((await s.as(IAGO).delete(`/streams/${verona}`)).status, 200);
  t.notOk(s.world.defaultStreamIds.has(verona));
  t.equal(ofType(seen, 'default_streams').length, 1);
  const listed = (await s.as(IAGO).get('/streams', { include_default: true })).body.streams as Array<{ stream_id: number; is_default?: boolean }>;
  t.notOk(listed.some((c) => c.stream_id === verona && c.is_default === true));
});

async function resolveNoticeFlags(s: TestServer, policy: string, follow: boolean): Promise<boolean> {
  const id = (await s.as(IAGO).post('/messages', { type: 'stream', to: 'Verona', topic: `to resolve ${policy} ${follow}`, content: 'x' })).body.id as number;
  await s.as(OTHELLO).patch('/settings', { resolved_topic_notice_auto_read_policy: policy });
  if (follow) await s.as(OTHELLO).post('/user_topics', { stream_id: s.streamId('Verona'), topic: `to resolve ${policy} ${follow}`, visibility_policy: VISIBILITY_POLICY.FOLLOWED });
  t.equal((await s.as(IAGO).patch(`/messages/${id}`, { topic: `✔ to resolve ${policy} ${follow}`, propagate_mode: 'change_all' })).status, 200);
  const notice = Math.max(...s.world.messages.keys());
  return s.world.messages.get(notice)?.flags.get(s.id(OTHELLO))?.has('read') === true;
}

t.test('the resolve notice arrives read per resolved_topic_notice_auto_read_policy; a followed topic stays followed after resolving', async (t) => {
  const s = testServer();
  t.equal(await resolveNoticeFlags(s, 'always', true), true, 'always');
  t.equal(await resolveNoticeFlags(s, 'never', false), false, 'never');
  t.equal(await resolveNoticeFlags(s, 'except_followed', false), true, 'except_followed, not following');
  t.equal(await resolveNoticeFlags(s, 'except_followed', true), false, 'except_followed, following (the policy moved with the topic)');
  const followed = s.world.userTopics.get(s.id(OTHELLO));
  t.ok([...(followed?.values() ?? [])].some((row) => row.topicName.startsWith('✔') && row.visibilityPolicy === VISIBILITY_POLICY.FOLLOWED));
  t.notOk([...(followed?.values() ?? [])].some((row) => row.topicName === 'to resolve except_followed true'), 'the unresolved topic has no row left');
});

t.test('undoing a resolve within the grace period deletes the resolve notice instead of posting an unresolve notice (test_mark_topic_as_resolved_within_grace_period)', async (t) => {
  const s = testServer();
  const id = (await s.as(IAGO).post('/messages', { type: 'stream', to: 'Verona', topic: 'undo me', content: 'x' })).body.id as number;
  const notices = () => [...s.world.messages.values()].filter((m) => m.recipient.kind === 'stream' && m.recipient.topic.endsWith('undo me') && m.id !== id).map((m) => m.content);
  await s.as(IAGO).patch(`/messages/${id}`, { topic: '✔ undo me', propagate_mode: 'change_all' });
  t.same(notices(), [`@_**Iago|${s.id(IAGO)}** has marked this topic as resolved.`]);
  const seen = recordEvents(s);
  s.clock.advance(59_000);
  await s.as(IAGO).patch(`/messages/${id}`, { topic: 'undo me', propagate_mode: 'change_all' });
  t.same(notices(), [], 'the resolve notice is gone and no unresolve notice was posted');
  t.equal(ofType(seen, 'delete_message').length, 1);
  await s.as(IAGO).patch(`/messages/${id}`, { topic: '✔ undo me', propagate_mode: 'change_all' });
  s.clock.advance(61_000);
  await s.as(IAGO).patch(`/messages/${id}`, { topic: 'undo me', propagate_mode: 'change_all' });
  t.same(notices(), [`@_**Iago|${s.id(IAGO)}** has marked this topic as resolved.`, `@_**Iago|${s.id(IAGO)}** has marked this topic as unresolved.`], 'after the grace period both notices stay');
});
