/**
 * Channel folders (level 389; `order` and `PATCH /channel_folders` from 414): administrators
 * create, rename, describe and archive folders; everyone, guests too, lists them; each change
 * reaches every user as a `channel_folder` event. The real server never deletes a folder, so
 * these rules are realm-wide and their cleanup archives every folder the run created (archived
 * folders stay listed with `include_archived`, under their run-tagged names).
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import type { CleanupContext } from '../../cleanup.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { awaitEvent, expectPrivilegeRefused } from '../support/org-checks.js';
import { openStreamAs } from '../support/event-stream.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';

const CREATE = 'POST /channel_folders/create';
const SECTION = 'api/create-channel-folder';
const FOLDERS_LEVEL = 389;
const ORDER_LEVEL = 414;
/** The real server's `ChannelFolder.MAX_NAME_LENGTH` and `MAX_DESCRIPTION_LENGTH` (register publishes them from 410). */
const NAME_MAX = 60;
const DESCRIPTION_MAX = 1024;

const folderShape = v.object({
  id: v.int({ min: 1 }),
  name: v.string(),
  description: v.string(),
  rendered_description: v.string(),
  creator_id: v.nullable(v.int()),
  date_created: v.int(),
  is_archived: v.bool(),
  order: v.optional(v.int()),
});

async function listFolders(client: ApiClient, includeArchived: boolean): Promise<JsonObject[]> {
  const reply = await client.get('/channel_folders', includeArchived ? { include_archived: true } : {});
  return expectShape(expectSuccess(reply), v.object({ channel_folders: v.array(folderShape) }), 'body', reply).channel_folders as JsonObject[];
}

async function createFolder(admin: ApiClient, name: string, description: string): Promise<number> {
  const reply = await admin.post('/channel_folders/create', { name, description });
  return expectShape(expectSuccess(reply), v.object({ channel_folder_id: v.int({ min: 1 }) }), 'body', reply).channel_folder_id;
}

/** A 400 with exactly this text. */
function expectRefused(reply: Reply, msg: string, what: string): void {
  const body = expectError(reply, { status: 400, code: 'BAD_REQUEST' });
  expectEqual(body.msg, msg, `the error text of ${what}`);
}

async function archiveRunFolders(c: CleanupContext, runTag: string): Promise<void> {
  const admin = c.as('admin');
  for (const folder of await listFolders(admin, false)) {
    if (!String(folder.name).includes(runTag)) continue;
    const reply = await admin.patch(`/channel_folders/${String(folder.id)}`, { is_archived: true });
    if (reply.status !== 200) throw new Error(`archiving channel folder ${String(folder.id)} answered HTTP ${reply.status}; it stays active`);
  }
}

function folderRule(header: RuleHeader, body: (ctx: RuleContext, admin: ApiClient) => Promise<void>): Rule {
  const prepare = async (ctx: RuleContext): Promise<ApiClient> => {
    ctx.cleanup("archive the run's channel folders", (c) => archiveRunFolders(c, ctx.runTag));
    return ctx.as('admin');
  };
  return fixtureRule(header, { endpoint: CREATE, levels: { min: FOLDERS_LEVEL }, writes: true, realmWide: true, needs: ['admin', 'member'] }, prepare, body);
}

const lifecycle = folderRule({
  id: 'channel-folders/create-update-archive',
  title: 'an administrator\'s new folder is listed to members and guests with its rendered description, creator and (from 414) order, and announced in a channel_folder add event; a rename, a new description and archiving each send an update event with the changed fields; an archived folder is listed only with include_archived',
  endpoint: `${CREATE}, GET /channel_folders, PATCH /channel_folders/{channel_folder_id}`,
  section: `${SECTION}; api/get-channel-folders; api/update-channel-folder; api/get-events`,
  needs: ['guest'],
}, async (ctx, admin) => {
  const queue = await openStreamAs(ctx, 'member', ['channel_folder']);
  const name = ctx.name('folder');
  const id = await createFolder(admin, name, 'Channels for **frontend**');
  const expected = {
    id,
    name,
    description: 'Channels for **frontend**',
    rendered_description: '<p>Channels for <strong>frontend</strong></p>',
    creator_id: ctx.identity('admin').userId,
    is_archived: false,
  };
  const member = ctx.as('member');
  const listed = (await listFolders(member, false)).find((folder) => folder.id === id);
  check(listed !== undefined, `folder ${id} is not in the member's GET /channel_folders`);
  const { date_created: _created, order, ...rest } = listed as JsonObject;
  expectEqual(rest, expected, 'the new folder as the member lists it');
  expectEqual(order === undefined, ctx.featureLevel < ORDER_LEVEL, `order is present exactly from level ${ORDER_LEVEL}`);
  check((await listFolders(ctx.as('guest'), false)).some((folder) => folder.id === id), `the guest does not list folder ${id}`);
  const added = await awaitEvent(queue, (event) => event.type === 'channel_folder' && event.op === 'add' && (event.channel_folder as JsonObject | undefined)?.id === id, `the channel_folder add event of folder ${id}`);
  expectEqual(added.channel_folder, listed, 'the add event carries the folder as listed');

  const renamed = ctx.name('renamed');
  expectSuccess(await admin.patch(`/channel_folders/${id}`, { name: renamed, description: 'plain', is_archived: true }));
  const updates: JsonObject[] = [];
  for (const what of ['name', 'description', 'is_archived']) {
    updates.push(await awaitEvent(queue, (event) => event.type === 'channel_folder' && event.op === 'update' && event.channel_folder_id === id, `the update event of ${what}`));
  }
  expectEqual(
    updates.map((event) => ({ id: event.channel_folder_id, data: event.data })),
    [
      { id, data: { name: renamed } },
      { id, data: { description: 'plain', rendered_description: '<p>plain</p>' } },
      { id, data: { is_archived: true } },
    ],
    'one update event per changed field, in the order name, description, archiving',
  );
  check(!(await listFolders(member, false)).some((folder) => folder.id === id), `archived folder ${id} is still listed without include_archived`);
  const archived = (await listFolders(member, true)).find((folder) => folder.id === id);
  expectEqual(archived && { name: archived.name, is_archived: archived.is_archived }, { name: renamed, is_archived: true }, 'the archived folder with include_archived');
});

