/** Reading uploaded files and their API shape (section 4.20; behaviour reference §5). */
import type { Attachment } from '../../entities/realm-records.js';
import type { User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';

export interface ApiAttachment {
  readonly id: number;
  readonly name: string;
  readonly path_id: string;
  readonly size: number;
  readonly create_time: number;
  readonly messages: ReadonlyArray<Readonly<Record<string, number>>>;
}

/**
 * The API object of an attachment: messages that still exist and reference it, by ID. Before
 * FL 22 each message carried its send time as `name` (and times were floats); since then it is
 * `date_sent`, in integer milliseconds.
 */
export function toApiAttachment(world: World, attachment: Attachment): ApiAttachment {
  const timeKey = world.has(FEATURES.ATTACHMENT_DATE_SENT) ? 'date_sent' : 'name';
  const messages = [...attachment.messageIds]
    .sort((a, b) => a - b)
    .flatMap((id) => {
      const message = world.messages.get(id);
      return message ? [Object.fromEntries([['id', id], [timeKey, message.sentAt]])] : [];
    });
  return {
    id: attachment.id,
    name: attachment.name,
    path_id: attachment.pathId,
    size: attachment.size,
    create_time: attachment.createTime,
    messages,
  };
}

/** `upload_space_used`: the bytes of every upload in the realm, not only the caller's. */
export function uploadSpaceUsed(world: World): number {
  let total = 0;
  for (const attachment of world.attachments.values()) total += attachment.size;
  return total;
}

/** The user's own uploads, oldest first; another user's never appear. */
export function attachmentsOf(world: World, user: User): Attachment[] {
  return [...world.attachments.values()].filter((a) => a.ownerId === user.id).sort((a, b) => a.id - b.id);
}

/** `attachments` as `GET /attachments` carries it. */
export function attachmentsState(world: World, user: User): ApiAttachment[] {
  return attachmentsOf(world, user).map((attachment) => toApiAttachment(world, attachment));
}

/** The attachment whose path a `/user_uploads/<path_id>` link names, if any. */
export function attachmentByPathId(world: World, pathId: string): Attachment | undefined {
  for (const attachment of world.attachments.values()) if (attachment.pathId === pathId) return attachment;
  return undefined;
}

/** The attachments message `messageId` references now. */
export function attachmentsOfMessage(world: World, messageId: number): Attachment[] {
  return [...world.attachments.values()].filter((a) => a.messageIds.has(messageId));
}

/**
 * `detached_uploads` of a content edit: of the attachments the message referenced before
 * (`before`), the acting user's own uploads that no message references any more.
 */
export function detachedUploads(world: World, user: User, before: readonly Attachment[]): ApiAttachment[] {
  return before
    .filter((a) => a.ownerId === user.id && world.attachments.has(a.id) && a.messageIds.size === 0)
    .map((a) => toApiAttachment(world, a));
}
