/** User statuses as the API shows them (section 2.11; the real server's `zerver/lib/user_status.py`). */
import type { UserStatus } from '../../entities/personal.js';
import { boolSetting, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';
import { canAccessUser } from './access.js';

export interface ApiUserStatus {
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

/** From level 148 `away` mirrors `!presence_enabled` instead of being part of the status. */
function isAway(world: World, user: User, status: UserStatus): boolean {
  return world.has(FEATURES.AWAY_IS_PRESENCE_ENABLED) ? !boolSetting(user, 'presence_enabled') : status.away === true;
}

/** Keys only when meaningful: `away` if true, the text if non-empty, the emoji if named. */
export function statusToApi(world: World, user: User, status: UserStatus): ApiUserStatus {
  const out: ApiUserStatus = {};
  if (isAway(world, user, status)) out.away = true;
  if (status.statusText !== '') out.status_text = status.statusText;
  if (status.emojiName !== '') {
    out.emoji_name = status.emojiName;
    out.emoji_code = status.emojiCode;
    out.reaction_type = status.reactionType;
  }
  return out;
}

/** `GET /users/{user_id}/status`: `{}` when the user never set a status. */
export function userStatusOf(world: World, user: User): ApiUserStatus {
  const status = world.statuses.get(user.id);
  return status ? statusToApi(world, user, status) : {};
}

/**
 * Register's `user_status`: active users the viewer can access whose status says something
 * (rows that are empty and not away are left out), keyed by user ID.
 */
export function userStatusState(world: World, viewer: User): Record<string, ApiUserStatus> {
  const entries: Array<[string, ApiUserStatus]> = [];
  for (const [userId, status] of world.statuses) {
    const user = world.users.get(userId);
    if (!user || !user.isActive || !canAccessUser(world, viewer, user)) continue;
    const empty = status.statusText === '' && status.emojiName === '' && status.emojiCode === '' && status.reactionType === 'unicode_emoji';
    if (empty && !isAway(world, user, status)) continue;
    entries.push([String(userId), statusToApi(world, user, status)]);
  }
  return Object.fromEntries(entries);
}
