/** Who may see whom, and who may read which channel (the real server's access helpers). */
import { Audience } from '../../state/audience.js';
import type { Stream } from '../../entities/stream.js';
import { isAdministrator, isGuest, type User } from '../../entities/user.js';
import { ascending } from '../../state/history/id-sources.js';
import type { World } from '../../state/world.js';
import { hasGroupSetting } from '../groups/groups.js';

/** Whether `viewer` may access `target` under the guest restriction (`can_access_all_users_group`). */
export function canAccessUser(world: World, viewer: User, target: User): boolean {
  if (viewer.id === target.id || target.isBot || !isGuest(viewer)) return true;
  const everyone = world.realm.settings.get('can_access_all_users_group');
  if (everyone && hasGroupSetting(world, viewer, everyone)) return true;
  return sharesConversation(world, viewer.id, target.id);
}

function sharesConversation(world: World, a: number, b: number): boolean {
  const [fewer, other] = world.subscriptionsOf(a).size <= world.subscriptionsOf(b).size ? [a, b] : [b, a];
  for (const [streamId, sub] of world.subscriptionsOf(fewer)) {
    if (sub.active && world.subscriptionsOf(other).get(streamId)?.active) return true;
  }
  for (const id of ascending(world.messages.index.user(a, 'direct'))) {
    const message = world.messages.get(id);
    if (message?.recipient.kind === 'direct' && message.flags.has(a) && message.recipient.userIds.includes(b)) return true;
  }
  return false;
}

export function isSubscribed(world: World, userId: number, streamId: number): boolean {
  return world.subscriptions.get(streamId)?.get(userId)?.active === true;
}

/** Members of these channel settings get content access to a private channel (FL 349 / 357). */
function inContentAccessGroup(world: World, user: User, stream: Stream): boolean {
  if (isGuest(user)) return false;
  for (const name of ['can_add_subscribers_group', 'can_subscribe_group'] as const) {
    const setting = stream.settings.get(name);
    if (setting && hasGroupSetting(world, user, setting, { allowEveryone: false })) return true;
  }
  return false;
}

/**
 * Content access: web-public, subscribed, public for non-guests, or a member of a group with
 * content access. Administrators do not get content access to private channels by role alone.
 */
export function hasContentAccess(world: World, user: User, stream: Stream): boolean {
  if (stream.isWebPublic) return true;
  if (isSubscribed(world, user.id, stream.id)) return true;
  if (!stream.inviteOnly && !isGuest(user)) return true;
  return inContentAccessGroup(world, user, stream);
}

/** Metadata access: content access, or administrators and channel administrators. */
export function hasMetadataAccess(world: World, user: User, stream: Stream): boolean {
  if (hasContentAccess(world, user, stream)) return true;
  if (isAdministrator(user)) return true;
  const admins = stream.settings.get('can_administer_channel_group');
  return admins !== undefined && hasGroupSetting(world, user, admins, { allowEveryone: false });
}

/** Whether the user may administer the channel (change its settings, remove others, ...). */
export function canAdministerChannel(world: World, user: User, stream: Stream): boolean {
  if (isAdministrator(user)) return true;
  const admins = stream.settings.get('can_administer_channel_group');
  return admins !== undefined && hasGroupSetting(world, user, admins, { allowEveryone: false });
}

/** Active subscribers of a channel. */
export function activeSubscriberIds(world: World, streamId: number): number[] {
  const ids: number[] = [];
  for (const [userId, sub] of world.subscriptions.get(streamId) ?? []) {
    if (sub.active && world.users.get(userId)?.isActive) ids.push(userId);
  }
  return ids;
}

/** The active human and bot users of the realm, as an audience (see lib/state/audience.ts). */
export function realmAudience(world: World): Audience {
  return new Audience(world, (id) => {
    const user = world.users.get(id);
    return user !== undefined && user.isActive && !user.isSystemBot;
  });
}

/** Active human and bot users of the realm (not cross-realm system bots). */
export function activeRealmUserIds(world: World): number[] {
  return [...realmAudience(world)];
}
