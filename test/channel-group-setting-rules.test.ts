/**
 * Which system groups the channel group settings take, as the real server's model has them:
 * `can_remove_subscribers_group` may be `role:everyone` (its `allow_everyone_group` is true), the
 * subscriber-adding settings may not, and `POST /register` publishes the same rules.
 */
import t from 'tap';
import { bad, IAGO, POLONIUS, sub } from './support/channels.js';
import { errorOf, testServer } from './support/harness.js';

t.test('can_remove_subscribers_group takes role:everyone at creation and is read back as that group', async (t) => {
  const s = testServer();
  const everyone = s.world.systemGroupId('role:everyone');
  const reply = await sub(s, IAGO, { subscriptions: [{ name: 'anyone removes' }], can_remove_subscribers_group: everyone });
  t.equal(reply.status, 200);
  const listed = (await s.as(IAGO).get('/users/me/subscriptions')).body.subscriptions.find((x: { name: string }) => x.name === 'anyone removes');
  t.equal(listed.can_remove_subscribers_group, everyone);
});

t.test('can_add_subscribers_group and can_subscribe_group still refuse role:everyone', async (t) => {
  const s = testServer();
  const everyone = s.world.systemGroupId('role:everyone');
  for (const setting of ['can_add_subscribers_group', 'can_subscribe_group']) {
    t.same(errorOf(await sub(s, IAGO, { subscriptions: [{ name: 'x' }], [setting]: everyone })), bad(`'${setting}' setting cannot be set to 'role:everyone' group.`), setting);
  }
});

t.test('register publishes allow_everyone_group true for can_remove_subscribers_group', async (t) => {
  const s = testServer();
  const { body } = await s.as(IAGO).post('/register', { fetch_event_types: ['realm'] });
  t.equal(body.server_supported_permission_settings.stream.can_remove_subscribers_group.allow_everyone_group, true);
  t.equal(body.server_supported_permission_settings.stream.can_add_subscribers_group.allow_everyone_group, false);
});

t.test('a guest in a channel whose can_remove_subscribers_group is role:everyone still cannot unsubscribe others', async (t) => {
  const s = testServer();
  const everyone = s.world.systemGroupId('role:everyone');
  const principals = [s.id(IAGO), s.id(POLONIUS), s.id('hamlet@zulip.com')];
  t.equal((await sub(s, IAGO, { subscriptions: [{ name: 'open door' }], can_remove_subscribers_group: everyone, principals })).status, 200);
  const reply = await s.as(POLONIUS).delete('/users/me/subscriptions', { subscriptions: ['open door'], principals: [s.id('hamlet@zulip.com')] });
  t.same(errorOf(reply), bad('Insufficient permission'));
});
