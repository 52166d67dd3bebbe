/**
 * What sending changes besides the message, after the real server's `do_send_messages`
 * (zerver/tests/test_muting_users.py `test_new_message_from_muted_user_marked_as_read`).
 */
import t from 'tap';
import { testServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const OTHELLO = 'othello@zulip.com';

t.test('a message from a user one muted arrives read for the muter only', async (t) => {
  const s = testServer();
  t.equal((await s.as(HAMLET).post(`/users/me/muted_users/${s.id(OTHELLO)}`)).status, 200);
  const id = (await s.as(OTHELLO).post('/messages', { type: 'stream', to: 'Verona', topic: 'muted', content: 'hi' })).body.id as number;
  const flags = (email: string) => [...(s.world.messages.get(id)?.flags.get(s.id(email)) ?? [])];
  t.ok(flags(HAMLET).includes('read'), 'read for hamlet, who muted othello');
  t.notOk(flags('iago@zulip.com').includes('read'), 'unread for others');
  const dm = (await s.as(OTHELLO).post('/messages', { type: 'direct', to: [s.id(HAMLET)], content: 'psst' })).body.id as number;
  t.ok(s.world.messages.get(dm)?.flags.get(s.id(HAMLET))?.has('read'), 'direct messages too');
});
