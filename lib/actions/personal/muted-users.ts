/**
 * Muting users (`POST`/`DELETE /users/me/muted_users/{muted_user_id}`, level 48), as the real
 * server's `mute_user` / `unmute_user`: deactivated users and (from level 188) bots may be muted, oneself not.
 * Muting marks the user's messages from the muted user as read; each change sends the muter a
 * `muted_users` event with the whole list.
 */
import { badRequest } from '../../errors.js';
import type { User } from '../../entities/user.js';
import { mutedUsersOf } from '../../queries/personal/muted-lists.js';
import { accessUserById } from '../../queries/users/users.js';
import { unreadMessagesOf } from '../../queries/messages/unread.js';
import type { World } from '../../state/world.js';
import { addFlag } from '../messages/message-flags.js';
import { FEATURES } from '../../features/feature-levels.js';

/** Deactivated users may always be muted; bots only from level 188 ("No such user" before). */
const mutableTarget = (world: World, user: User, id: number): User =>
  accessUserById(world, user, id, { allowDeactivated: true, allowBots: world.has(FEATURES.MUTE_BOTS) });

const notify = (world: World, user: User): void => world.events.send({ type: 'muted_users', muted_users: mutedUsersOf(world, user) }, [user.id]);

/** Checks in the real order: oneself, the target (`No such user`, ...), already muted. */
export function muteUser(world: World, user: User, mutedUserId: number): void {
  if (mutedUserId === user.id) throw badRequest('Cannot mute self');
  const target = mutableTarget(world, user, mutedUserId);
  const list = world.mutedUsers.get(user.id) ?? [];
  if (list.some((m) => m.id === target.id)) throw badRequest('User already muted');
  world.mutedUsers.set(user.id, [...list, { id: target.id, timestamp: Math.floor(world.now() / 1000) }]);
  const fromMuted = unreadMessagesOf(world, user.id).filter((m) => m.senderId === target.id);
  addFlag(world, user, fromMuted, 'read');
  notify(world, user);
}

export function unmuteUser(world: World, user: User, mutedUserId: number): void {
  const target = mutableTarget(world, user, mutedUserId);
  const list = world.mutedUsers.get(user.id) ?? [];
  if (!list.some((m) => m.id === target.id)) throw badRequest('User is not muted');
  world.mutedUsers.set(user.id, list.filter((m) => m.id !== target.id));
  notify(world, user);
}
