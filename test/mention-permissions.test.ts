/**
 * Mention permissions on send and edit, after the real server's `check_message` and
 * `check_update_message` (zerver/tests/test_message_send.py `test_user_group_mention_restrictions`,
 * `test_stream_wildcard_mention_restrictions`, `test_topic_wildcard_mention_restrictions`;
 * zerver/tests/test_message_edit.py `test_user_group_mention_restrictions_while_editing`,
 * `test_stream_wildcard_mention_restrictions_when_editing`).
 */
import t from 'tap';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const CORDELIA = 'cordelia@zulip.com';
const SHIVA = 'shiva@zulip.com';
const IAGO = 'iago@zulip.com';

const send = (s: TestServer, as: string, content: string, to = 'Verona', topic = 'mentions') => s.as(as).post('/messages', { type: 'stream', to, topic, content });

async function groupWithMentionSetting(s: TestServer, setting: unknown): Promise<number> {
  const created = await s.as(IAGO).post('/user_groups/create', { name: 'leadership', description: 'Leaders', members: [s.id('othello@zulip.com')] });
  t.equal(created.status, 200, created.text);
  const id = created.body.group_id as number;
  const patched = await s.as(IAGO).patch(`/user_groups/${id}`, { can_mention_group: { new: setting } });
  t.equal(patched.status, 200, patched.text);
  return id;
}

t.test('a group mention needs the group’s can_mention_group; silent mentions and role:everyone always pass', async (t) => {
  const s = testServer();
  await groupWithMentionSetting(s, s.world.systemGroupId('role:moderators'));
  const refused = bad("You are not allowed to mention user group 'leadership'.");
  t.same(errorOf(await send(s, CORDELIA, 'Hello @*leadership*')), refused, 'a member below moderator is refused');
  t.equal((await send(s, CORDELIA, 'Hello @_*leadership*')).status, 200, 'a silent mention is not checked');
  t.equal((await send(s, SHIVA, 'Hello @*leadership*')).status, 200, 'a moderator may mention');
  t.equal((await send(s, IAGO, 'Hello @*leadership*')).status, 200, 'an administrator is a moderator too');
  const group = [...s.world.groups.values()].find((g) => g.name === 'leadership');
  group?.settings.set('can_mention_group', { kind: 'group', groupId: s.world.systemGroupId('role:everyone') });
  t.equal((await send(s, CORDELIA, 'Hello @*leadership*')).status, 200);
});

t.test('editing content into a group mention checks the editor against can_mention_group', async (t) => {
  const s = testServer();
  await groupWithMentionSetting(s, s.world.systemGroupId('role:moderators'));
  const id = (await send(s, CORDELIA, 'Test message')).body.id as number;
  t.same(errorOf(await s.as(CORDELIA).patch(`/messages/${id}`, { content: 'Edited @*leadership*' })), bad("You are not allowed to mention user group 'leadership'."));
  t.equal(s.world.messages.get(id)?.content, 'Test message', 'a refused edit changes nothing');
  t.equal((await s.as(CORDELIA).patch(`/messages/${id}`, { content: 'Edited @_*leadership*' })).status, 200);
});

/** Six more members subscribed to Verona, which then has 16 subscribers: over the threshold of 15. */
async function crowdVerona(s: TestServer): Promise<void> {
  for (let i = 0; i < 6; i += 1) {
    const created = await s.as(IAGO).post('/users', { email: `crowd${i}@zulip.com`, password: 'secret-password', full_name: `Crowd ${i}` });
    t.equal(created.status, 200, created.text);
    const subscribed = await s.as(IAGO).post('/users/me/subscriptions', { subscriptions: [{ name: 'Verona' }], principals: [created.body.user_id] });
    t.equal(subscribed.status, 200, subscribed.text);
  }
}

t.test('a channel wildcard in a channel of more than 15 subscribers needs can_mention_many_users_group', async (t) => {
  const s = testServer();
  t.equal((await send(s, HAMLET, '@**all** small channel')).status, 200, 'at 10 subscribers anyone may');
  await crowdVerona(s);
  const refused = { status: 400, code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED', msg: 'You do not have permission to use channel wildcard mentions in this channel.' };
  t.same(errorOf(await send(s, HAMLET, '@**all** big channel')), refused);
  t.equal((await send(s, HAMLET, '@_**all** silent')).status, 200, 'a silent wildcard is not checked');
  t.equal((await send(s, IAGO, '@**everyone** big channel')).status, 200, 'administrators hold the default setting');
  const id = (await send(s, HAMLET, 'plain')).body.id as number;
  t.same(errorOf(await s.as(HAMLET).patch(`/messages/${id}`, { content: '@**channel** edited in' })), refused, 'editing a wildcard in is checked too');
});

t.test('below level 229 a refused channel wildcard answers BAD_REQUEST', async (t) => {
  const s = testServer({ featureLevel: 228 });
  await crowdVerona(s);
  t.same(errorOf(await send(s, HAMLET, '@**all** big channel')), bad('You do not have permission to use channel wildcard mentions in this channel.'));
});
