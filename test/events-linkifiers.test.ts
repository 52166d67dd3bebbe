import t from 'tap';
import { checkEventsConverge, MODERN_CAPABILITIES, pollEvents } from './support/apply-events.js';
import { activeIds, checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer, type TestServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';
const CAPABLE = { client_capabilities: { ...MODERN_CAPABILITIES, linkifier_url_template: true } };

const ids = async (s: TestServer): Promise<number[]> =>
  ((await s.as(IAGO).get('/realm/linkifiers')).body.linkifiers as Array<{ id: number }>).map((l) => l.id);

const operations: Array<[string, (s: TestServer) => Promise<unknown>]> = [
  ['add', (s) => s.as(IAGO).post('/realm/filters', { pattern: 'T(?P<id>[0-9]+)', url_template: 'https://trac.example.com/{id}' })],
  [
    'update',
    async (s) => s.as(IAGO).patch(`/realm/filters/${(await ids(s))[0]}`, { pattern: 'D(?P<id>[0-9]+)', url_template: 'https://desktop.example.com/{id}' }),
  ],
  ['delete', async (s) => s.as(IAGO).delete(`/realm/filters/${(await ids(s))[1]}`)],
  ['reorder', async (s) => s.as(IAGO).patch('/realm/linkifiers', { ordered_linkifier_ids: (await ids(s)).reverse() })],
];

for (const [name, operation] of operations) {
  t.test(`linkifier ${name}: every active account gets the complete ordered list, and a capable client converges`, async (t) => {
    const s = testServer();
    const everyone = listenAll(s);
    const events = await checkEventsConverge(t, s.as(HAMLET), {
      fetchEventTypes: ['realm_linkifiers'],
      registerParams: CAPABLE,
      action: () => operation(s),
    });
    checkEventShapes(t, events);
    const listed = (await s.as(IAGO).get('/realm/linkifiers')).body.linkifiers;
    t.same(
      events.map(({ id: _id, ...e }) => e),
      [{ type: 'realm_linkifiers', realm_linkifiers: listed }],
    );
    checkRecipients(t, everyone.received(), isEvent('realm_linkifiers'), activeIds(s), `realm_linkifiers after ${name}`);
    checkRecipients(t, everyone.received(), isEvent('realm_filters'), [], 'no legacy realm_filters event');
  });
}

t.test('a queue without linkifier_url_template gets no realm_linkifiers event, matching its empty register list', async (t) => {
  const s = testServer();
  const events = await checkEventsConverge(t, s.as(HAMLET), {
    fetchEventTypes: ['realm_linkifiers'],
    expectEvents: false,
    action: () => operations[0]![1](s),
  });
  t.same(events, []);
});

t.test('before level 176 every queue gets realm_linkifiers and the legacy realm_filters, and both converge', async (t) => {
  const s = testServer({ featureLevel: 175 });
  const add = () => s.as(IAGO).post('/realm/filters', { pattern: 'T(?P<id>[0-9]+)', url_format_string: 'https://trac.example.com/%(id)s' });
  const events = await checkEventsConverge(t, s.as(HAMLET), { fetchEventTypes: ['realm_linkifiers', 'realm_filters'], action: add });
  // The schemas describe the current level; at 175 the items still carried `url_format`.
  t.same((events[0]?.realm_linkifiers as unknown[]).at(-1), { pattern: 'T(?P<id>[0-9]+)', url_format: 'https://trac.example.com/%(id)s', id: 4 });
  t.same(
    events.map((e) => e.type),
    ['realm_linkifiers', 'realm_filters'],
  );
  t.same((events[1]?.realm_filters as unknown[][]).at(-1)?.slice(0, 2), ['T(?P<id>[0-9]+)', 'https://trac.example.com/%(id)s']);
});

t.test('reordering an empty list changes nothing and sends nothing', async (t) => {
  const s = testServer();
  s.world.linkifiers.clear();
  const queue = (await s.as(HAMLET).post('/register', { event_types: ['realm_linkifiers'], client_capabilities: CAPABLE.client_capabilities })).body.queue_id;
  t.equal((await s.as(IAGO).patch('/realm/linkifiers', { ordered_linkifier_ids: [] })).status, 200);
  t.same(await pollEvents(s.as(HAMLET), queue), []);
});
