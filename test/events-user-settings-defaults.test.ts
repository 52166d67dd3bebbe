import t from 'tap';
import { checkEventsConvergeFor } from './support/apply-events.js';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';

t.test('realm_user_settings_defaults: one update per changed setting, to every active account; admin and member converge', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  const [iago, hamlet] = await checkEventsConvergeFor(t, [s.as(IAGO), s.as(HAMLET)], {
    fetchEventTypes: ['realm_user_settings_defaults'],
    // enter_sends is already true in the dev realm: no event for it.
    action: () => s.as(IAGO).patch('/realm/user_settings_defaults', { enter_sends: true, color_scheme: 3, emojiset: 'text', twenty_four_hour_time: true }),
  });
  for (const events of [iago ?? [], hamlet ?? []]) {
    checkEventShapes(t, events);
    t.same(
      events.map(({ id: _id, ...e }) => e),
      [
        { type: 'realm_user_settings_defaults', op: 'update', property: 'color_scheme', value: 3 },
        { type: 'realm_user_settings_defaults', op: 'update', property: 'emojiset', value: 'text' },
        { type: 'realm_user_settings_defaults', op: 'update', property: 'twenty_four_hour_time', value: true },
      ],
    );
  }
  checkRecipients(t, everyone.received(), isEvent('realm_user_settings_defaults'), activeIds(s), 'realm_user_settings_defaults/update');
});

t.test('a request that changes nothing, or is refused, sends nothing', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  t.equal((await s.as(IAGO).patch('/realm/user_settings_defaults', { enter_sends: true })).status, 200);
  t.equal((await s.as(IAGO).patch('/realm/user_settings_defaults', { color_scheme: 3, notification_sound: 'nope' })).status, 400);
  t.equal((await s.as(HAMLET).patch('/realm/user_settings_defaults', { color_scheme: 3 })).status, 400);
  t.same([...everyone.received().keys()], []);
});
