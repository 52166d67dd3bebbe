/**
 * `DELETE /users/me` (the real server's `deactivate_user_own_backend`): anyone may leave, but not
 * the realm's last active account nor its only human owner (`CANNOT_DEACTIVATE_LAST_USER`, with
 * `is_last_owner` and `entity`). The user's bots are deactivated with it.
 */
import { ApiError } from '../../errors.js';
import type { User } from '../../entities/user.js';
import { isLastHumanOwner } from '../../queries/users/users-admin.js';
import type { World } from '../../state/world.js';
import { doDeactivate } from './users-admin.js';

function cannotDeactivateLast(isLastOwner: boolean): ApiError {
  const entity = isLastOwner ? 'organization owner' : 'user';
  return new ApiError('CANNOT_DEACTIVATE_LAST_USER', 400, `Cannot deactivate the only ${entity}.`, { is_last_owner: isLastOwner, entity });
}

export function deactivateOwnAccount(world: World, user: User): void {
  const active = [...world.users.values()].filter((u) => u.isActive && !u.isSystemBot);
  if (active.length === 1) throw cannotDeactivateLast(false);
  if (isLastHumanOwner(world, user)) throw cannotDeactivateLast(true);
  for (const bot of world.users.values()) {
    if (bot.isBot && bot.isActive && bot.botOwnerId === user.id) doDeactivate(world, bot);
  }
  doDeactivate(world, user);
}
