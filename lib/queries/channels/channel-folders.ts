/**
 * Channel folders as the API shows them (zerver/lib/channel_folders.py): `GET /channel_folders`,
 * the `channel_folders` register state and the `channel_folder`/`add` event all use
 * `toApiChannelFolder`. Everyone in the realm sees every folder, guests included.
 */
import { badRequest } from '../../errors.js';
import type { ChannelFolder } from '../../entities/stream.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';

export interface ApiChannelFolder {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly rendered_description: string;
  readonly creator_id: number | null;
  readonly date_created: number;
  readonly is_archived: boolean;
  readonly order?: number;
}

export function toApiChannelFolder(world: World, folder: ChannelFolder): ApiChannelFolder {
  return {
    id: folder.id,
    name: folder.name,
    description: folder.description,
    rendered_description: folder.renderedDescription,
    creator_id: folder.creatorId,
    date_created: Math.floor(folder.dateCreated / 1000),
    is_archived: folder.isArchived,
    ...(world.has(FEATURES.CHANNEL_FOLDER_ORDER) ? { order: folder.order } : {}),
  };
}

/** By ID before level 414, by `order` from it (ties, which a reorder naming an ID twice can leave, by ID). */
export function listChannelFolders(world: World, includeArchived: boolean): ApiChannelFolder[] {
  const byOrder = world.has(FEATURES.CHANNEL_FOLDER_ORDER);
  return [...world.channelFolders.values()]
    .filter((folder) => includeArchived || !folder.isArchived)
    .sort((a, b) => (byOrder ? a.order - b.order : 0) || a.id - b.id)
    .map((folder) => toApiChannelFolder(world, folder));
}

/** `get_channel_folder_by_id`: an unknown ID is a 400 (BAD_REQUEST) with this text, whatever the request. */
export function channelFolderById(world: World, id: number): ChannelFolder {
  const folder = world.channelFolders.get(id);
  if (!folder) throw badRequest('Invalid channel folder ID');
  return folder;
}

/** `check_channel_folder_in_use`: any channel, archived ones too, keeps its folder from being archived. */
export function channelFolderInUse(world: World, id: number): boolean {
  for (const stream of world.streams.values()) if (stream.folderId === id) return true;
  return false;
}
