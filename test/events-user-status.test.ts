import t from 'tap';
import { checkEventsConvergeFor } from './support/apply-events.js';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const OTHELLO = 'othello@zulip.com';
const IAGO = 'iago@zulip.com';

t.test('user_status: everyone who can see the user gets only the fields the request set; user and observer converge', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  const [hamlet, othello] = await checkEventsConvergeFor(t, [s.as(HAMLET), s.as(OTHELLO)], {
    fetchEventTypes: ['user_status'],
    action: () => s.as(HAMLET).post('/users/me/status', { status_text: '  on vacation ', emoji_name: 'car' }),
  });
  for (const events of [hamlet ?? [], othello ?? []]) {
    checkEventShapes(t, events);
    t.same(
      events.map(({ id: _id, ...e }) => e),
      [{ type: 'user_status', user_id: s.id(HAMLET), status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' }],
    );
  }
  checkRecipients(t, everyone.received(), isEvent('user_status'), activeIds(s), 'user_status');
});

t.test('clearing the status text and the emoji converges to no entry at all', async (t) => {
  const s = testServer();
  await s.as(HAMLET).post('/users/me/status', { status_text: 'busy', emoji_name: 'car' });
  const [events] = await checkEventsConvergeFor(t, [s.as(OTHELLO)], {
    fetchEventTypes: ['user_status'],
    action: () => s.as(HAMLET).post('/users/me/status', { status_text: '', emoji_name: '' }),
  });
  t.same(
    (events ?? []).map(({ id: _id, ...e }) => e),
    [{ type: 'user_status', user_id: s.id(HAMLET), status_text: '', emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' }],
  );
});

t.test('away mirrors presence_enabled: the status event carries away, and the observer converges', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  const [events] = await checkEventsConvergeFor(t, [s.as(OTHELLO)], {
    fetchEventTypes: ['user_status'],
    action: () => s.as(HAMLET).post('/users/me/status', { away: true }),
  });
  checkEventShapes(t, events ?? []);
  t.same(
    (events ?? []).map(({ id: _id, ...e }) => e),
    [{ type: 'user_status', user_id: s.id(HAMLET), away: true }],
  );
  const received = everyone.received();
  checkRecipients(t, received, isEvent('user_settings'), [s.id(HAMLET)], 'the presence_enabled setting change');
  t.match(received.get(s.id(HAMLET))?.find(isEvent('user_settings')), { property: 'presence_enabled', value: false });
});

t.test('an administrator setting another user\'s status sends the same event, without away', async (t) => {
  const s = testServer();
  const everyone = listenAll(s);
  const [events] = await checkEventsConvergeFor(t, [s.as(HAMLET)], {
    fetchEventTypes: ['user_status'],
    action: () => s.as(IAGO).post(`/users/${s.id(HAMLET)}/status`, { status_text: 'set by iago' }),
  });
  t.same(
    (events ?? []).map(({ id: _id, ...e }) => e),
    [{ type: 'user_status', user_id: s.id(HAMLET), status_text: 'set by iago' }],
  );
  checkRecipients(t, everyone.received(), isEvent('user_status'), activeIds(s), 'user_status by an administrator');
});
