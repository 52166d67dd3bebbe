/**
 * Channel settings that the realm's policy settings govern, after the real server's
 * `validate_topics_policy` (zerver/lib/streams.py) and the delete-policy check of
 * `update_stream_backend` / `list_to_streams` (zerver/tests/test_channel_permissions.py
 * `test_can_set_delete_message_policy_group`, zerver/tests/test_subs.py topics policy tests).
 */
import t from 'tap';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const DESDEMONA = 'desdemona@zulip.com';
const SHIVA = 'shiva@zulip.com';

const setRealmGroup = async (s: TestServer, name: string, group: Parameters<TestServer['world']['systemGroupId']>[0]) =>
  t.equal((await s.as(DESDEMONA).patch('/realm', { [name]: { new: s.world.systemGroupId(group) } })).status, 200);

t.test('going back to topics_policy inherit needs no permission; other values need can_set_topics_policy_group', async (t) => {
  const s = testServer();
  const denmark = s.streamId('Denmark');
  await setRealmGroup(s, 'can_set_topics_policy_group', 'role:nobody');
  const shivaAdministers = await s.as(IAGO).patch(`/streams/${denmark}`, { can_administer_channel_group: { new: { direct_members: [s.id(SHIVA)], direct_subgroups: [] } } });
  t.equal(shivaAdministers.status, 200, shivaAdministers.text);
  s.world.streams.get(denmark)!.topicsPolicy = 'disable_empty_topic';
  t.same(errorOf(await s.as(SHIVA).patch(`/streams/${denmark}`, { topics_policy: 'allow_empty_topic' })), bad('Insufficient permission'));
  t.equal((await s.as(SHIVA).patch(`/streams/${denmark}`, { topics_policy: 'inherit' })).status, 200);
  t.equal(s.world.streams.get(denmark)?.topicsPolicy, 'inherit');
});

t.test('empty_topic_only is refused for a channel that has named topics', async (t) => {
  const s = testServer();
  const refused = await s.as(IAGO).patch(`/streams/${s.streamId('Denmark')}`, { topics_policy: 'empty_topic_only' });
  t.equal(refused.status, 400);
  t.match(refused.body.msg, /general chat/);
  t.equal(s.world.streamByName('Denmark')?.topicsPolicy, 'inherit');
  t.equal((await s.as(IAGO).post('/users/me/subscriptions', { subscriptions: [{ name: 'quiet' }] })).status, 200);
  const quiet = s.streamId('quiet');
  for (const m of [...s.world.messages.values()]) if (m.recipient.kind === 'stream' && m.recipient.streamId === quiet) s.world.messages.delete(m.id);
  t.equal((await s.as(IAGO).patch(`/streams/${quiet}`, { topics_policy: 'empty_topic_only' })).status, 200, 'a channel without named topics may');
});

t.test('channel delete permissions follow the realm’s can_set_delete_message_policy_group, not a fixed role', async (t) => {
  const s = testServer();
  const admins = s.world.systemGroupId('role:administrators');
  const create = (email: string, name: string) => s.as(email).post('/users/me/subscriptions', { subscriptions: [{ name }], can_delete_any_message_group: admins });
  t.equal((await create(SHIVA, 'by a moderator')).status, 200, 'moderators hold the default setting');
  await setRealmGroup(s, 'can_set_delete_message_policy_group', 'role:administrators');
  t.same(errorOf(await create(SHIVA, 'refused')), bad('Insufficient permission'), 'a moderator outside the setting is refused');
  t.equal((await create(IAGO, 'by an administrator')).status, 200);
  await setRealmGroup(s, 'can_set_delete_message_policy_group', 'role:members');
  t.equal((await create('hamlet@zulip.com', 'by a member')).status, 200, 'members, once the setting includes them');
  const denmark = s.streamId('Denmark');
  t.same(errorOf(await s.as('polonius@zulip.com').patch(`/streams/${denmark}`, { can_delete_own_message_group: { new: admins } })).code, 'BAD_REQUEST');
});
