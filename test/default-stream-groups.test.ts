/**
 * Default channel groups, after zerver/tests/test_default_channels.py `DefaultStreamGroupTest`
 * (`test_api_calls`, `test_invalid_default_stream_group_name`,
 * `test_create_update_and_remove_default_stream_group`).
 */
import t from 'tap';
import { bad, errorOf, type Params, testServer, type TestServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const GUEST = 'polonius@zulip.com';
const idOf = (s: TestServer, name: string): number => s.world.streamByName(name)!.id;

const groups = async (s: TestServer, email = 'hamlet@zulip.com') =>
  (await s.as(email).post('/register', { fetch_event_types: ['default_stream_groups'] })).body.realm_default_stream_groups as Array<Record<string, unknown>>;

const create = (s: TestServer, params: Params) => s.as(IAGO).post('/default_stream_groups/create', { description: 'd', stream_names: [], ...params });
const streams = (s: TestServer, id: number, op: string, names: string[]) => s.as(IAGO).patch(`/default_stream_groups/${id}/streams`, { op, stream_names: names });

t.test('an administrator creates, extends, shrinks, renames, describes and deletes a group; register lists it', async (t) => {
  const s = testServer();
  t.equal((await create(s, { group_name: 'group1', description: 'This is group1', stream_names: ['Denmark', 'Scotland'] })).status, 200);
  const id = [...s.world.defaultStreamGroups.keys()][0]!;
  t.same(await groups(s), [{ name: 'group1', id, description: 'This is group1', streams: [idOf(s, 'Denmark'), idOf(s, 'Scotland')] }]);
  t.equal((await streams(s, id, 'add', ['Venice', 'Rome'])).status, 200);
  t.same((await groups(s))[0]!.streams, ['Denmark', 'Rome', 'Scotland', 'Venice'].map((n) => idOf(s, n)), 'channels by name');
  t.equal((await streams(s, id, 'remove', ['Rome', 'Denmark'])).status, 200);
  t.equal((await s.as(IAGO).patch(`/default_stream_groups/${id}`, { new_group_name: 'new group1', new_description: 'new' })).status, 200);
  t.same(await groups(s), [{ name: 'new group1', id, description: 'new', streams: [idOf(s, 'Scotland'), idOf(s, 'Venice')] }]);
  t.equal((await s.as(IAGO).delete(`/default_stream_groups/${id}`)).status, 200);
  t.same(await groups(s), []);
  t.same(errorOf(await s.as(IAGO).delete(`/default_stream_groups/${id}`)), bad(`Default channel group with id '${id}' does not exist.`));
});

t.test('groups are listed by name, with channel objects before level 330; guests see none', async (t) => {
  const s = testServer({ featureLevel: 329 });
  await create(s, { group_name: 'zeta', stream_names: ['Denmark'] });
  await create(s, { group_name: 'Alpha' });
  const listed = await groups(s);
  t.same(listed.map((g) => g.name), ['Alpha', 'zeta']);
  const [channel] = listed[1]!.streams as Array<Record<string, unknown>>;
  t.equal(channel?.stream_id, idOf(s, 'Denmark'));
  t.equal(channel?.name, 'Denmark');
  t.same(await groups(s, GUEST), []);
});

const createErrors: Array<[string, Params, string]> = [
  ['a blank name', { group_name: ' \u2003' }, "Invalid default channel group name ' \u2003'"],
  ['an empty name', { group_name: '' }, "Invalid default channel group name ''"],
  ['a name over 60 characters', { group_name: 'x'.repeat(61) }, 'Default channel group name too long (limit: 60 characters)'],
  ['a NULL character', { group_name: 'abc\0' }, "Default channel group name 'abc\0' contains NULL (0x00) characters."],
  ['a default channel', { group_name: 'g', stream_names: ['Denmark', 'Verona'] }, "'Verona' is a default channel and cannot be added to 'g'"],
  ['a default channel before the name check', { group_name: '', stream_names: ['Verona'] }, "'Verona' is a default channel and cannot be added to ''"],
  ['an unknown channel', { group_name: 'g', stream_names: ['random stream name'] }, "Invalid channel name 'random stream name'"],
];

for (const [what, params, msg] of createErrors) {
  t.test(`creating a group refuses ${what}`, async (t) => {
    const s = testServer();
    t.same(errorOf(await create(s, params)), bad(msg));
    t.equal(s.world.defaultStreamGroups.size, 0);
  });
}

t.test('creating a group refuses a private channel the administrator cannot read, as an unknown one', async (t) => {
  const s = testServer();
  const made = await s.as('hamlet@zulip.com').post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], invite_only: true });
  t.equal(made.status, 200);
  t.same(errorOf(await create(s, { group_name: 'g', stream_names: ['secret'] })), bad("Invalid channel name 'secret'"));
  t.equal((await s.as('hamlet@zulip.com').post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], principals: [s.world.usersByEmail.get('iago@zulip.com')!.id] })).status, 200);
  t.equal((await create(s, { group_name: 'g', stream_names: ['secret'] })).status, 200, 'private channels may join a group once readable');
});

t.test('a 60-character name is accepted; names are unique case-sensitively', async (t) => {
  const s = testServer();
  t.equal((await create(s, { group_name: '😎'.repeat(60) })).status, 200);
  t.equal((await create(s, { group_name: 'group1' })).status, 200);
  t.same(errorOf(await create(s, { group_name: 'group1' })), bad("Default channel group 'group1' already exists"));
  t.same(errorOf(await create(s, { group_name: 'group1', description: 'other' })), bad("Default channel group 'group1' already exists"));
  t.equal((await create(s, { group_name: 'Group1' })).status, 200);
});

