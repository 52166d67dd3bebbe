import t from 'tap';
import { restoreWorld, snapshotWorld } from '../lib/state/world-snapshot.js';
import { recordEvents } from './support/events.js';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';
const POLONIUS = 'polonius@zulip.com';
const MUST_BE_ADMIN = { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' };

async function createFolder(s: TestServer, name: string, description = ''): Promise<number> {
  const reply = await s.as(IAGO).post('/channel_folders/create', { name, description });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  return reply.body.channel_folder_id as number;
}
const folders = async (s: TestServer, email = IAGO, params: Record<string, unknown> = {}) =>
  (await s.as(email).get('/channel_folders', params)).body.channel_folders as Array<Record<string, unknown>>;

t.test('the endpoints exist from level 389, reordering from 414', async (t) => {
  const old = testServer({ featureLevel: 388 });
  t.equal((await old.as(IAGO).get('/channel_folders')).status, 404);
  t.equal((await old.as(IAGO).post('/channel_folders/create', { name: 'x', description: '' })).status, 404);
  const s = testServer({ featureLevel: 413 });
  t.equal((await s.as(IAGO).get('/channel_folders')).status, 200);
  t.not((await s.as(IAGO).patch('/channel_folders', { order: '[]' })).status, 200);
  t.equal((await testServer().as(IAGO).patch('/channel_folders', { order: '[]' })).status, 200);
});

// test_creating_channel_folder, test_rendered_description_for_channel_folder, test_get_channel_folders
t.test('an administrator creates a folder; every user, guests too, lists it with its rendered description', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  t.same(errorOf(await s.as(HAMLET).post('/channel_folders/create', { name: 'Frontend', description: '' })), MUST_BE_ADMIN);
  const id = await createFolder(s, 'Backend', 'Channels for **backend** discussions');
  const expected = {
    id,
    name: 'Backend',
    description: 'Channels for **backend** discussions',
    rendered_description: '<p>Channels for <strong>backend</strong> discussions</p>',
    creator_id: s.id(IAGO),
    date_created: Math.floor(s.world.now() / 1000),
    is_archived: false,
    order: id,
  };
  for (const email of [IAGO, HAMLET, POLONIUS]) t.same(await folders(s, email), [expected], email);
  t.equal(events.length, 1);
  t.same(events[0]!.event, { type: 'channel_folder', op: 'add', channel_folder: expected });
  t.ok(events[0]!.userIds.includes(s.id(POLONIUS)), 'guests are told too');
  const register = await s.as(HAMLET).post('/register', { fetch_event_types: '["channel_folders"]' });
  t.same(register.body.channel_folders, [expected]);
  const before414 = testServer({ featureLevel: 413 });
  await createFolder(before414, 'Old');
  t.notOk('order' in (await folders(before414))[0]!, 'no order field before level 414');
});

