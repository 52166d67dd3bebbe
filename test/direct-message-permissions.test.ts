/**
 * The realm's direct-message settings at send time, after the real server's
 * `check_can_send_direct_message` (zerver/actions/message_send.py; zerver/tests/test_message_dm.py
 * `test_direct_message_permission_group_setting`, `test_direct_message_initiator_group_setting`).
 */
import t from 'tap';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const OTHELLO = 'othello@zulip.com';
const IAGO = 'iago@zulip.com';
const DESDEMONA = 'desdemona@zulip.com';

const dm = (s: TestServer, from: string, to: readonly string[], content = 'hi') => s.as(from).post('/messages', { type: 'direct', to: to.map((email) => s.id(email)), content });

async function setRealmGroup(s: TestServer, name: string, group: string): Promise<void> {
  const reply = await s.as(DESDEMONA).patch('/realm', { [name]: { new: s.world.systemGroupId(group as never) } });
  t.equal(reply.status, 200, reply.text);
}

t.test('direct_message_permission_group: a conversation needs one participant in the group', async (t) => {
  const s = testServer();
  await setRealmGroup(s, 'direct_message_permission_group', 'role:administrators');
  t.same(errorOf(await dm(s, HAMLET, [OTHELLO])), bad('This conversation does not include any users who can authorize it.'));
  t.equal((await dm(s, HAMLET, [IAGO])).status, 200, 'an administrator recipient authorizes it');
  t.equal((await dm(s, HAMLET, [OTHELLO, IAGO])).status, 200, 'one administrator in a group conversation is enough');
  t.equal((await dm(s, HAMLET, [HAMLET])).status, 200, 'messages to oneself are exempt');
  const bot = [...s.world.users.values()].find((u) => u.isBot && !u.isSystemBot && u.isActive);
  if (bot) t.equal((await s.as(HAMLET).post('/messages', { type: 'direct', to: [bot.id], content: 'hi bot' })).status, 200, 'messages only to bots are exempt');
});

t.test('direct_message_permission_group role:nobody disables direct messages', async (t) => {
  const s = testServer();
  await setRealmGroup(s, 'direct_message_permission_group', 'role:nobody');
  t.same(errorOf(await dm(s, IAGO, [OTHELLO])), bad('Direct messages are disabled in this organization.'));
});

t.test('direct_message_initiator_group: outside it, only existing conversations may get messages', async (t) => {
  const s = testServer();
  await setRealmGroup(s, 'direct_message_initiator_group', 'role:administrators');
  const pair = [OTHELLO];
  const existing = [...s.world.messages.values()].some(
    (m) => m.recipient.kind === 'direct' && m.recipient.userIds.length === 2 && m.recipient.userIds.includes(s.id(HAMLET)) && m.recipient.userIds.includes(s.id(OTHELLO)),
  );
  t.notOk(existing, 'the fixture has no hamlet–othello conversation');
  t.same(errorOf(await dm(s, HAMLET, pair)), bad('You are not allowed to start direct message conversations.'));
  t.equal((await dm(s, OTHELLO, [HAMLET], 'started by othello')).status, 400, 'othello is outside the group too');
  t.equal((await dm(s, IAGO, [HAMLET, OTHELLO], 'group started by an administrator')).status, 200);
  t.equal((await dm(s, HAMLET, [IAGO, OTHELLO], 'reply in the existing group conversation')).status, 200);
  t.same(errorOf(await dm(s, HAMLET, [OTHELLO, DESDEMONA])), bad('You are not allowed to start direct message conversations.'), 'another set of participants is a new conversation');
});
