import t from 'tap';
import { checkEventsConverge } from './support/apply-events.js';
import { HAMLET, IAGO } from './support/channels.js';
import { testServer } from './support/harness.js';

const RENAME = { fetchEventTypes: ['subscription'], eventTypes: ['subscription', 'stream'], registerParams: { include_subscribers: 'true' } } as const;

t.test('below level 226 a rename announces the channel\'s new email address before its new name, and subscribers converge', async (t) => {
  const s = testServer({ featureLevel: 207 });
  const denmark = s.streamId('Denmark');
  const events = await checkEventsConverge(t, s.as(HAMLET), { ...RENAME, action: () => s.as(IAGO).patch(`/streams/${denmark}`, { new_name: 'Danmark' }) });
  const updates = events.filter((e) => e.type === 'stream' && e.op === 'update');
  t.same(
    updates.map((e) => e.property),
    ['email_address', 'name'],
  );
  const sub = (await s.as(HAMLET).get('/users/me/subscriptions')).body.subscriptions.find((entry: { stream_id: number }) => entry.stream_id === denmark);
  t.equal(updates[0]?.value, sub.email_address, 'the event carries the address the subscription now shows');
  t.match(sub.email_address, /^danmark\./, 'the address starts with the new name (as a slug)');
  t.equal(updates[0]?.name, 'Denmark', 'keyed by the old name too, as every stream update');
});

t.test('from level 226 (subscriptions without email_address) a rename sends only the new name', async (t) => {
  const s = testServer();
  const denmark = s.streamId('Denmark');
  const events = await checkEventsConverge(t, s.as(HAMLET), { ...RENAME, action: () => s.as(IAGO).patch(`/streams/${denmark}`, { new_name: 'Danmark' }) });
  t.same(
    events.filter((e) => e.type === 'stream' && e.op === 'update').map((e) => e.property),
    ['name'],
  );
});
