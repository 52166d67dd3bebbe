/**
 * Adding and deactivating custom emoji, as the real server's `upload_emoji` and `delete_emoji`
 * views check them. Every change sends the complete `realm_emoji` object (deactivated emoji
 * included) to every active account of the realm.
 */
import { ApiError, badRequest, insufficientPermission, resourceNotFound } from '../../errors.js';
import { checkDecodableImage } from '../../uploads/image-types.js';
import { EMOJI_NAME_TO_CODE } from '../../data/emoji-names.js';
import { isAdministrator, type User } from '../../entities/user.js';
import { activeRealmUserIds } from '../../queries/users/access.js';
import { hasGroupSetting } from '../../queries/groups/groups.js';
import { realmEmojiState } from '../../queries/realm/realm-emoji.js';
import { realmSetting } from '../../queries/register/realm-permission-state.js';
import type { World } from '../../state/world.js';

/** The real server's `MAX_EMOJI_FILE_SIZE_MIB` default. */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;

/** Image types both thumbnailed and shown inline by the real server, with the extension stored. */
const EMOJI_IMAGE_TYPES: ReadonlyMap<string, string> = new Map([
  ['image/avif', 'avif'],
  ['image/gif', 'gif'],
  ['image/jpeg', 'jpg'],
  ['image/png', 'png'],
  ['image/webp', 'webp'],
]);

export interface EmojiUpload {
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

/** The name as the real server reads it from the path: stripped, spaces become underscores. */
export const normalizeEmojiName = (raw: string): string => raw.trim().replaceAll(' ', '_');

/** `check_valid_emoji_name`: lowercase letters, digits, dashes and underscores, ending in a letter or digit. */
function checkEmojiName(name: string): void {
  if (name === '') throw badRequest('Emoji name is missing');
  if (/^[0-9a-z_-]+$/.test(name)) {
    if (/[_-]$/.test(name)) throw badRequest('Emoji names must end with either a letter or digit.');
    return;
  }
  throw badRequest('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
}

const activeEmojiNamed = (world: World, name: string) => [...world.realmEmoji.values()].find((emoji) => !emoji.deactivated && emoji.name === name);

function notify(world: World): void {
  world.events.send({ type: 'realm_emoji', op: 'update', realm_emoji: realmEmojiState(world) }, activeRealmUserIds(world));
}

/** Whether `user` may add custom emoji (`can_add_custom_emoji_group`, which never admits guests). */
export const canAddCustomEmoji = (world: World, user: User): boolean =>
  hasGroupSetting(world, user, realmSetting(world, 'can_add_custom_emoji_group', 'role:members'), { allowEveryone: false });

/**
 * Adds an emoji named `rawName` (already checked: not a guest, not a bot). `files` are the
 * uploaded files, one per form field; exactly one is required. Returns the new emoji's ID.
 */
export function addRealmEmoji(world: World, author: User, rawName: string, files: readonly EmojiUpload[]): number {
  const name = normalizeEmojiName(rawName);
  checkEmojiName(name);
  if (!canAddCustomEmoji(world, author)) throw insufficientPermission();
  if (activeEmojiNamed(world, name)) throw badRequest('A custom emoji with this name already exists.');
  const [file] = files;
  if (files.length !== 1 || !file) throw badRequest('You must upload exactly one file.');
  if (EMOJI_NAME_TO_CODE.has(name) && !isAdministrator(author)) throw badRequest('Only administrators can override default emoji.');
  if (file.bytes.length > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024) {
    throw badRequest(`Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`);
  }
  const extension = EMOJI_IMAGE_TYPES.get(file.contentType.toLowerCase());
  if (extension === undefined) throw new ApiError('BAD_IMAGE', 400, 'Invalid image format');
  // The declared type only chooses the stored extension; the bytes must decode as an image.
  checkDecodableImage(file.bytes);
  const id = world.ids.next('emoji');
  world.realmEmoji.set(id, {
    id,
    name,
    authorId: author.id,
    deactivated: false,
    fileName: `${id}.${extension}`,
    contentType: file.contentType.toLowerCase(),
    bytes: file.bytes,
  });
  notify(world);
  return id;
}

/**
 * Deactivates the active emoji named `name` (it stays listed, marked deactivated). Administrators
 * may deactivate any; others only emoji they added.
 */
export function deactivateRealmEmoji(world: World, actor: User, name: string): void {
  const emoji = activeEmojiNamed(world, name);
  if (!emoji) throw resourceNotFound(`Emoji '${name}' does not exist`);
  if (!isAdministrator(actor) && emoji.authorId !== actor.id) throw badRequest('Must be an organization administrator or emoji author');
  emoji.deactivated = true;
  notify(world);
}
