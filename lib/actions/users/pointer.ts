/**
 * Moving the pointer (`PUT`/`POST /users/me/pointer`, levels below 23), as the real server's
 * `update_pointer_backend` and `do_update_pointer`: the pointer only moves forward, onto a
 * message the user has a row for; the move is announced to the user's own queues.
 */
import { badRequest } from '../../errors.js';
import type { User } from '../../entities/user.js';
import { pointerOf } from '../../queries/users/pointer.js';
import { unreadMessagesOf } from '../../queries/messages/unread.js';
import type { World } from '../../state/world.js';

/** The clients the real server treats as its old Android app (`request.client.name`, lowercased). */
const ANDROID_CLIENTS: ReadonlySet<string> = new Set(['android', 'zulipandroid']);

export const isAndroidClient = (client: string): boolean => ANDROID_CLIENTS.has(client.toLowerCase());

/**
 * Moves the user's pointer to `pointer` when that is ahead of it. A move asked by the old Android
 * app also marks the messages it passes over as read, silently (no flag event), as the real
 * server's shim for that app did.
 */
export function updatePointer(world: World, user: User, pointer: number, options: { readonly markPassedRead: boolean }): void {
  const previous = pointerOf(world, user.id);
  if (pointer <= previous) return;
  if (world.messages.get(pointer)?.flags.has(user.id) !== true) throw badRequest('Invalid message ID');
  world.pointers.set(user.id, pointer);
  if (options.markPassedRead) {
    for (const message of unreadMessagesOf(world, user.id)) {
      if (message.id > previous && message.id <= pointer) message.flags.get(user.id)?.add('read');
    }
  }
  world.events.send({ type: 'pointer', pointer }, [user.id]);
}
