/**
 * Who may change or archive a channel (`access_stream_for_delete_or_update_requiring_metadata_access`
 * and, before level 325, `check_stream_access_for_delete_or_update`).
 */
import { ApiError, badRequest, mustBeAdministrator } from '../../errors.js';
import type { Stream } from '../../entities/stream.js';
import { isAdministrator, isGuest, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';
import { isSubscribed } from '../users/access.js';
import { hasChannelContentAccess, hasChannelMetadataAccess } from './channel-access.js';
import { hasGroupSetting } from '../groups/groups.js';

export const cannotAdministerChannel = (): ApiError => badRequest('You do not have permission to administer this channel.');

/**
 * `can_administer_accessible_channel`: a member of `can_administer_channel_group` (level 325)
 * with access to the channel: metadata access from level 349, content access before.
 */
export function isChannelAdministrator(world: World, user: User, stream: Stream): boolean {
  if (!world.has(FEATURES.CAN_ADMINISTER_CHANNEL_GROUP) || isGuest(user)) return false;
  const value = stream.settings.get('can_administer_channel_group');
  if (!value || !hasGroupSetting(world, user, value, { allowEveryone: false })) return false;
  return world.has(FEATURES.ADD_SUBSCRIBERS_WITHOUT_ACCESS) ? hasChannelMetadataAccess(world, user, stream) : hasChannelContentAccess(world, user, stream);
}

/**
 * The channel a user may administer, archived ones included. Unknown channels, and channels the
 * user cannot see, are `Invalid channel ID`; a channel the user can read but not administer is
 * `You do not have permission to administer this channel.` (before level 325: `Must be an
 * organization administrator`, and a private channel the user is not subscribed to is invalid).
 */
export function accessChannelForAdministration(world: World, user: User, streamId: number): Stream {
  const stream = world.streams.get(streamId);
  if (!stream) throw badRequest('Invalid channel ID');
  if (isAdministrator(user)) return stream;
  if (!world.has(FEATURES.CAN_ADMINISTER_CHANNEL_GROUP)) {
    if (stream.inviteOnly && !isSubscribed(world, user.id, stream.id)) throw badRequest('Invalid channel ID');
    throw mustBeAdministrator();
  }
  if (isChannelAdministrator(world, user, stream)) return stream;
  if (hasChannelContentAccess(world, user, stream)) throw cannotAdministerChannel();
  throw badRequest('Invalid channel ID');
}

/**
 * Who may change a channel's `can_delete_any_message_group` / `can_delete_own_message_group`:
 * administrators, and members of the realm's `can_set_delete_message_policy_group` (level 407).
 */
export function canSetDeleteMessagePolicy(world: World, user: User): boolean {
  if (isAdministrator(user)) return true;
  const setting = world.realm.settings.get('can_set_delete_message_policy_group');
  return setting !== undefined && hasGroupSetting(world, user, setting, { allowEveryone: false });
}
