/**
 * Uploaded files (section 4.20; behaviour reference §5): uploading, deleting, linking to the
 * messages that reference them, and the two automatic deletions of 4.20 (after the last
 * referencing message is deleted; a few weeks after upload for files never used). The owner
 * gets `attachment` events (`add`, `update`, `remove`) carrying the realm's `upload_space_used`.
 */
import { badRequest } from '../../errors.js';
import type { Attachment } from '../../entities/realm-records.js';
import type { User } from '../../entities/user.js';
import { toApiAttachment, uploadSpaceUsed } from '../../queries/personal/attachments.js';
import { newPathId, unquote } from '../../uploads/names.js';
import type { World } from '../../state/world.js';
import { oneOf, trimWhere } from '../../input/strings.js';

/** Punctuation after a link that is taken as the sentence's, not the path's. */
const isTrailingPunctuation = oneOf('.,;:!?');

/** Files never referenced by a message are deleted this long after upload (the real server's default: 5 weeks). */
export const UNCLAIMED_ATTACHMENT_LIFETIME_MS = 5 * 7 * 24 * 60 * 60 * 1000;

export interface UploadInput {
  /** The stored name: the client's name as the multipart layer cleaned it, URL-unquoted, without NUL. */
  readonly name: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

export interface UploadResult {
  readonly url: string;
  readonly filename: string;
  readonly attachment: Attachment;
}

function notify(world: World, ownerId: number, op: 'add' | 'update' | 'remove', attachment: Attachment): void {
  const payload = op === 'remove' ? { id: attachment.id } : toApiAttachment(world, attachment);
  world.events.send({ type: 'attachment', op, attachment: payload, upload_space_used: uploadSpaceUsed(world) }, [ownerId]);
}

/** The size check of an upload (the self-hosted wording; there is no plan-based limit here). */
export function checkUploadSize(world: World, size: number): void {
  const limit = world.realm.maxFileUploadSizeMib;
  if (limit * 1024 * 1024 < size) {
    throw badRequest(`File is larger than this server's configured maximum upload size (${limit} MiB).`);
  }
}

/** Stores a file for `user` under a new random path; the file is unclaimed until a message links it. */
export function uploadAttachment(world: World, user: User, input: UploadInput): UploadResult {
  checkUploadSize(world, input.bytes.length);
  const pathId = newPathId(world.realm.id, input.name);
  const attachment: Attachment = {
    id: world.ids.next('attachment'),
    ownerId: user.id,
    name: input.name,
    pathId,
    size: input.bytes.length,
    createTime: world.now(),
    contentType: input.contentType,
    bytes: input.bytes,
    messageIds: new Set(),
  };
  world.attachments.set(attachment.id, attachment);
  notify(world, user.id, 'add', attachment);
  return { url: `/user_uploads/${pathId}`, filename: input.name, attachment };
}

function remove(world: World, attachment: Attachment): void {
  world.attachments.delete(attachment.id);
  notify(world, attachment.ownerId, 'remove', attachment);
}

/**
 * Deletes one of the caller's own uploads, even while messages still link it. A missing ID and
 * another user's upload are the same error.
 */
export function deleteAttachment(world: World, user: User, attachmentId: number): void {
  const attachment = world.attachments.get(attachmentId);
  if (!attachment || attachment.ownerId !== user.id) throw badRequest('Invalid attachment');
  remove(world, attachment);
}

/** The `/user_uploads/<path_id>` paths a message's content names (relative or absolute links, raw or percent-encoded). */
export function referencedPathIds(content: string): Set<string> {
  const paths = new Set<string>();
  for (const match of content.matchAll(/\/user_uploads\/([^\s)\]>"'<]+)/g)) {
    const raw = match[1] as string;
    for (const candidate of [raw, trimWhere(raw, isTrailingPunctuation, 'end')]) {
      paths.add(candidate);
      paths.add(unquote(candidate));
    }
  }
  return paths;
}

/**
 * Records which of the sender's uploads the message `messageId` references, from its content.
 * Call it after sending and after every content edit: links the content no longer names are
 * dropped (the file then counts as unused again). Each attachment whose message list changed
 * is sent to its owner as an `update` event. Another user's uploads are not claimed here.
 */
export function linkAttachmentsInContent(world: World, messageId: number, content: string): void {
  const message = world.messages.get(messageId);
  if (!message) return;
  const referenced = referencedPathIds(content);
  for (const attachment of world.attachments.values()) {
    if (attachment.ownerId !== message.senderId) continue;
    const linked = attachment.messageIds.has(messageId);
    const wanted = referenced.has(attachment.pathId);
    if (linked === wanted) continue;
    if (wanted) attachment.messageIds.add(messageId);
    else attachment.messageIds.delete(messageId);
    notify(world, attachment.ownerId, 'update', attachment);
  }
}

/**
 * Forgets a deleted message. A file whose last referencing message this was is deleted (4.20),
 * with a `remove` event to its owner. The real server archives the message and removes the file
 * later, in a periodic job; here the deletion is immediate.
 */
export function onMessageDeleted(world: World, messageId: number): void {
  for (const attachment of [...world.attachments.values()]) {
    if (!attachment.messageIds.delete(messageId)) continue;
    if (attachment.messageIds.size === 0) remove(world, attachment);
  }
}

/**
 * The periodic clean-up: deletes every file that no message references and that was uploaded
 * more than `lifetimeMs` ago on the world's clock. Returns the deleted attachment IDs.
 */
export function sweepUnusedAttachments(world: World, lifetimeMs: number = UNCLAIMED_ATTACHMENT_LIFETIME_MS): number[] {
  const cutoff = world.now() - lifetimeMs;
  const deleted: number[] = [];
  for (const attachment of [...world.attachments.values()]) {
    if (attachment.messageIds.size > 0 || attachment.createTime >= cutoff) continue;
    remove(world, attachment);
    deleted.push(attachment.id);
  }
  return deleted;
}