// test_creating_channel_folder_with_duplicate_name, test_invalid_names_for_channel_folder
t.test('creation checks: required parameters, lengths at and over the limit, blank, unprintable, taken in any case', async (t) => {
  const s = testServer();
  await createFolder(s, 'Frontend');
  const cases: Array<[Record<string, unknown>, unknown]> = [
    [{ name: 'x' }, { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'description' argument" }],
    [{ description: '' }, { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'name' argument" }],
    [{ name: 'n'.repeat(61), description: '' }, bad('name is too long (limit: 60 characters)')],
    [{ name: 'x', description: 'd'.repeat(1025) }, bad('description is too long (limit: 1024 characters)')],
    [{ name: '', description: '' }, bad("Channel folder name can't be empty.")],
    [{ name: '   ', description: '' }, bad("Channel folder name can't be empty.")],
    [{ name: 'abc\u0000', description: '' }, bad('Invalid character in channel folder name, at position 4.')],
    [{ name: 'Frontend', description: '' }, bad("Channel folder 'Frontend' already exists")],
    [{ name: 'FRONTEND', description: '' }, bad("Channel folder 'FRONTEND' already exists")],
  ];
  for (const [params, error] of cases) t.same(errorOf(await s.as(IAGO).post('/channel_folders/create', params)), error, JSON.stringify(params).slice(0, 60));
  t.equal(s.world.channelFolders.size, 1, 'no refused request stored a folder');
  t.equal((await s.as(IAGO).post('/channel_folders/create', { name: 'n'.repeat(60), description: 'd'.repeat(1024) })).status, 200, 'at the limits');
});

// test_updating_channel_folder_name, test_updating_channel_folder_description, test_archiving_and_unarchiving_channel_folder
t.test('updating: administrators only, unknown IDs, each changed field its own event, unchanged ones none', async (t) => {
  const s = testServer();
  const id = await createFolder(s, 'Frontend', 'old');
  await createFolder(s, 'Backend');
  t.same(errorOf(await s.as(HAMLET).patch(`/channel_folders/${id}`, { name: 'Web' })), MUST_BE_ADMIN);
  t.same(errorOf(await s.as(IAGO).patch('/channel_folders/999', { name: 'Web' })), bad('Invalid channel folder ID'));
  t.same(errorOf(await s.as(IAGO).patch(`/channel_folders/${id}`, { name: 'backend' })), bad("Channel folder 'backend' already exists"));
  t.same(errorOf(await s.as(IAGO).patch(`/channel_folders/${id}`, { name: '' })), bad("Channel folder name can't be empty."));
  const events = recordEvents(s);
  const reply = await s.as(IAGO).patch(`/channel_folders/${id}`, { name: 'Web', description: 'Some *web*', is_archived: 'true' });
  t.same(reply.body, { result: 'success', msg: '' });
  t.same(
    events.map((e) => e.event),
    [
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { name: 'Web' } },
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { description: 'Some *web*', rendered_description: '<p>Some <em>web</em></p>' } },
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { is_archived: true } },
    ],
  );
  events.length = 0;
  t.equal((await s.as(IAGO).patch(`/channel_folders/${id}`, { name: 'Web', is_archived: 'true' })).status, 200);
  t.equal(events.length, 0, 'unchanged values send nothing');
  t.same((await folders(s)).map((f) => f.name), ['Backend'], 'archived folders are left out by default');
  t.same((await folders(s, HAMLET, { include_archived: 'true' })).map((f) => f.name), ['Web', 'Backend']);
  t.equal((await s.as(IAGO).patch(`/channel_folders/${id}`, { description: '', is_archived: 'false' })).status, 200);
  t.same((await folders(s))[0], { ...(await folders(s))[0], description: '', rendered_description: '', is_archived: false });
});

t.test('a folder holding a channel, even an archived one, cannot be archived; a refused request keeps its earlier parts', async (t) => {
  const s = testServer();
  const id = await createFolder(s, 'Frontend');
  const stream = s.streamId('Denmark');
  t.equal((await s.as(IAGO).patch(`/streams/${stream}`, { folder_id: id })).status, 200);
  t.equal((await s.as(IAGO).delete(`/streams/${stream}`)).status, 200);
  const refused = await s.as(IAGO).patch(`/channel_folders/${id}`, { name: 'Renamed', is_archived: 'true' });
  t.same(errorOf(refused), bad('You need to remove all the channels from this folder to archive it.'));
  t.equal(s.world.channelFolders.get(id)!.name, 'Renamed', 'the name change before the refusal stays, as on the real server');
  t.equal(s.world.channelFolders.get(id)!.isArchived, false);
});

t.test('channels join folders on creation and through PATCH /streams, and leave them with null', async (t) => {
  const s = testServer();
  const id = await createFolder(s, 'Frontend');
  const created = await s.as(IAGO).post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'web' }]), folder_id: id });
  t.equal(created.status, 200);
  t.equal(s.world.streamByName('web')!.folderId, id);
  const stream = s.streamId('Denmark');
  const events = recordEvents(s);
  t.equal((await s.as(IAGO).patch(`/streams/${stream}`, { folder_id: id })).status, 200);
  t.ok(events.some((e) => e.event.type === 'stream' && e.event.op === 'update' && e.event.property === 'folder_id' && e.event.value === id));
  const got = await s.as(HAMLET).get(`/streams/${stream}`);
  t.equal(got.body.stream.folder_id, id);
  t.equal((await s.as(IAGO).patch(`/streams/${stream}`, { folder_id: 'null' })).status, 200);
  t.equal(s.world.streams.get(stream)!.folderId, null);
  t.same(errorOf(await s.as(IAGO).patch(`/streams/${stream}`, { folder_id: id + 10 })), bad('Invalid channel folder ID'));
});

t.test('reordering names every folder, archived ones too; unknown IDs are ignored', async (t) => {
  const s = testServer();
  const a = await createFolder(s, 'A');
  const b = await createFolder(s, 'B');
  const c = await createFolder(s, 'C');
  await s.as(IAGO).patch(`/channel_folders/${c}`, { is_archived: 'true' });
  t.same(errorOf(await s.as(HAMLET).patch('/channel_folders', { order: JSON.stringify([c, b, a]) })), MUST_BE_ADMIN);
  t.same(errorOf(await s.as(IAGO).patch('/channel_folders', { order: JSON.stringify([b, a]) })), bad('Invalid order mapping.'));
  const events = recordEvents(s);
  t.equal((await s.as(IAGO).patch('/channel_folders', { order: JSON.stringify([c, 99, b, a]) })).status, 200);
  t.same(events.map((e) => e.event), [{ type: 'channel_folder', op: 'reorder', order: [c, 99, b, a] }]);
  const listed = await folders(s, HAMLET, { include_archived: 'true' });
  t.same(listed.map((f) => [f.id, f.order]), [[c, 0], [b, 2], [a, 3]]);
});

t.test('a saved world keeps its folders and channels their folder', async (t) => {
  const s = testServer();
  const id = await createFolder(s, 'Frontend', '**x**');
  await s.as(IAGO).patch(`/streams/${s.streamId('Denmark')}`, { folder_id: id });
  const restored = restoreWorld(JSON.parse(JSON.stringify(snapshotWorld(s.world))));
  t.same(restored.channelFolders.get(id), s.world.channelFolders.get(id));
  t.equal(restored.streamByName('Denmark')!.folderId, id);
});
