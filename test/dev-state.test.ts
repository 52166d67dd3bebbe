/**
 * `/__dev/state` over HTTP: the export is a `--state` file, the import replaces the world (event
 * queues dropped), and a refused import answers 400 with its problems and changes nothing.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startServer } from '../server/index.js';
import { api, dev, devServer, quiet, registerQueue, sendMessage } from './support/dev-http.js';

const HAMLET = 'hamlet@zulip.com';

t.test('the exported state is a --state file: a server started from it has the same messages', async (t) => {
  const server = await devServer(t);
  const id = await sendMessage(server, HAMLET, 'exported and loaded');
  const exported = await dev(server, 'GET', '/__dev/state');
  t.equal(exported.status, 200);
  t.match(exported.headers.get('content-type'), /^application\/json/);
  t.match(exported.body, { format: 'chat-api-reference/world', version: 1, featureLevel: 415 });
  const path = join(mkdtempSync(join(tmpdir(), 'dev-state-')), 'state.json');
  writeFileSync(path, exported.text);
  const loaded = await startServer({ ...quiet, statePath: path });
  t.teardown(() => loaded.close());
  t.ok(loaded.stateLoaded);
  t.equal(loaded.world.messages.get(id)?.content, 'exported and loaded');
});

t.test('an import replaces the whole world and drops the event queues, as a restart would', async (t) => {
  const server = await devServer(t);
  const kept = await sendMessage(server, HAMLET, 'before the export');
  const saved = (await dev(server, 'GET', '/__dev/state')).text;
  const dropped = await sendMessage(server, HAMLET, 'after the export');
  const queueId = await registerQueue(server, HAMLET);
  const imported = await dev(server, 'PUT', '/__dev/state', saved);
  t.same(imported.body, { result: 'success', msg: '', feature_level: 415, users: server.world.users.size, channels: server.world.streams.size, messages: server.world.messages.size });
  t.equal(server.world.messages.get(kept)?.content, 'before the export');
  t.notOk(server.world.messages.has(dropped), 'what came after the export is gone');
  const polled = await api(server, HAMLET, 'GET', '/events', { queue_id: queueId, last_event_id: '-1', dont_block: 'true' });
  t.equal(polled.body.code, 'BAD_EVENT_QUEUE_ID');
  t.equal(await sendMessage(server, HAMLET, 'IDs continue from the import'), dropped, 'the ID counters came back too');
});

t.test('a refused import answers 400 with its problems and leaves the state as it was', async (t) => {
  const server = await devServer(t);
  const pinned = await devServer(t, { featureLevel: 400 });
  await sendMessage(server, HAMLET, 'still here');
  const good = (await dev(server, 'GET', '/__dev/state')).body;
  const cases: Array<[string, unknown, RegExp]> = [
    ['not JSON', '{"format": "chat-api-reference/world", "vers', /not valid JSON/],
    ['not a snapshot', { users: [] }, /not a saved world/],
    ['another version', { ...good, version: 99 }, /version 99 is not supported/],
    ['incomplete', { ...good, ids: undefined }, /incomplete/],
    ['a field this server does not know', { ...good, state: { ...(good.state as object), nonsense: 1 } }, /does not know: nonsense/],
    ['a field of the wrong type', { ...good, state: { ...(good.state as object), users: 'everyone' } }, /field users has the wrong type/],
    ['a feature level out of range', { ...good, featureLevel: 9999 }, /featureLevel must be an integer from 1 to 415/],
  ];
  const world = server.world;
  const messages = world.messages.size;
  for (const [name, document, message] of cases) {
    const refused = await dev(server, 'PUT', '/__dev/state', document);
    t.equal(refused.status, 400, name);
    t.match(refused.body, { result: 'error', code: 'BAD_REQUEST' }, name);
    t.match(refused.body.msg, message, name);
    t.match(refused.body.problems, [message], `${name}: listed in problems`);
  }
  t.equal(server.world, world, 'the same world serves');
  t.equal(server.world.messages.size, messages);
  t.equal((await sendMessage(server, HAMLET, 'the server still works')) > 0, true);
  const other = await dev(pinned, 'PUT', '/__dev/state', good);
  t.equal(other.status, 400);
  t.match(other.body.msg, /saved at feature level 415, and this server was started at 400/);
  t.equal(pinned.world.featureLevel, 400);
});
