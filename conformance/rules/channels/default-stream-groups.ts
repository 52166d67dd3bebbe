/**
 * Default channel groups (zerver/views/streams.py): `POST /default_stream_groups/create`,
 * `PATCH`/`DELETE /default_stream_groups/{group_id}`, `PATCH /default_stream_groups/{group_id}/streams`,
 * for administrators; read through `POST /register` (`realm_default_stream_groups`, empty for
 * guests) and the `default_stream_groups` event, which carries the whole list (channel IDs from
 * level 330, channel objects before). Every group a rule creates is deleted when it ends.
 *
 * Not asserted, because the real server answers them with a 500 or half-applies them: a second
 * group with a taken name and another description, names over 60 characters or with NULL in a
 * rename, descriptions over 1,024 characters, and an `add` that fails after earlier channels of
 * the same request (the real server keeps those, without an event).
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import type { Channel } from '../support/channel-fixtures.js';
import { openStreamAs } from '../support/event-stream.js';
import { awaitEvent, expectPrivilegeRefused } from '../support/org-checks.js';
import { NON_GUEST_READERS } from '../support/readers.js';
import { registerState } from '../support/state-fetch.js';
import type { Rule, RuleContext } from '../types.js';
import { ownChannel, STREAM_LEVELS } from './streams-support.js';

const CREATE = 'POST /default_stream_groups/create';
const ENDPOINTS = `${CREATE}, PATCH, DELETE /default_stream_groups/{group_id}, PATCH /default_stream_groups/{group_id}/streams`;
const SECTION = 'zerver/views/streams.py default stream groups; changelog 63, 330';
/** `DefaultStreamGroup.MAX_NAME_LENGTH`. */
const NAME_MAX = 60;

interface Group {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  /** Channel IDs, sorted by ID (the real order, by name, depends on the database's collation). */
  readonly streams: readonly number[];
}

function asGroup(entry: JsonObject): Group {
  const streams = Array.isArray(entry.streams) ? (entry.streams as unknown[]).map((s) => (typeof s === 'number' ? s : Number((s as JsonObject).stream_id))) : [];
  return { id: Number(entry.id), name: String(entry.name), description: String(entry.description), streams: streams.sort((a, b) => a - b) };
}

/** The realm's groups as `POST /register` gives them to `client`. */
async function listGroups(client: ApiClient): Promise<{ groups: Group[]; raw: unknown[] }> {
  const { body, reply } = await registerState(client, ['default_stream_groups']);
  const raw = body.realm_default_stream_groups;
  check(Array.isArray(raw), 'register has no realm_default_stream_groups list', reply);
  return { groups: (raw as JsonObject[]).map(asGroup), raw };
}

const findGroup = async (client: ApiClient, name: string): Promise<Group | undefined> => (await listGroups(client)).groups.find((g) => g.name === name);

/** Creates a group as the administrator and registers its deletion; returns its ID. */
async function createGroup(ctx: RuleContext, name: string, channels: readonly Channel[], description = ''): Promise<number> {
  expectSuccess(await ctx.as('admin').post('/default_stream_groups/create', { group_name: name, description, stream_names: channels.map((c) => c.name) }));
  const group = await findGroup(ctx.reader('admin'), name);
  check(group !== undefined, `the new default channel group ${name} is not in register's realm_default_stream_groups`);
  ctx.cleanup(`delete default channel group ${name}`, async (c) => {
    const reply = await c.as('admin').delete(`/default_stream_groups/${group.id}`);
    if (reply.status !== 200 && reply.status !== 400) throw new Error(`deleting default channel group ${group.id} answered HTTP ${reply.status}; it stays in the realm`);
  });
  return group.id;
}

const ids = (channels: readonly Channel[]): number[] => channels.map((c) => c.streamId).sort((a, b) => a - b);

