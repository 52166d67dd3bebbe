import t from 'tap';
import { checkEventsConverge } from './support/apply-events.js';
import { checkRecipients, isEvent, listenAll } from './support/event-recipients.js';
import { checkEventShapes } from './support/event-schema.js';
import { testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';
const CUSTOM = 'narrow/channel/3-Verona';

const setup = async (s: TestServer) => {
  await s.as(HAMLET).post('/navigation_views', { fragment: 'inbox', is_pinned: true });
  await s.as(HAMLET).post('/navigation_views', { fragment: CUSTOM, is_pinned: false, name: 'Verona' });
};

const cases: Array<[string, (s: TestServer) => Promise<unknown>, Record<string, unknown>]> = [
  [
    'add',
    (s) => s.as(HAMLET).post('/navigation_views', { fragment: 'narrow/is/starred', is_pinned: true }),
    { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'narrow/is/starred', is_pinned: true, name: null } },
  ],
  [
    'update',
    (s) => s.as(HAMLET).patch(`/navigation_views/${CUSTOM}`, { is_pinned: true, name: 'Verona!' }),
    { type: 'navigation_view', op: 'update', fragment: CUSTOM, data: { is_pinned: true, name: 'Verona!' } },
  ],
  ['remove', (s) => s.as(HAMLET).delete(`/navigation_views/${CUSTOM}`), { type: 'navigation_view', op: 'remove', fragment: CUSTOM }],
];

for (const [op, action, expected] of cases) {
  t.test(`navigation_view ${op}: the owner alone gets it, and the state converges`, async (t) => {
    const s = testServer();
    await setup(s);
    const everyone = listenAll(s);
    const events = await checkEventsConverge(t, s.as(HAMLET), { fetchEventTypes: ['navigation_views'],
    // The state type is plural, the event type singular (as on the real server).
    eventTypes: ['navigation_view'], action: () => action(s) });
    checkEventShapes(t, events);
    t.same(
      events.map(({ id: _id, ...e }) => e),
      [expected],
    );
    checkRecipients(t, everyone.received(), isEvent('navigation_view'), [s.id(HAMLET)], `navigation_view/${op}`);
  });
}

t.test('an update of only is_pinned carries only is_pinned in data', async (t) => {
  const s = testServer();
  await setup(s);
  const events = await checkEventsConverge(t, s.as(HAMLET), {
    fetchEventTypes: ['navigation_views'],
    // The state type is plural, the event type singular (as on the real server).
    eventTypes: ['navigation_view'],
    action: () => s.as(HAMLET).patch('/navigation_views/inbox', { is_pinned: false }),
  });
  t.same(events[0]?.data, { is_pinned: false });
});