const validation = folderRule({
  id: 'channel-folders/validation-refused',
  title: `a name of ${NAME_MAX} and a description of ${DESCRIPTION_MAX} characters are accepted; one more, a blank name, a taken name in another case, an unknown folder ID (for the folder or a channel's folder_id) are refused with the real texts and change nothing`,
  endpoint: `${CREATE}, PATCH /channel_folders/{channel_folder_id}, PATCH /streams/{stream_id}`,
  section: `${SECTION}; api/update-channel-folder; api/update-stream`,
}, async (ctx, admin) => {
  const longName = ctx.name('f').padEnd(NAME_MAX, 'n');
  const id = await createFolder(admin, longName, 'd'.repeat(DESCRIPTION_MAX));
  const tooLong = ctx.name('g').padEnd(NAME_MAX + 1, 'n');
  expectRefused(await admin.post('/channel_folders/create', { name: tooLong, description: '' }), `name is too long (limit: ${NAME_MAX} characters)`, `a name of ${NAME_MAX + 1} characters`);
  const described = ctx.name('h');
  expectRefused(await admin.post('/channel_folders/create', { name: described, description: 'd'.repeat(DESCRIPTION_MAX + 1) }), `description is too long (limit: ${DESCRIPTION_MAX} characters)`, `a description of ${DESCRIPTION_MAX + 1} characters`);
  expectRefused(await admin.post('/channel_folders/create', { name: '  ', description: '' }), "Channel folder name can't be empty.", 'a blank name');
  const upper = longName.toUpperCase();
  expectRefused(await admin.post('/channel_folders/create', { name: upper, description: '' }), `Channel folder '${upper}' already exists`, 'a taken name in capitals');
  const unknown = id + 1_000_000;
  expectRefused(await admin.patch(`/channel_folders/${unknown}`, { name: ctx.name('i') }), 'Invalid channel folder ID', 'an unknown folder');
  const channels = (await ctx.reader('member').get('/streams')).body?.streams;
  const someChannel = Array.isArray(channels) ? (channels[0] as JsonObject | undefined) : undefined;
  if (someChannel) expectRefused(await admin.patch(`/streams/${String(someChannel.stream_id)}`, { folder_id: unknown }), 'Invalid channel folder ID', "an unknown folder as a channel's folder_id");
  const refusedNames = new Set([tooLong, described, upper].map((text) => text.toLowerCase()));
  const listed = await listFolders(ctx.as('member'), true);
  expectEqual(listed.filter((folder) => refusedNames.has(String(folder.name).toLowerCase())).map((folder) => folder.id), [id], 'the folders named as the refused requests (only the first, accepted one)');
  expectEqual(listed.find((folder) => folder.id === id)?.name, longName, 'the accepted folder keeps its name');
});

const administratorsOnly = folderRule({
  id: 'channel-folders/administrators-only',
  title: 'moderators, members and guests may neither create, change nor (from 414) reorder channel folders (400) and change nothing',
  endpoint: `${CREATE}, PATCH /channel_folders/{channel_folder_id}, PATCH /channel_folders`,
  section: `${SECTION}; api/update-channel-folder; api/patch-channel-folders`,
  needs: ['moderator', 'guest'],
}, async (ctx, admin) => {
  const name = ctx.name('folder');
  const id = await createFolder(admin, name, '');
  const tried = new Map<string, string>();
  for (const who of ['moderator', 'member', 'guest'] as const) {
    const client = ctx.as(who);
    const attempted = ctx.name(who);
    tried.set(who, attempted);
    expectPrivilegeRefused(await client.post('/channel_folders/create', { name: attempted, description: '' }), `POST /channel_folders/create as the ${who}`);
    expectPrivilegeRefused(await client.patch(`/channel_folders/${id}`, { name: attempted }), `renaming a folder as the ${who}`);
    if (ctx.featureLevel >= ORDER_LEVEL) expectPrivilegeRefused(await client.patch('/channel_folders', { order: [id] }), `PATCH /channel_folders as the ${who}`);
  }
  const listed = await listFolders(ctx.as('member'), true);
  expectEqual(listed.find((entry) => entry.id === id)?.name, name, "the folder's name after the refused requests");
  const stored = [...tried].filter(([, attempted]) => listed.some((entry) => entry.name === attempted));
  check(stored.length === 0, `refused creations stored folders (as ${stored.map(([who]) => who).join(', ')})`);
});

export const rules: readonly Rule[] = [lifecycle, validation, administratorsOnly];