const lifecycle: Rule = {
  id: 'default-stream-groups/lifecycle-read-back-and-events',
  title: 'an administrator creates a group of channels, adds and removes channels, renames and describes it and deletes it; each change is read back from register and announced to members by a default_stream_groups event with the whole list (channel IDs from level 330, objects before); archiving a channel takes it out of the group; a deleted or unknown group answers 400 BAD_REQUEST',
  endpoint: ENDPOINTS,
  section: SECTION,
  writes: true,
  realmWide: true,
  needs: ['admin', 'member'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const admin = ctx.as('admin');
    const [a, b, c] = [await ownChannel(ctx, 'dsg-a'), await ownChannel(ctx, 'dsg-b'), await ownChannel(ctx, 'dsg-c')] as [Channel, Channel, Channel];
    const queue = await openStreamAs(ctx, 'member', ['default_stream_groups']);
    const idsOnly = ctx.featureLevel >= STREAM_LEVELS.DEFAULT_STREAMS_EVENT_IDS;
    const name = ctx.name('dsg');
    const id = await createGroup(ctx, name, [a, b], 'first');
    const announced = async (what: string, expected: Group | undefined): Promise<void> => {
      const shows = (event: JsonObject): boolean => {
        if (event.type !== 'default_stream_groups' || !Array.isArray(event.default_stream_groups)) return false;
        const found = (event.default_stream_groups as JsonObject[]).map(asGroup).find((g) => g.id === id);
        return JSON.stringify(found) === JSON.stringify(expected);
      };
      const event = await awaitEvent(queue, shows, what);
      const entries = (event.default_stream_groups as JsonObject[]).flatMap((g) => (Array.isArray(g.streams) ? (g.streams as unknown[]) : []));
      check(entries.every((entry) => (typeof entry === 'number') === idsOnly), () => `default_stream_groups should list channel ${idsOnly ? 'IDs' : 'objects'}: ${JSON.stringify(event)}`);
      expectEqual(await findGroup(ctx.reader('admin'), expected?.name ?? name), expected, `register's group after ${what}`);
    };
    await announced('the creation', { id, name, description: 'first', streams: ids([a, b]) });
    expectSuccess(await admin.patch(`/default_stream_groups/${id}/streams`, { op: 'add', stream_names: [c.name] }));
    await announced('adding a channel', { id, name, description: 'first', streams: ids([a, b, c]) });
    expectSuccess(await admin.patch(`/default_stream_groups/${id}/streams`, { op: 'remove', stream_names: [a.name] }));
    await announced('removing a channel', { id, name, description: 'first', streams: ids([b, c]) });
    const renamed = ctx.name('dsg-renamed');
    expectSuccess(await admin.patch(`/default_stream_groups/${id}`, { new_group_name: renamed, new_description: 'second' }));
    await announced('the rename and description', { id, name: renamed, description: 'second', streams: ids([b, c]) });
    expectSuccess(await admin.delete(`/streams/${b.streamId}`));
    await announced('archiving a channel of the group', { id, name: renamed, description: 'second', streams: ids([c]) });
    expectSuccess(await admin.delete(`/default_stream_groups/${id}`));
    check((await findGroup(ctx.reader('admin'), renamed)) === undefined, `group ${renamed} is still listed after its deletion`);
    expectError(await admin.delete(`/default_stream_groups/${id}`), { status: 400, code: 'BAD_REQUEST' });
    expectError(await admin.patch(`/default_stream_groups/${id}`, { new_description: 'gone' }), { status: 400, code: 'BAD_REQUEST' });
  },
};

