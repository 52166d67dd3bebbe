/**
 * `DELETE /users/me/subscriptions` (reference section 4): unsubscribe yourself, your bots, or —
 * with permission — other users. All checks run before any subscription changes.
 */
import { checkChannelName } from '../../input/channel-names.js';
import { pythonStrip } from '../../input/topic-names.js';
import { badRequest, insufficientPermission } from '../../errors.js';
import type { Stream } from '../../entities/stream.js';
import { isAdministrator, isGuest, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { hasChannelContentAccess, hasChannelMetadataAccess } from '../../queries/channels/channel-access.js';
import { hasGroupSetting } from '../../queries/groups/groups.js';
import { type Principal, resolvePrincipals } from '../../queries/users/principals.js';
import { unreadInChannel } from '../../queries/messages/unread.js';
import type { World } from '../../state/world.js';
import { checkChannelCreation } from './channel-creation.js';
import { addFlag } from '../messages/message-flags.js';
import { removeSubscriptions } from './subscription-changes.js';

export interface UnsubscribeInput {
  /** Channel names as sent (they are stripped here). */
  readonly names: readonly string[];
  readonly principals: readonly Principal[];
}

export type UnsubscribeResult = {
  readonly removed: string[];
  readonly not_removed: string[];
};

/**
 * After removals the real server marks each user's unread messages in those channels as read
 * (the deferred `mark_stream_messages_as_read`, one `update_message_flags` event per user and
 * channel where something changed).
 */
function markRemovedChannelsRead(world: World, removals: ReadonlyArray<readonly [User, Stream]>): void {
  for (const [user, stream] of removals) {
    addFlag(world, user, unreadInChannel(world, user, stream.id), 'read');
  }
}

/** Targets other than yourself and (since level 145) your own bots need permission. */
function controls(world: World, actor: User, target: User): boolean {
  if (target.id === actor.id) return true;
  return world.has(FEATURES.BOT_OWNER_UNSUBSCRIBE) && target.isBot && target.botOwnerId === actor.id;
}

function inGroup(world: World, actor: User, stream: Stream, setting: 'can_administer_channel_group' | 'can_remove_subscribers_group'): boolean {
  const value = stream.settings.get(setting);
  return value !== undefined && hasGroupSetting(world, actor, value, { allowEveryone: false });
}

/**
 * `bulk_can_remove_subscribers_from_streams`. Since level 349: administrators always; channel
 * administrators of every channel; else basic access plus `can_remove_subscribers_group` on each.
 * Before 349 content access was required even of administrators.
 */
function canRemoveOthers(world: World, actor: User, streams: readonly Stream[]): boolean {
  if (!world.has(FEATURES.ADD_SUBSCRIBERS_WITHOUT_ACCESS)) {
    return streams.every(
      (s) => hasChannelContentAccess(world, actor, s) && (isAdministrator(actor) || inGroup(world, actor, s, 'can_remove_subscribers_group')),
    );
  }
  if (isAdministrator(actor)) return true;
  if (isGuest(actor)) return false;
  if (streams.every((s) => inGroup(world, actor, s, 'can_administer_channel_group'))) return true;
  if (!streams.every((s) => hasChannelMetadataAccess(world, actor, s))) return false;
  return streams.every((s) => inGroup(world, actor, s, 'can_remove_subscribers_group'));
}

/** Archived channels are found by name only since level 362. */
function findChannel(world: World, name: string): Stream | undefined {
  const stream = world.streamByName(name);
  if (stream?.isArchived && !world.has(FEATURES.ARCHIVED_CHANNEL_SUBSCRIPTIONS)) return undefined;
  return stream;
}

/**
 * Unsubscribes the principals (or the actor) from the named channels. Checks, in order:
 * principals, channel names, permission to remove others, unknown names (creation rights for a
 * public channel first, then `Channel(s) (...) do not exist`). Then the removal events, and the
 * removed channels' messages become read for each user.
 */
export function unsubscribe(world: World, actor: User, input: UnsubscribeInput): UnsubscribeResult {
  const names = input.names.map(pythonStrip);
  const users = input.principals.length > 0 ? resolvePrincipals(world, actor, input.principals) : [actor];
  const others = users.some((target) => !controls(world, actor, target));
  for (const name of new Set(names)) checkChannelName(name);
  const existing: Stream[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const stream = findChannel(world, name);
    if (stream) existing.push(stream);
    else missing.push(name);
  }
  if (others && !canRemoveOthers(world, actor, existing)) throw insufficientPermission();
  if (missing.length > 0) {
    // The snapshot read runs the public-channel creation checks on unknown names first (reference 4, step 5).
    checkChannelCreation(world, actor, { inviteOnly: false, isWebPublic: false, isDefaultStream: false, messageRetentionDays: null });
    throw badRequest(`Channel(s) (${missing.join(', ')}) do not exist`);
  }
  const { removed, notRemoved } = removeSubscriptions(world, existing, users);
  markRemovedChannelsRead(world, removed);
  return { removed: removed.map(([, s]) => s.name), not_removed: notRemoved.map(([, s]) => s.name) };
}
