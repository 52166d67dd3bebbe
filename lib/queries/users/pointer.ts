/**
 * The pointer (levels below 23): the ID of the message a user last read up to in the web app's
 * home view, or -1 before the user ever moved it, as the real server's `UserProfile.pointer`.
 */
import type { User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';

/** The pointer of a user who never moved it: the real server creates every account with -1. */
export const INITIAL_POINTER = -1;

export const pointerOf = (world: World, userId: number): number => world.pointers.get(userId) ?? INITIAL_POINTER;

/** The `pointer` register state: served below level 23 only. */
export function pointerState(world: World, user: User): Record<string, unknown> {
  return world.has(FEATURES.POINTER_REMOVED) ? {} : { pointer: pointerOf(world, user.id) };
}
