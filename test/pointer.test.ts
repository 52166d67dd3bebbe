/**
 * The pointer below level 23, as the real server's zerver/tests/test_pointer.py (PointerTest)
 * checks it, plus the register state, the event, GET /users/me below 16 and the saved world.
 */
import t from 'tap';
import { restoreWorld, SnapshotError, snapshotWorld } from '../lib/state/world-snapshot.js';
import { HAMLET, IAGO, OTHELLO } from './support/channels.js';
import { ofType, recordEvents } from './support/events.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const URL = '/users/me/pointer';
const OLD = { featureLevel: 22 };

const sendToVerona = async (s: TestServer) => (await s.as(OTHELLO).post('/messages', { type: 'stream', to: 'Verona', topic: 'pointer', content: 'x' })).body.id as number;
const pointerOf = async (s: TestServer, email: string) => (await s.as(email).get(URL)).body.pointer as number;
const badValue = (raw: string) => ({ ...bad(`Bad value for 'pointer': ${raw}`), code: 'REQUEST_VARIABLE_INVALID' });

t.test('test_update_pointer / test_api_update_pointer: the pointer starts at -1 and PUT or POST moves it onto a received message', async (t) => {
  const s = testServer(OLD);
  t.equal(await pointerOf(s, HAMLET), -1);
  const first = await sendToVerona(s);
  t.equal((await s.as(HAMLET).post(URL, { pointer: first })).status, 200);
  t.equal(await pointerOf(s, HAMLET), first);
  const second = await sendToVerona(s);
  t.equal((await s.as(HAMLET).call('PUT', URL, { pointer: second })).status, 200);
  t.equal(await pointerOf(s, HAMLET), second);
  t.equal(await pointerOf(s, OTHELLO), -1, "other users' pointers stay");
});

t.test('a move sends only the mover a pointer event; register reports the pointer and replays it', async (t) => {
  const s = testServer(OLD);
  const id = await sendToVerona(s);
  const queue = (await s.as(HAMLET).post('/register', { event_types: ['pointer'] })).body;
  t.equal(queue.pointer, -1, 'the initial pointer of register');
  const seen = recordEvents(s);
  await s.as(HAMLET).post(URL, { pointer: id });
  t.same(ofType(seen, 'pointer').map((e) => [e.event, e.userIds]), [[{ type: 'pointer', pointer: id }, [s.id(HAMLET)]]]);
  t.equal((await s.as(HAMLET).post('/register', { fetch_event_types: ['pointer'] })).body.pointer, id);
});

t.test('a pointer at or behind the current one succeeds without a change or an event, even naming no message', async (t) => {
  const s = testServer(OLD);
  const first = await sendToVerona(s);
  const second = await sendToVerona(s);
  await s.as(HAMLET).post(URL, { pointer: second });
  const seen = recordEvents(s);
  t.equal((await s.as(HAMLET).post(URL, { pointer: first })).status, 200);
  t.equal((await s.as(HAMLET).post(URL, { pointer: second })).status, 200);
  t.equal((await s.as(HAMLET).post(URL, { pointer: 0 })).status, 200);
  t.equal(await pointerOf(s, HAMLET), second);
  t.same(ofType(seen, 'pointer'), []);
});

t.test('a message the user has no row for is "Invalid message ID": a direct message between others, an unknown ID', async (t) => {
  const s = testServer(OLD);
  const direct = (await s.as(OTHELLO).post('/messages', { type: 'private', to: JSON.stringify([s.id(IAGO)]), content: 'x' })).body.id as number;
  t.same(errorOf(await s.as(HAMLET).post(URL, { pointer: direct })), bad('Invalid message ID'));
  t.same(errorOf(await s.as(HAMLET).post(URL, { pointer: direct + 1000 })), bad('Invalid message ID'));
  t.same(errorOf(await s.as(HAMLET).post(URL, { pointer: '99999999999999999999999' })), bad('Invalid message ID'));
  t.equal(await pointerOf(s, HAMLET), -1);
});

