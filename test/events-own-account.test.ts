import t from 'tap';
import { checkEventsConvergeFor } from './support/apply-events.js';
import { CORDELIA, HAMLET, IAGO, OTHELLO } from './support/channels.js';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { type Reply, testServer, type TestServer } from './support/harness.js';

interface Case {
  readonly title: string;
  readonly fetchEventTypes: readonly string[];
  readonly eventTypes?: readonly string[];
  readonly observers: readonly string[];
  readonly action: (s: TestServer) => Promise<Reply>;
  readonly eventType: string;
  readonly recipients: (s: TestServer) => number[];
}

const CASES: readonly Case[] = [
  {
    title: 'adding and removing alert words: alert_words to the user alone',
    fetchEventTypes: ['alert_words'],
    observers: [HAMLET, OTHELLO],
    action: async (s) => {
      await s.as(HAMLET).post('/users/me/alert_words', { alert_words: ['one', 'Two'] });
      return s.as(HAMLET).delete('/users/me/alert_words', { alert_words: ['ONE'] });
    },
    eventType: 'alert_words',
    recipients: (s) => [s.id(HAMLET)],
  },
  {
    title: 'muting and unmuting: muted_users to the muter alone, and read flags for the muted user\'s messages',
    fetchEventTypes: ['muted_users', 'message'],
    eventTypes: ['muted_users', 'update_message_flags', 'message'],
    observers: [HAMLET, CORDELIA],
    action: async (s) => {
      await s.as(HAMLET).post(`/users/me/muted_users/${s.id(CORDELIA)}`);
      await s.as(HAMLET).post(`/users/me/muted_users/${s.id(OTHELLO)}`);
      return s.as(HAMLET).delete(`/users/me/muted_users/${s.id(CORDELIA)}`);
    },
    eventType: 'muted_users',
    recipients: (s) => [s.id(HAMLET)],
  },
  {
    title: 'own profile data: realm_user updates with custom_profile_field to everyone',
    fetchEventTypes: ['realm_user'],
    observers: [HAMLET, IAGO],
    action: async (s) => {
      await s.as(HAMLET).patch('/users/me/profile_data', { data: [{ id: 1, value: '123' }, { id: 2, value: '*bold*' }] });
      return s.as(HAMLET).delete('/users/me/profile_data', { data: [3] });
    },
    eventType: 'realm_user',
    recipients: (s) => activeIds(s),
  },
  {
    title: 'leaving the organization: realm_user update is_active false to everyone else',
    fetchEventTypes: ['realm_user', 'realm_bot'],
    eventTypes: ['realm_user', 'realm_bot', 'subscription'],
    observers: [IAGO, HAMLET],
    action: (s) => s.as('ZOE@zulip.com').delete('/users/me'),
    eventType: 'realm_user',
    // Her bot goes first, while she is still active, so she hears of it too.
    recipients: (s) => [...activeIds(s), s.id('ZOE@zulip.com')],
  },
];

for (const c of CASES) {
  t.test(`${c.title}; observers converge`, async (t) => {
    const s = testServer();
    const everyone = listenAll(s);
    const events = await checkEventsConvergeFor(
      t,
      c.observers.map((email) => s.as(email)),
      {
        fetchEventTypes: c.fetchEventTypes,
        ...(c.eventTypes ? { eventTypes: c.eventTypes } : {}),
        action: () => c.action(s).then((r) => t.equal(r.status, 200, r.text)),
      },
    );
    checkEventShapes(t, events.flat());
    checkRecipients(t, everyone.received(), isEvent(c.eventType), c.recipients(s), c.eventType);
  });
}
