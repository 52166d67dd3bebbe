/**
 * `POST /__dev/queues/restart` over HTTP: every queue that takes `restart` events gets one, with
 * the fields of the emulated level (zerver/tornado/event_queue.py `send_restart_events`; changelog
 * 59, 88 and 240), `server_generation` moves on, and from 240 web clients can be told to reload.
 */
import t from 'tap';
import type { RunningServer } from '../server/index.js';
import { api, dev, devServer, registerQueue } from './support/dev-http.js';

const HAMLET = 'hamlet@zulip.com';
const IAGO = 'iago@zulip.com';

async function eventsOf(server: RunningServer, email: string, queueId: string): Promise<Record<string, unknown>[]> {
  const reply = await api(server, email, 'GET', '/events', { queue_id: queueId, last_event_id: '-1', dont_block: 'true' });
  return (reply.body.events as Record<string, unknown>[]).filter((event) => event.type !== 'heartbeat');
}

const generationOf = async (server: RunningServer): Promise<number> =>
  (await api(server, HAMLET, 'POST', '/register', { fetch_event_types: JSON.stringify(['realm']) })).body.server_generation as number;

t.test('a restart reaches every queue that takes restart events, with the version fields, and moves server_generation on', async (t) => {
  const server = await devServer(t);
  const before = await generationOf(server);
  const everything = (await api(server, HAMLET, 'POST', '/register', {})).body.queue_id as string;
  const restarts = await registerQueue(server, IAGO, ['restart']);
  const messagesOnly = await registerQueue(server, IAGO, ['message']);
  const answer = await dev(server, 'POST', '/__dev/queues/restart', {});
  t.equal(answer.status, 200);
  const generation = answer.body.server_generation as number;
  t.ok(generation > before, 'a new generation');
  t.equal(answer.body.queues, 4, 'the three queues and the one register above opened');
  const expected = { type: 'restart', zulip_version: server.app.zulipVersion, zulip_feature_level: 415, zulip_merge_base: server.app.zulipVersion, server_generation: generation };
  t.match(await eventsOf(server, HAMLET, everything), [expected]);
  t.same((await eventsOf(server, IAGO, restarts)).map(({ id: _id, ...event }) => event), [expected], 'exactly these fields');
  t.same(await eventsOf(server, IAGO, messagesOnly), [], 'a queue without restart in its event types gets none');
  t.equal(await generationOf(server), generation, 'register reports the new generation');
});

t.test('the restart event has the fields of the emulated level; immediate before 240, web_reload_client from 240', async (t) => {
  const old = await devServer(t, { featureLevel: 58 });
  const oldQueue = await registerQueue(old, HAMLET, ['restart']);
  await dev(old, 'POST', '/__dev/queues/restart', { immediate: true });
  t.same((await eventsOf(old, HAMLET, oldQueue)).map(({ id: _id, ...event }) => Object.keys(event).sort()), [['immediate', 'server_generation', 'type']], 'level 58: no version fields');
  const refused = await dev(old, 'POST', '/__dev/queues/restart', { web_reload: true });
  t.same([refused.status, refused.body.msg], [400, 'web_reload_client events exist from feature level 240']);

  const middle = await devServer(t, { featureLevel: 87 });
  const middleQueue = await registerQueue(middle, HAMLET, ['restart']);
  await dev(middle, 'POST', '/__dev/queues/restart', {});
  t.same((await eventsOf(middle, HAMLET, middleQueue)).map(({ id: _id, ...event }) => Object.keys(event).sort()), [['server_generation', 'type', 'zulip_feature_level', 'zulip_version']], 'level 87: no merge base, no immediate unless asked');

  const modern = await devServer(t);
  const queue = await registerQueue(modern, HAMLET, ['restart', 'web_reload_client']);
  await dev(modern, 'POST', '/__dev/queues/restart', { immediate: true, web_reload: true });
  const events = await eventsOf(modern, HAMLET, queue);
  t.same(events.map((event) => event.type), ['restart', 'web_reload_client']);
  t.notOk('immediate' in (events[0] ?? {}), 'the restart event has no immediate from 240');
  t.equal(events[1]?.immediate, true);
  const bad = await dev(modern, 'POST', '/__dev/queues/restart', { immediate: 'yes' });
  t.same([bad.status, bad.body.msg], [400, 'immediate must be true or false']);
});

t.test('the merge base is reported from level 88 only, in register and server_settings', async (t) => {
  for (const [level, present] of [[87, false], [88, true]] as const) {
    const server = await devServer(t, { featureLevel: level });
    const registered = (await api(server, HAMLET, 'POST', '/register', { fetch_event_types: JSON.stringify(['realm']) })).body;
    const settings = (await api(server, HAMLET, 'GET', '/server_settings')).body;
    t.same(['zulip_merge_base' in registered, 'zulip_merge_base' in settings], [present, present], `level ${level}`);
  }
});