t.test('test_missing_pointer, test_invalid_pointer, test_pointer_out_of_range: the converter refusals, with the raw value', async (t) => {
  const s = testServer(OLD);
  t.same(errorOf(await s.as(HAMLET).post(URL, { foo: 1 })), { ...bad("Missing 'pointer' argument"), code: 'REQUEST_VARIABLE_MISSING' });
  for (const raw of ['foo', '-2', '1.5', '', '1e3', '_1', '1__0', '0x10']) {
    const reply = await s.as(HAMLET).post(URL, { pointer: raw });
    t.same(errorOf(reply), badValue(raw), raw);
    t.same({ var_name: reply.body.var_name, bad_value: reply.body.bad_value }, { var_name: 'pointer', bad_value: raw });
  }
  t.equal(await pointerOf(s, HAMLET), -1);
});

t.test("Python int() forms are accepted: surrounding spaces, a sign, leading zeros, underscores between digits", async (t) => {
  const s = testServer(OLD);
  const id = await sendToVerona(s);
  t.equal((await s.as(HAMLET).post(URL, { pointer: ` +00${id} ` })).status, 200);
  t.equal(await pointerOf(s, HAMLET), id);
  t.equal((await s.as(HAMLET).post(URL, { pointer: '-0' })).status, 200, '-0 is 0, behind the pointer');
  t.equal((await s.as(HAMLET).post(URL, { pointer: '1_0' })).status, 200);
});

t.test('the old Android app marks the messages it passes as read, silently; other clients leave them unread', async (t) => {
  const s = testServer(OLD);
  const ids: [number, number, number] = [await sendToVerona(s), await sendToVerona(s), await sendToVerona(s)];
  const isRead = (id: number) => s.world.messages.get(id)?.flags.get(s.id(HAMLET))?.has('read') === true;
  await s.as(HAMLET).post(URL, { pointer: ids[0] });
  t.notOk(isRead(ids[0]), 'a terminal client marks nothing');
  const seen = recordEvents(s);
  await s.as(HAMLET).post(URL, { pointer: ids[1] }, { headers: { 'user-agent': 'ZulipAndroid/1.0 (Android 10)' } });
  t.same([isRead(ids[0]), isRead(ids[1]), isRead(ids[2])], [false, true, false], 'only (previous, new] is marked');
  t.same(ofType(seen, 'update_message_flags'), []);
  await s.as(HAMLET).post(URL, { pointer: ids[2], client: 'android' });
  t.ok(isRead(ids[2]), 'the client parameter names the client too');
});

t.test('levels: served below 23 only; GET /users/me carries the pointer below 16 only', async (t) => {
  const s = testServer({ featureLevel: 23 });
  for (const method of ['GET', 'PUT', 'POST']) t.equal((await s.as(HAMLET).call(method, URL, method === 'GET' ? {} : { pointer: 1 })).status, 404, method);
  t.notOk('pointer' in (await s.as(HAMLET).post('/register', {})).body);
  t.notOk('pointer' in (await s.as(HAMLET).get('/users/me')).body);
  t.ok('pointer' in (await testServer(OLD).as(HAMLET).post('/register', {})).body);
  t.notOk('pointer' in (await testServer({ featureLevel: 16 }).as(HAMLET).get('/users/me')).body);
  const oldest = testServer({ featureLevel: 15 });
  const id = await sendToVerona(oldest);
  await oldest.as(HAMLET).post(URL, { pointer: id });
  t.equal((await oldest.as(HAMLET).get('/users/me')).body.pointer, id);
});

t.test('a saved world keeps each pointer; a file naming a never-created message or an unknown user is refused', async (t) => {
  const s = testServer(OLD);
  const id = await sendToVerona(s);
  await s.as(HAMLET).post(URL, { pointer: id });
  const saved = JSON.parse(JSON.stringify(snapshotWorld(s.world)));
  t.equal(restoreWorld(saved).pointers.get(s.id(HAMLET)), id);
  const neverCreated = structuredClone(saved);
  neverCreated.state.pointers.$map[0][1] = id + 1000;
  t.throws(() => restoreWorld(neverCreated), SnapshotError);
  const unknownUser = structuredClone(saved);
  unknownUser.state.pointers.$map.push([999_999, id]);
  t.throws(() => restoreWorld(unknownUser), SnapshotError);
});
