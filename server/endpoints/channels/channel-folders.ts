/**
 * Channel folders: `GET /channel_folders` (everyone, guests too), and for administrators
 * `POST /channel_folders/create`, `PATCH /channel_folders/{channel_folder_id}` (level 389) and
 * `PATCH /channel_folders` (reorder, level 414). The administrator gate runs before any parameter
 * is read, as the real server's `require_realm_admin`; the length limits are the parameters' own.
 */
import { createChannelFolder, reorderChannelFolders, updateChannelFolder } from '../../../lib/actions/channels/channel-folders.js';
import { mustBeAdministrator } from '../../../lib/errors.js';
import { isAdministrator } from '../../../lib/entities/user.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { bool, int, list } from '../../../lib/input/schema.js';
import { listChannelFolders } from '../../../lib/queries/channels/channel-folders.js';
import { MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH, MAX_CHANNEL_FOLDER_NAME_LENGTH } from '../../../lib/queries/register/server-limits-state.js';
import { type AuthedContext, authed, type RouteDef } from '../../app/endpoint.js';
import { json, str } from '../../app/params.js';

const since = FEATURES.CHANNEL_FOLDERS;

const adminOnly = ({ user }: AuthedContext): void => {
  if (!isAdministrator(user)) throw mustBeAdministrator();
};

const nameParam = () => str({ maxLength: MAX_CHANNEL_FOLDER_NAME_LENGTH });
const descriptionParam = () => str({ maxLength: MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH });

const listFolders = authed({
  since,
  params: { include_archived: json(bool).default(false) },
  run: ({ world }, args) => ({ channel_folders: listChannelFolders(world, args.include_archived) }),
});

const createFolder = authed({
  since,
  gate: adminOnly,
  params: { description: descriptionParam().required(), name: nameParam().required() },
  run: ({ world, user }, args) => ({ channel_folder_id: createChannelFolder(world, user, args.name, args.description) }),
});

const updateFolder = authed({
  since,
  gate: adminOnly,
  params: { description: descriptionParam(), is_archived: json(bool), name: nameParam() },
  run({ world, path }, args) {
    updateChannelFolder(world, Number(path.get('channel_folder_id')), {
      name: args.name,
      description: args.description,
      isArchived: args.is_archived,
    });
    return {};
  },
});

const reorderFolders = authed({
  since: FEATURES.CHANNEL_FOLDER_ORDER,
  gate: adminOnly,
  params: { order: json(list(int)).required() },
  run({ world }, { order }) {
    reorderChannelFolders(world, order);
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/channel_folders', methods: { GET: listFolders, PATCH: reorderFolders } },
  { path: '/channel_folders/create', methods: { POST: createFolder } },
  { path: '/channel_folders/{channel_folder_id:int}', methods: { PATCH: updateFolder } },
];
