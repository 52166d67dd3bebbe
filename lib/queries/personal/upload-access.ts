/**
 * Who may download an uploaded file (the real server's `validate_attachment_request`): the
 * uploader; anyone who can read a message that links it (a DM or group DM they received, a
 * channel message they can read); any non-guest member when a public channel message links it;
 * and, without an account, spectators when a web-public channel message links it and the realm
 * allows spectators.
 */
import type { Attachment } from '../../entities/realm-records.js';
import { isGuest, type User } from '../../entities/user.js';
import type { World } from '../../state/world.js';
import { canReadMessage } from '../messages/messages.js';

export type UploadAccess = { readonly kind: 'missing' } | { readonly kind: 'forbidden' | 'allowed'; readonly attachment: Attachment };

/** The attachment stored under `pathId` (`<realm_id>/<xx>/<random>/<name>`), if any. */
export function attachmentByPath(world: World, pathId: string): Attachment | undefined {
  for (const attachment of world.attachments.values()) if (attachment.pathId === pathId) return attachment;
  return undefined;
}

/** The channels of the messages that link `attachment`. */
function linkingChannels(world: World, attachment: Attachment) {
  const channels = [];
  for (const id of attachment.messageIds) {
    const message = world.messages.get(id);
    const stream = message?.recipient.kind === 'stream' ? world.streams.get(message.recipient.streamId) : undefined;
    if (stream) channels.push(stream);
  }
  return channels;
}

function mayRead(world: World, viewer: User | undefined, attachment: Attachment): boolean {
  if (viewer === undefined) {
    return world.realm.enableSpectatorAccess && linkingChannels(world, attachment).some((s) => s.isWebPublic && !s.inviteOnly);
  }
  if (viewer.id === attachment.ownerId) return true;
  if (!isGuest(viewer) && linkingChannels(world, attachment).some((s) => !s.inviteOnly)) return true;
  for (const id of attachment.messageIds) {
    const message = world.messages.get(id);
    if (message && canReadMessage(world, viewer, message)) return true;
  }
  return false;
}

/** Whether `viewer` (undefined for a spectator) may download the file at `pathId`. */
export function uploadAccess(world: World, viewer: User | undefined, pathId: string): UploadAccess {
  const attachment = attachmentByPath(world, pathId);
  if (!attachment) return { kind: 'missing' };
  return { kind: mayRead(world, viewer, attachment) ? 'allowed' : 'forbidden', attachment };
}