t.test('adding and removing channels: the real errors, and nothing changes on one', async (t) => {
  const s = testServer();
  await create(s, { group_name: 'group1', stream_names: ['Denmark'] });
  const id = [...s.world.defaultStreamGroups.keys()][0]!;
  const missingOp = await s.as(IAGO).patch(`/default_stream_groups/${id}/streams`, { stream_names: ['Rome'] });
  t.same(errorOf(missingOp), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'op' argument" });
  t.same(errorOf(await s.as(IAGO).patch(`/default_stream_groups/${id}/streams`, { op: 'add' })), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'stream_names' argument" });
  t.same(errorOf(await streams(s, id, 'invalid', ['Rome'])), bad('Invalid value for "op". Specify one of "add" or "remove".'));
  t.same(errorOf(await streams(s, 12345, 'invalid', ['Rome'])), bad("Default channel group with id '12345' does not exist."), 'the group before op');
  t.same(errorOf(await streams(s, id, 'invalid', ['nowhere'])), bad("Invalid channel name 'nowhere'"), 'the channels before op');
  t.same(errorOf(await streams(s, id, 'add', ['Rome', 'Verona'])), bad("'Verona' is a default channel and cannot be added to 'group1'"));
  t.same(errorOf(await streams(s, id, 'add', ['Rome', 'Denmark'])), bad("Channel 'Denmark' is already present in default channel group 'group1'"));
  t.same(errorOf(await streams(s, id, 'add', ['Rome', 'Rome'])), bad("Channel 'Rome' is already present in default channel group 'group1'"));
  t.same(errorOf(await streams(s, id, 'remove', ['Denmark', 'Rome'])), bad("Channel 'Rome' is not present in default channel group 'group1'"));
  t.same((await groups(s))[0]!.streams, [idOf(s, 'Denmark')], 'no error changed the group');
});

t.test('updating a group: the real checks and their order', async (t) => {
  const s = testServer();
  await create(s, { group_name: 'group1' });
  await create(s, { group_name: 'group2' });
  const id = [...s.world.defaultStreamGroups.keys()][0]!;
  const must = bad('You must pass "new_description" or "new_group_name".');
  t.same(errorOf(await s.as(IAGO).patch(`/default_stream_groups/${id}`, {})), must);
  t.same(errorOf(await s.as(IAGO).patch('/default_stream_groups/12345', { new_group_name: '', new_description: '' })), must, 'empty values count as missing');
  t.same(errorOf(await s.as(IAGO).patch('/default_stream_groups/12345', { new_description: 'x' })), bad("Default channel group with id '12345' does not exist."));
  t.same(errorOf(await s.as(IAGO).patch(`/default_stream_groups/${id}`, { new_group_name: 'group2' })), bad("Default channel group 'group2' already exists"));
  t.same(errorOf(await s.as(IAGO).patch(`/default_stream_groups/${id}`, { new_group_name: 'group1' })), bad("This default channel group is already named 'group1'"));
  t.same(errorOf(await s.as(IAGO).patch(`/default_stream_groups/${id}`, { new_group_name: 'g'.repeat(61) })), bad('Default channel group name too long (limit: 60 characters)'));
  t.same(errorOf(await s.as(IAGO).patch(`/default_stream_groups/${id}`, { new_description: 'd'.repeat(1025) })), bad('new_description is too long (limit: 1024 characters)'));
  t.equal((await s.as(IAGO).patch(`/default_stream_groups/${id}`, { new_description: 'only' })).status, 200);
  t.same((await groups(s)).map((g) => [g.name, g.description]), [['group1', 'only'], ['group2', 'd']]);
});

t.test('only administrators manage groups, checked before any parameter', async (t) => {
  const s = testServer();
  await create(s, { group_name: 'group1' });
  const id = [...s.world.defaultStreamGroups.keys()][0]!;
  const denied = { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' };
  for (const email of ['shiva@zulip.com', 'hamlet@zulip.com', GUEST]) {
    t.same(errorOf(await s.as(email).post('/default_stream_groups/create', {})), denied, `${email} create`);
    t.same(errorOf(await s.as(email).patch(`/default_stream_groups/${id}`, {})), denied, `${email} update`);
    t.same(errorOf(await s.as(email).patch(`/default_stream_groups/${id}/streams`, {})), denied, `${email} channels`);
    t.same(errorOf(await s.as(email).delete(`/default_stream_groups/${id}`)), denied, `${email} delete`);
  }
  t.equal((await s.as('desdemona@zulip.com').delete(`/default_stream_groups/${id}`)).status, 200, 'owners are administrators');
});

t.test('archiving a channel takes it out of every group holding it', async (t) => {
  const s = testServer();
  await create(s, { group_name: 'a', stream_names: ['Denmark', 'Rome'] });
  await create(s, { group_name: 'b', stream_names: ['Denmark'] });
  t.equal((await s.as(IAGO).delete(`/streams/${idOf(s, 'Denmark')}`)).status, 200);
  t.same((await groups(s)).map((g) => g.streams), [[idOf(s, 'Rome')], []]);
});

t.test('a saved world keeps its groups', async (t) => {
  const { snapshotWorld, restoreWorld } = await import('../lib/state/world-snapshot.js');
  const s = testServer();
  await create(s, { group_name: 'kept', description: 'saved', stream_names: ['Denmark'] });
  const restored = restoreWorld(JSON.parse(JSON.stringify(snapshotWorld(s.world))), { clock: s.world.clock });
  t.same([...restored.defaultStreamGroups.values()], [...s.world.defaultStreamGroups.values()]);
  t.equal(restored.ids.next('defaultStreamGroup'), 2, 'the ID counter is kept');
});