const refusals: Rule = {
  id: 'default-stream-groups/validation-refused',
  title: `a name of ${NAME_MAX} characters is accepted; a name of ${NAME_MAX + 1}, a blank name, a taken name, a default channel, an unknown channel, a channel already in the group (add) or not in it (remove), an unknown op, a rename to the same or a taken name and an update naming nothing are refused with 400 BAD_REQUEST (a missing op with REQUEST_VARIABLE_MISSING), and nothing changes`,
  endpoint: ENDPOINTS,
  section: SECTION,
  writes: true,
  realmWide: true,
  needs: ['admin'],
  readers: NON_GUEST_READERS,
  async run(ctx) {
    const admin = ctx.as('admin');
    const [inGroup, outside] = [await ownChannel(ctx, 'dsg-in'), await ownChannel(ctx, 'dsg-out')];
    const name = ctx.name('dsg');
    const id = await createGroup(ctx, name, [inGroup], 'kept');
    const long = `${ctx.name('dsg')}-`.padEnd(NAME_MAX, 'x');
    await createGroup(ctx, long, []);
    const { body } = await registerState(ctx.reader('admin'), ['default_streams']);
    const defaults = Array.isArray(body.realm_default_streams) ? (body.realm_default_streams as unknown[]) : [];
    const create = (params: Readonly<Record<string, unknown>>): Promise<Reply> => admin.post('/default_stream_groups/create', { description: '', stream_names: [], ...params });
    const refused: Array<[string, () => Promise<Reply>]> = [
      [`a name of ${NAME_MAX + 1} characters`, () => create({ group_name: `${long}y` })],
      ['a blank name', () => create({ group_name: '   ' })],
      ['a taken name', () => create({ group_name: name, description: 'kept', stream_names: [outside.name] })],
      ['an unknown channel', () => create({ group_name: ctx.name('dsg'), stream_names: [ctx.name('no-such-channel')] })],
      ['adding a channel already in the group', () => admin.patch(`/default_stream_groups/${id}/streams`, { op: 'add', stream_names: [inGroup.name] })],
      ['removing a channel not in the group', () => admin.patch(`/default_stream_groups/${id}/streams`, { op: 'remove', stream_names: [outside.name] })],
      ['an unknown op', () => admin.patch(`/default_stream_groups/${id}/streams`, { op: 'toggle', stream_names: [outside.name] })],
      ['a rename to the same name', () => admin.patch(`/default_stream_groups/${id}`, { new_group_name: name })],
      ['a rename to a taken name', () => admin.patch(`/default_stream_groups/${id}`, { new_group_name: long })],
      ['an update naming nothing', () => admin.patch(`/default_stream_groups/${id}`, {})],
    ];
    const firstDefault = defaults[0];
    if (firstDefault !== undefined) {
      const defaultName = typeof firstDefault === 'object' && firstDefault !== null ? String((firstDefault as JsonObject).name) : undefined;
      // From level 330 register lists IDs only; the channel's name is then read from GET /streams/{id}.
      const channelName = defaultName ?? String(((await admin.get(`/streams/${String(firstDefault)}`)).body?.stream as JsonObject | undefined)?.name);
      refused.push(['a default channel', () => admin.patch(`/default_stream_groups/${id}/streams`, { op: 'add', stream_names: [channelName] })]);
    }
    for (const [what, send] of refused) {
      const reply = await send();
      check(reply.status === 400 && reply.body?.code === 'BAD_REQUEST', `${what} should be refused with 400 BAD_REQUEST; answered HTTP ${reply.status} ${String(reply.body?.code ?? '')}`, reply);
    }
    expectError(await admin.patch(`/default_stream_groups/${id}/streams`, { stream_names: [outside.name] }), { status: 400, code: 'REQUEST_VARIABLE_MISSING' });
    expectEqual(await findGroup(ctx.reader('admin'), name), { id, name, description: 'kept', streams: [inGroup.streamId] }, 'the group after the refusals');
  },
};

const administratorsOnly: Rule = {
  id: 'default-stream-groups/administrators-only',
  title: 'moderators, members and guests are refused every default channel group endpoint with 400, even without parameters, and nothing changes; guests see no groups in register',
  endpoint: ENDPOINTS,
  section: SECTION,
  writes: true,
  realmWide: true,
  needs: ['admin', 'moderator', 'member', 'guest'],
  async run(ctx) {
    const channel = await ownChannel(ctx, 'dsg-refused', { members: ['member', 'guest'] });
    const name = ctx.name('dsg');
    const id = await createGroup(ctx, name, [channel], 'kept');
    for (const who of ['moderator', 'member', 'guest'] as const) {
      const client = ctx.as(who);
      expectPrivilegeRefused(await client.post('/default_stream_groups/create', {}), `${who}: create without parameters`);
      expectPrivilegeRefused(await client.post('/default_stream_groups/create', { group_name: ctx.name('dsg'), description: '', stream_names: [] }), `${who}: create`);
      expectPrivilegeRefused(await client.patch(`/default_stream_groups/${id}`, { new_description: 'taken over' }), `${who}: update`);
      expectPrivilegeRefused(await client.patch(`/default_stream_groups/${id}/streams`, { op: 'remove', stream_names: [channel.name] }), `${who}: remove a channel`);
      expectPrivilegeRefused(await client.delete(`/default_stream_groups/${id}`), `${who}: delete`);
    }
    expectEqual(await findGroup(ctx.as('member'), name), { id, name, description: 'kept', streams: [channel.streamId] }, 'the group after the refused requests');
    expectEqual((await listGroups(ctx.as('guest'))).raw, [], "the guest's realm_default_stream_groups");
  },
};

export const rules: readonly Rule[] = [lifecycle, refusals, administratorsOnly];
