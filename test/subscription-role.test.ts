/**
 * Levels 31 to 132 gave subscription objects a `role` (changelog 31 and 133; OpenAPI: 20 stream
 * administrator, 50 subscriber). Stream administrators could not exist, so every subscription is 50.
 */
import t from 'tap';
import { recordEvents } from './support/events.js';
import { testServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';

async function rolesAt(featureLevel: number): Promise<{ listed: unknown[]; registered: unknown[]; added: unknown[] }> {
  const s = testServer({ featureLevel });
  const listed = ((await s.as(HAMLET).get('/users/me/subscriptions')).body.subscriptions as Record<string, unknown>[]).map((sub) => sub.role);
  const registered = ((await s.as(HAMLET).post('/register', { fetch_event_types: JSON.stringify(['subscription']) })).body.subscriptions as Record<string, unknown>[]).map((sub) => sub.role);
  const events = recordEvents(s);
  await s.as(HAMLET).post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'role check' }]) });
  const added = events
    .filter((e) => e.userIds.includes(s.id(HAMLET)) && e.event.type === 'subscription' && e.event.op === 'add')
    .flatMap((e) => (e.event.subscriptions as Record<string, unknown>[]).map((sub) => sub.role));
  return { listed, registered, added };
}

t.test('subscriptions carry role 50 from level 31 to 132, in lists, register and add events', async (t) => {
  for (const level of [31, 132]) {
    const { listed, registered, added } = await rolesAt(level);
    t.ok(listed.length > 0 && listed.every((role) => role === 50), `listed at ${level}`);
    t.ok(registered.length > 0 && registered.every((role) => role === 50), `registered at ${level}`);
    t.same(added, [50], `subscription add event at ${level}`);
  }
});

t.test('there is no role before 31 or from 133', async (t) => {
  for (const level of [30, 133, 415]) {
    const { listed, registered, added } = await rolesAt(level);
    t.same([...new Set([...listed, ...registered, ...added])], [undefined], `level ${level}`);
  }
});
