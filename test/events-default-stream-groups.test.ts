/**
 * `default_stream_groups` events: each carries the whole list (as `realm_default_stream_groups`),
 * goes to every active non-guest user, and a client applying it converges with a fresh register.
 */
import t from 'tap';
import { type ApiEvent, checkEventsConvergeFor } from './support/apply-events.js';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer, type TestServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const GROUPS = { fetchEventTypes: ['default_stream_groups'], eventTypes: ['default_stream_groups'] } as const;
const strip = (events: ApiEvent[] | undefined) => (events ?? []).map(({ id: _id, ...e }) => e);
const nonGuests = (s: TestServer) => activeIds(s, (u) => u.role !== 600);
const register = async (s: TestServer) => (await s.as('hamlet@zulip.com').post('/register', { fetch_event_types: ['default_stream_groups'] })).body.realm_default_stream_groups;
const firstId = (s: TestServer): number => [...s.world.defaultStreamGroups.keys()][0]!;

const actions: Array<[string, (s: TestServer) => Promise<unknown>, number]> = [
  ['create', (s) => s.as(IAGO).post('/default_stream_groups/create', { group_name: 'new', description: 'd', stream_names: ['Rome', 'Denmark'] }), 1],
  ['rename and describe (two events)', (s) => s.as(IAGO).patch(`/default_stream_groups/${firstId(s)}`, { new_group_name: 'renamed', new_description: 'x' }), 2],
  ['add channels', (s) => s.as(IAGO).patch(`/default_stream_groups/${firstId(s)}/streams`, { op: 'add', stream_names: ['Scotland'] }), 1],
  ['remove channels', (s) => s.as(IAGO).patch(`/default_stream_groups/${firstId(s)}/streams`, { op: 'remove', stream_names: ['Venice'] }), 1],
  ['delete', (s) => s.as(IAGO).delete(`/default_stream_groups/${firstId(s)}`), 1],
  ['archive a channel in two groups (one event per group)', (s) => s.as(IAGO).delete(`/streams/${s.streamId('Venice')}`), 2],
];

for (const featureLevel of [415, 329]) {
  for (const [what, action, count] of actions) {
    t.test(`at level ${featureLevel}, ${what}: every non-guest gets the whole list and a client converges`, async (t) => {
      const s = testServer({ featureLevel });
      await s.as(IAGO).post('/default_stream_groups/create', { group_name: 'existing', description: '', stream_names: ['Venice'] });
      await s.as(IAGO).post('/default_stream_groups/create', { group_name: 'other', description: '', stream_names: ['Venice'] });
      const everyone = listenAll(s);
      const [hamlet] = await checkEventsConvergeFor(t, [s.as('hamlet@zulip.com')], { ...GROUPS, action: () => action(s) });
      // The OpenAPI schema is the newest one: channel IDs, not the objects sent before level 330.
      if (featureLevel === 415) checkEventShapes(t, hamlet ?? []);
      const events = strip(hamlet);
      t.equal(events.length, count);
      t.same(events.at(-1), { type: 'default_stream_groups', default_stream_groups: await register(s) });
      checkRecipients(t, everyone.received(), isEvent('default_stream_groups'), nonGuests(s), 'default_stream_groups');
    });
  }
}
