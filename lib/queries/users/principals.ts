/**
 * `principals` of the subscription endpoints: user IDs or API emails, resolved with the real
 * server's `bulk_principals_to_user_profiles` errors (section 4.1, rule 4).
 */
import { ApiError, badRequest } from '../../errors.js';
import type { User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';
import { accessUserById, apiEmail, canSeeDeliveryEmail } from './users.js';

export type Principal = number | string;

/** An email names the user whose API email it is, or whose real email the caller may see. */
function userByPrincipalEmail(world: World, viewer: User, email: string): User | undefined {
  const lower = email.toLowerCase();
  for (const user of world.users.values()) {
    if (user.isSystemBot) continue;
    if (apiEmail(world, user).toLowerCase() === lower) return user;
    if (user.deliveryEmail.toLowerCase() === lower && canSeeDeliveryEmail(viewer, user)) return user;
  }
  return undefined;
}

function resolveOne(world: World, viewer: User, principal: Principal): User {
  const id = typeof principal === 'number' ? principal : userByPrincipalEmail(world, viewer, principal)?.id;
  if (id === undefined) throw badRequest('No such user');
  return accessUserById(world, viewer, id, { allowDeactivated: false, allowBots: true });
}

/**
 * Resolves every principal in order (duplicates once). Unknown, cross-realm or deactivated users
 * are 400 BAD_REQUEST (`No such user`, `User is deactivated`); before level 208 every failure was
 * 403 UNAUTHORIZED_PRINCIPAL naming the principal.
 */
export function resolvePrincipals(world: World, viewer: User, principals: readonly Principal[]): User[] {
  const users = new Map<number, User>();
  for (const principal of principals) {
    let user: User;
    try {
      user = resolveOne(world, viewer, principal);
    } catch (error) {
      if (error instanceof ApiError && !world.has(FEATURES.PRINCIPAL_ERROR_IS_BAD_REQUEST)) {
        throw new ApiError('UNAUTHORIZED_PRINCIPAL', 403, `User not authorized to execute queries on behalf of '${String(principal)}'`, {
          principal,
        });
      }
      throw error;
    }
    users.set(user.id, user);
  }
  return [...users.values()];
}
