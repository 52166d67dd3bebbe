/**
 * Channel access at the emulated feature level (the real server's `user_has_content_access`,
 * `check_basic_stream_access`, `validate_user_access_to_subscribers`), and the user sets that
 * channel events go to.
 */
import { Audience } from '../../state/audience.js';
import type { ChannelPermissionSetting, Stream } from '../../entities/stream.js';
import { isAdministrator, isGuest, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';
import { isSubscribed } from '../users/access.js';
import { hasGroupSetting, usersWithGroupSetting } from '../groups/groups.js';

function inChannelGroup(world: World, user: User, stream: Stream, setting: ChannelPermissionSetting): boolean {
  const value = stream.settings.get(setting);
  // Every setting consulted here refuses `role:everyone`, so guests never qualify.
  return value !== undefined && hasGroupSetting(world, user, value, { allowEveryone: false });
}

/**
 * Content access: web-public, subscribed, public for non-guests; members of
 * `can_add_subscribers_group` (level 349) or `can_subscribe_group` (level 357) also get it for
 * private channels. Organization administrators do not, by role alone.
 */
export function hasChannelContentAccess(world: World, user: User, stream: Stream): boolean {
  if (stream.isWebPublic || isSubscribed(world, user.id, stream.id)) return true;
  if (isGuest(user)) return false;
  if (!stream.inviteOnly) return true;
  if (world.has(FEATURES.ADD_SUBSCRIBERS_WITHOUT_ACCESS) && inChannelGroup(world, user, stream, 'can_add_subscribers_group')) return true;
  return world.has(FEATURES.CAN_SUBSCRIBE_GROUP) && inChannelGroup(world, user, stream, 'can_subscribe_group');
}

/** Since level 349 the administer / add-subscribers / subscribe groups give metadata access. */
export function hasMetadataAccessViaGroups(world: World, user: User, stream: Stream): boolean {
  if (!world.has(FEATURES.ADD_SUBSCRIBERS_WITHOUT_ACCESS) || isGuest(user)) return false;
  if (inChannelGroup(world, user, stream, 'can_administer_channel_group')) return true;
  if (inChannelGroup(world, user, stream, 'can_add_subscribers_group')) return true;
  return world.has(FEATURES.CAN_SUBSCRIBE_GROUP) && inChannelGroup(world, user, stream, 'can_subscribe_group');
}

/** Basic access without content: content access, organization administrators, or the groups above. */
export function hasChannelMetadataAccess(world: World, user: User, stream: Stream): boolean {
  if (hasChannelContentAccess(world, user, stream)) return true;
  if (isAdministrator(user)) return true;
  return hasMetadataAccessViaGroups(world, user, stream);
}

/** Active non-guest users holding one of the metadata-granting groups of a channel. */
export function metadataGroupUserIds(world: World, stream: Stream): Set<number> {
  const ids = new Set<number>();
  if (!world.has(FEATURES.ADD_SUBSCRIBERS_WITHOUT_ACCESS)) return ids;
  const settings: ChannelPermissionSetting[] = ['can_administer_channel_group', 'can_add_subscribers_group'];
  if (world.has(FEATURES.CAN_SUBSCRIBE_GROUP)) settings.push('can_subscribe_group');
  for (const setting of settings) {
    const value = stream.settings.get(setting);
    if (!value) continue;
    for (const id of usersWithGroupSetting(world, value)) {
      const user = world.users.get(id);
      if (user && !isGuest(user) && !user.isSystemBot) ids.add(id);
    }
  }
  return ids;
}

/** Whether `user` may see who is subscribed (`validate_user_access_to_subscribers_helper`). */
export function canSeeSubscribers(world: World, user: User, stream: Stream): boolean {
  if (stream.isWebPublic) return true;
  const subscribed = isSubscribed(world, user.id, stream.id);
  if (isGuest(user)) return subscribed;
  if (isAdministrator(user)) return true;
  // Members of the metadata-granting groups get the peer events, so they see the list too.
  return !stream.inviteOnly || subscribed || hasMetadataAccessViaGroups(world, user, stream);
}

/** Active users of the realm, optionally without guests, as an audience (see lib/state/audience.ts). */
export function activeUsersAudience(world: World, options: { includeGuests: boolean }): Audience {
  return new Audience(world, (id) => {
    const user = world.users.get(id);
    return user !== undefined && user.isActive && !user.isSystemBot && (options.includeGuests || !isGuest(user));
  });
}

/** Active users of the realm, optionally without guests (cross-realm bots are not members). */
export function activeUserIds(world: World, options: { includeGuests: boolean }): Set<number> {
  return new Set(activeUsersAudience(world, options));
}

/** Active organization administrators and owners, bots included (`get_admin_users_and_bots`). */
export function adminUserIds(world: World): Set<number> {
  const ids = new Set<number>();
  for (const user of world.users.values()) if (user.isActive && !user.isSystemBot && isAdministrator(user)) ids.add(user.id);
  return ids;
}

/** Who sees a channel exist: everyone for web-public, non-guests for public, else admins and groups. */
export function channelCreationAudience(world: World, stream: Stream): Audience {
  if (stream.isWebPublic) return activeUsersAudience(world, { includeGuests: true });
  if (!stream.inviteOnly) return activeUsersAudience(world, { includeGuests: false });
  const seers = new Set([...adminUserIds(world), ...metadataGroupUserIds(world, stream)]);
  return new Audience(world, (id) => seers.has(id));
}
