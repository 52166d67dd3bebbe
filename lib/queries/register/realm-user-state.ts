/**
 * The `realm_user` register state: everyone in the realm (active users, deactivated users and
 * cross-realm bots, each without `is_active`), and the requesting user's own identity and
 * permissions.
 */
import { isGuest, ROLE, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { render } from '../../rendering/render.js';
import type { World } from '../../state/world.js';
import { canAccessUser } from '../users/access.js';
import { hasGroupSetting } from '../groups/groups.js';
import { realmSetting } from './realm-permission-state.js';
import { Fields, type RegisterOptions } from './state-fields.js';
import { apiEmail, avatarUrl, inaccessibleUserPlaceholder, toApiUser } from '../users/users.js';

function withoutIsActive(user: Record<string, unknown>): Record<string, unknown> {
  const { is_active: _active, ...rest } = user;
  return rest;
}

/** The 500-pixel avatar URL (`avatar_url_medium`). */
export function mediumAvatarUrl(world: World, user: User): string {
  const url = avatarUrl(world, user, false) as string;
  if (user.avatarSource === 'U') return url.replace(/\.png\?/, '-medium.png?');
  return url.replace('?d=identicon', '?d=identicon&s=500');
}

function users(world: World, viewer: User, options: RegisterOptions): Record<string, unknown> {
  const view = { clientGravatar: options.clientGravatar, includeCustomProfileFields: true, renderMarkdown: (t: string) => render(world, t) };
  const active: Record<string, unknown>[] = [];
  const inactive: Record<string, unknown>[] = [];
  const crossRealm: Record<string, unknown>[] = [];
  for (const user of world.users.values()) {
    if (user.isSystemBot) {
      crossRealm.push(withoutIsActive(toApiUser(world, user, viewer, view)));
      continue;
    }
    let shown: Record<string, unknown>;
    if (canAccessUser(world, viewer, user)) shown = toApiUser(world, user, viewer, view);
    else if (options.capabilities.userListIncomplete) continue;
    else shown = inaccessibleUserPlaceholder(world, user);
    (user.isActive ? active : inactive).push(withoutIsActive(shown));
  }
  return { realm_users: active, realm_non_active_users: inactive, cross_realm_bots: crossRealm };
}

function permissions(world: World, user: User, fields: Fields): void {
  const holds = (name: string, fallback: Parameters<typeof realmSetting>[2]): boolean =>
    hasGroupSetting(world, user, realmSetting(world, name, fallback), { allowEveryone: false });
  const createPublic = holds('can_create_public_channel_group', 'role:members');
  const createPrivate = holds('can_create_private_channel_group', 'role:members');
  const webPublic = world.realm.enableSpectatorAccess && holds('can_create_web_public_channel_group', 'role:owners');
  fields
    .set('can_create_streams', createPublic || createPrivate)
    .since(FEATURES.CREATE_STREAM_POLICY_SPLIT, 'can_create_public_streams', createPublic)
    .since(FEATURES.CREATE_STREAM_POLICY_SPLIT, 'can_create_private_streams', createPrivate)
    .since(FEATURES.WEB_PUBLIC_STREAMS, 'can_create_web_public_streams', webPublic)
    .set('can_subscribe_other_users', holds('can_add_subscribers_group', 'role:members'))
    .since(FEATURES.INVITE_OTHERS, 'can_invite_others_to_realm', holds('can_invite_users_group', 'role:members'));
}

/** The `realm_user` state function. */
export function realmUserState(world: World, user: User, options: RegisterOptions): Record<string, unknown> {
  const fields = new Fields(world);
  for (const [key, value] of Object.entries(users(world, user, options))) fields.set(key, value);
  fields
    .set('avatar_source', user.avatarSource)
    .set('avatar_url_medium', mediumAvatarUrl(world, user))
    .set('avatar_url', avatarUrl(world, user, false));
  permissions(world, user, fields);
  const moderator = world.has(FEATURES.MODERATOR_OR_ABOVE) ? user.role <= ROLE.MODERATOR : user.role === ROLE.MODERATOR;
  return fields
    .set('is_admin', user.role === ROLE.OWNER || user.role === ROLE.ADMINISTRATOR)
    .set('is_owner', user.role === ROLE.OWNER)
    .since(FEATURES.MODERATOR_FLAG, 'is_moderator', moderator)
    .set('is_guest', isGuest(user))
    .set('user_id', user.id)
    .set('email', apiEmail(world, user))
    .set('delivery_email', user.deliveryEmail)
    .set('full_name', user.fullName)
    .build();
}
