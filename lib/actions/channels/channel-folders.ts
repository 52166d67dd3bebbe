/**
 * Creating, changing and reordering the realm's channel folders (zerver/actions/channel_folders.py).
 * Administrators only; that gate is the endpoints'. Every change is announced to every active
 * account of the realm in a `channel_folder` event (`add`, `update` with the changed fields, or
 * `reorder` with the requested order).
 */
import { badRequest } from '../../errors.js';
import type { ChannelFolder } from '../../entities/stream.js';
import type { User } from '../../entities/user.js';
import { firstUnprintablePosition } from '../../input/channel-names.js';
import { pythonStrip } from '../../input/topic-names.js';
import { channelFolderById, channelFolderInUse, toApiChannelFolder } from '../../queries/channels/channel-folders.js';
import { activeRealmUserIds } from '../../queries/users/access.js';
import { render } from '../../rendering/render.js';
import type { World } from '../../state/world.js';

/** What `PATCH /channel_folders/{channel_folder_id}` changes; absent means unchanged. */
export interface ChannelFolderChanges {
  readonly name?: string | undefined;
  readonly description?: string | undefined;
  readonly isArchived?: boolean | undefined;
}

/** `check_channel_folder_name`: blank, then an unprintable character, then a name taken in any case (archived folders too). */
function checkFolderName(world: World, name: string): void {
  if (pythonStrip(name) === '') throw badRequest("Channel folder name can't be empty.");
  const position = firstUnprintablePosition(name);
  if (position !== undefined) throw badRequest(`Invalid character in channel folder name, at position ${position}.`);
  const lower = name.toLowerCase();
  for (const folder of world.channelFolders.values()) {
    if (folder.name.toLowerCase() === lower) throw badRequest(`Channel folder '${name}' already exists`);
  }
}

const renderDescription = (world: World, description: string): string => (description === '' ? '' : render(world, description));

function sendUpdate(world: World, folder: ChannelFolder, data: Record<string, string | boolean>): void {
  world.events.send({ type: 'channel_folder', op: 'update', channel_folder_id: folder.id, data }, activeRealmUserIds(world));
}

/** Stores a new folder (last in the order: its order is its ID) and returns its ID. */
export function createChannelFolder(world: World, actor: User, name: string, description: string): number {
  checkFolderName(world, name);
  const id = world.ids.next('channelFolder');
  const folder: ChannelFolder = {
    id,
    name,
    description,
    renderedDescription: renderDescription(world, description),
    creatorId: actor.id,
    dateCreated: world.now(),
    isArchived: false,
    order: id,
  };
  world.channelFolders.set(id, folder);
  world.events.send({ type: 'channel_folder', op: 'add', channel_folder: toApiChannelFolder(world, folder) }, activeRealmUserIds(world));
  return id;
}

/**
 * Applies name, then description, then archiving in turn, as the real server does: each change
 * is its own event, an unchanged value sends none, and an error in a later part keeps the
 * earlier ones (a new name stays when archiving is refused).
 */
export function updateChannelFolder(world: World, folderId: number, changes: ChannelFolderChanges): void {
  const folder = channelFolderById(world, folderId);
  if (changes.name !== undefined && changes.name !== folder.name) {
    checkFolderName(world, changes.name);
    folder.name = changes.name;
    sendUpdate(world, folder, { name: folder.name });
  }
  if (changes.description !== undefined && changes.description !== folder.description) {
    folder.description = changes.description;
    folder.renderedDescription = renderDescription(world, changes.description);
    sendUpdate(world, folder, { description: folder.description, rendered_description: folder.renderedDescription });
  }
  if (changes.isArchived !== undefined && changes.isArchived !== folder.isArchived) {
    if (changes.isArchived && channelFolderInUse(world, folder.id)) {
      throw badRequest('You need to remove all the channels from this folder to archive it.');
    }
    folder.isArchived = changes.isArchived;
    sendUpdate(world, folder, { is_archived: folder.isArchived });
  }
}

/**
 * `try_reorder_realm_channel_folders`: every folder of the realm (archived ones too) must be
 * named; unknown IDs in the list are ignored, and an ID named twice takes its last position.
 */
export function reorderChannelFolders(world: World, order: readonly number[]): void {
  const position = new Map<number, number>();
  order.forEach((id, index) => position.set(id, index));
  for (const id of world.channelFolders.keys()) if (!position.has(id)) throw badRequest('Invalid order mapping.');
  for (const folder of world.channelFolders.values()) folder.order = position.get(folder.id)!;
  world.events.send({ type: 'channel_folder', op: 'reorder', order: [...order] }, activeRealmUserIds(world));
}
