import t from 'tap';
import { type ApiEvent, checkEventsConvergeFor } from './support/apply-events.js';
import { CORDELIA, HAMLET, IAGO, OTHELLO, POLONIUS } from './support/channels.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer } from './support/harness.js';

const strip = (events: readonly ApiEvent[] | undefined) => (events ?? []).map(({ id: _id, ...e }) => e);
const CHANGES = { color_scheme: 3, default_language: 'de', emojiset: 'text', enable_sounds: false, receives_typing_notifications: false, timezone: 'US/Pacific' };
/** Everything a client keeps about its own settings and about people. */
const SETTINGS_AND_PEOPLE = ['user_settings', 'realm_user'];

t.test('a modern client gets user_settings events only, and converges; an observer converges on the time zone', async (t) => {
  const s = testServer();
  const [hamlet, othello] = await checkEventsConvergeFor(t, [s.as(HAMLET), s.as(OTHELLO)], {
    fetchEventTypes: SETTINGS_AND_PEOPLE,
    action: () => s.as(HAMLET).patch('/settings', CHANGES),
  });
  checkEventShapes(t, [...(hamlet ?? []), ...(othello ?? [])]);
  t.same(
    strip(hamlet).map((e) => (e.type === 'user_settings' ? e.property : e.type)),
    ['color_scheme', 'default_language', 'emojiset', 'enable_sounds', 'receives_typing_notifications', 'timezone', 'realm_user'],
  );
  t.same(strip(othello), [{ type: 'realm_user', op: 'update', person: { email: `user${s.id(HAMLET)}@zulipdev.com`, user_id: s.id(HAMLET), timezone: 'America/Los_Angeles' } }]);
});

t.test('a client without user_settings_object also gets the legacy events, and its legacy keys converge', async (t) => {
  const s = testServer();
  const [events] = await checkEventsConvergeFor(t, [s.as(HAMLET)], {
    fetchEventTypes: [...SETTINGS_AND_PEOPLE, 'update_display_settings', 'update_global_notifications'],
    registerParams: { client_capabilities: { notification_settings_null: true, empty_topic_name: true } },
    action: () => s.as(HAMLET).patch('/settings', CHANGES),
  });
  checkEventShapes(t, events ?? []);
  t.same(
    strip(events).filter((e) => e.type.startsWith('update_')).map((e) => [e.type, e.setting_name ?? e.notification_name, e.setting]),
    [
      ['update_display_settings', 'color_scheme', 3],
      ['update_display_settings', 'default_language', 'de'],
      ['update_display_settings', 'emojiset', 'text'],
      ['update_global_notifications', 'enable_sounds', false],
      ['update_display_settings', 'timezone', 'America/Los_Angeles'],
    ],
  );
});

t.test('a name change reaches everyone who can access the user; user, administrator and guest converge', async (t) => {
  const s = testServer();
  const all = await checkEventsConvergeFor(t, [s.as(HAMLET), s.as(IAGO), s.as(POLONIUS)], {
    fetchEventTypes: ['realm_user'],
    action: () => s.as(HAMLET).patch('/settings', { full_name: ' Prince Hamlet ' }),
  });
  for (const events of all) {
    checkEventShapes(t, events);
    t.same(strip(events), [{ type: 'realm_user', op: 'update', person: { user_id: s.id(HAMLET), full_name: 'Prince Hamlet' } }]);
  }
});

t.test('email visibility changes converge for the user, an administrator and a member (API email, delivery email, avatar)', async (t) => {
  const s = testServer();
  // client_gravatar off: the avatar update carries a full URL, as register gives such clients.
  const check = (value: number) =>
    checkEventsConvergeFor(t, [s.as(HAMLET), s.as(IAGO), s.as(CORDELIA)], {
      fetchEventTypes: SETTINGS_AND_PEOPLE,
      registerParams: { client_gravatar: false },
      action: () => s.as(HAMLET).patch('/settings', { email_address_visibility: value }),
    });
  for (const value of [1, 4, 2, 3]) {
    const all = await check(value);
    for (const events of all) checkEventShapes(t, events);
  }
});
