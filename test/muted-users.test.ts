import t from 'tap';
import { CORDELIA, HAMLET, IAGO, OTHELLO } from './support/channels.js';
import { ofType, recordEvents } from './support/events.js';
import { bad, errorOf, testServer } from './support/harness.js';

const muteUrl = (id: number) => `/users/me/muted_users/${id}`;

t.test('muting a user records it with the time, marks their messages read, and sends muted_users', async (t) => {
  const s = testServer();
  const sent = await s.as(CORDELIA).post('/messages', { type: 'direct', to: JSON.stringify([s.id(HAMLET)]), content: 'hi' });
  t.equal(sent.status, 200, sent.text);
  const seen = recordEvents(s);
  t.equal((await s.as(HAMLET).post(muteUrl(s.id(CORDELIA)))).status, 200);
  const timestamp = Math.floor(s.clock.now() / 1000);
  const register = await s.as(HAMLET).post('/register', { fetch_event_types: ['muted_users'] });
  t.same(register.body.muted_users, [{ id: s.id(CORDELIA), timestamp }]);
  t.ok(s.world.messages.get(sent.body.id)?.flags.get(s.id(HAMLET))?.has('read'), 'the muted user\'s message is read');
  t.same(ofType(seen, 'update_message_flags').map((e) => [e.event.messages, e.userIds]), [[[sent.body.id], [s.id(HAMLET)]]]);
  t.same(ofType(seen, 'muted_users').map((e) => [e.event, e.userIds]), [[{ type: 'muted_users', muted_users: [{ id: s.id(CORDELIA), timestamp }] }, [s.id(HAMLET)]]]);
  t.equal((await s.as(HAMLET).delete(muteUrl(s.id(CORDELIA)))).status, 200);
  t.same(ofType(seen, 'muted_users').at(-1)?.event.muted_users, []);
});

t.test('muting: oneself, twice, unknown users and unmuting the unmuted are refused', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(HAMLET).post(muteUrl(s.id(HAMLET)))), bad('Cannot mute self'));
  t.same(errorOf(await s.as(HAMLET).post(muteUrl(9999))), bad('No such user'));
  t.same(errorOf(await s.as(HAMLET).post(muteUrl(4))), bad('No such user'), 'cross-realm bots');
  t.same(errorOf(await s.as(HAMLET).delete(muteUrl(s.id(OTHELLO)))), bad('User is not muted'));
  t.same(errorOf(await s.as(HAMLET).delete(muteUrl(9999))), bad('No such user'));
  await s.as(HAMLET).post(muteUrl(s.id(OTHELLO)));
  t.same(errorOf(await s.as(HAMLET).post(muteUrl(s.id(OTHELLO)))), bad('User already muted'));
});

t.test('bots and deactivated users may be muted and unmuted', async (t) => {
  const s = testServer();
  t.equal((await s.as(HAMLET).post(muteUrl(s.id('default-bot@zulip.com')))).status, 200);
  await s.as(IAGO).delete(`/users/${s.id(OTHELLO)}`);
  t.equal((await s.as(HAMLET).post(muteUrl(s.id(OTHELLO)))).status, 200);
  t.equal((await s.as(HAMLET).delete(muteUrl(s.id(OTHELLO)))).status, 200);
  t.same((await s.as(HAMLET).post('/register', { fetch_event_types: ['muted_users'] })).body.muted_users.map((m: { id: number }) => m.id), [s.id('default-bot@zulip.com')]);
});

t.test('below level 188 bots cannot be muted (No such user), deactivated users still can', async (t) => {
  const s = testServer({ featureLevel: 187 });
  t.same(errorOf(await s.as(HAMLET).post(muteUrl(s.id('default-bot@zulip.com')))), bad('No such user'));
  t.same(errorOf(await s.as(HAMLET).delete(muteUrl(s.id('default-bot@zulip.com')))), bad('No such user'));
  await s.as(IAGO).delete(`/users/${s.id(OTHELLO)}`);
  t.equal((await s.as(HAMLET).post(muteUrl(s.id(OTHELLO)))).status, 200);
});

t.test('below level 48 the muted-users endpoints and state do not exist', async (t) => {
  const s = testServer({ featureLevel: 47 });
  t.equal((await s.as(HAMLET).post(muteUrl(s.id(OTHELLO)))).status, 404);
  t.notOk('muted_users' in (await s.as(HAMLET).post('/register', {})).body);
  const modern = testServer({ featureLevel: 48 });
  t.same((await modern.as(HAMLET).post('/register', {})).body.muted_users, []);
});
