/**
 * The events of an avatar URL change (the real server's `notify_avatar_url_change`): a bot's
 * record to those who keep it, then the user's new avatar fields to everyone who can access them.
 */
import type { User } from '../../entities/user.js';
import { botAudienceIds } from '../../queries/users/bots.js';
import { mediumAvatarUrl } from '../../queries/register/realm-user-state.js';
import { userIdsWhoCanAccess } from '../../queries/users/users-admin.js';
import { avatarUrl } from '../../queries/users/users.js';
import type { World } from '../../state/world.js';

export function notifyAvatarUrlChange(world: World, user: User): void {
  if (user.isBot) {
    world.events.send({ type: 'realm_bot', op: 'update', bot: { user_id: user.id, avatar_url: avatarUrl(world, user, false) } }, botAudienceIds(world, user));
  }
  const person = {
    avatar_source: user.avatarSource,
    avatar_url: avatarUrl(world, user, false),
    avatar_url_medium: mediumAvatarUrl(world, user),
    avatar_version: user.avatarVersion,
    user_id: user.id,
  };
  world.events.send({ type: 'realm_user', op: 'update', person }, userIdsWhoCanAccess(world, user));
}
