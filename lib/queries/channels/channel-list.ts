/**
 * `GET /streams` and `GET /streams/{stream_id}`: which channels a user may list, as the real
 * server's `get_streams_for_user` / `do_get_streams` choose them, at the emulated feature level.
 */
import { badRequest } from '../../errors.js';
import type { Stream } from '../../entities/stream.js';
import { isAdministrator, isGuest, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { compareCodePoints } from '../../input/strings.js';
import type { World } from '../../state/world.js';
import { isSubscribed } from '../users/access.js';
import { hasChannelContentAccess, hasChannelMetadataAccess } from './channel-access.js';
import { channelToApi } from './channels.js';

export interface ChannelListOptions {
  readonly includePublic: boolean;
  readonly includeWebPublic: boolean;
  readonly includeSubscribed: boolean;
  /** Level 315: before it archived channels never appear. */
  readonly excludeArchived: boolean;
  /** `include_all`, or its older name `include_all_active`. */
  readonly includeAll: boolean;
  readonly includeDefault: boolean;
  readonly includeOwnerSubscribed: boolean;
  /** Level 356. */
  readonly includeCanAccessContent: boolean;
}

const subscribedIds = (world: World, userId: number): Set<number> => {
  const ids = new Set<number>();
  for (const [streamId, subs] of world.subscriptions) if (subs.get(userId)?.active) ids.add(streamId);
  return ids;
};

/** Whether one of the requested sources yields the channel (the real server ORs its filters). */
function selected(world: World, user: User, stream: Stream, options: ChannelListOptions): boolean {
  // Guests (and Zephyr mirrors, absent here) cannot list public channels wholesale.
  const includePublic = options.includePublic && !isGuest(user);
  const content = options.includeCanAccessContent && world.has(FEATURES.GET_STREAMS_INCLUDE_ALL);
  if (content && hasChannelContentAccess(world, user, stream)) return true;
  if (!content && options.includeSubscribed && isSubscribed(world, user.id, stream.id)) return true;
  if (!content && includePublic && !stream.inviteOnly) return true;
  if (!content && options.includeWebPublic && stream.isWebPublic && !stream.inviteOnly && stream.historyPublicToSubscribers && !stream.isArchived) {
    return true;
  }
  if (options.includeOwnerSubscribed && user.isBot && user.botOwnerId !== null) {
    return subscribedIds(world, user.botOwnerId).has(stream.id);
  }
  return false;
}

/**
 * The channel objects of `GET /streams`, sorted by name. Before level 356 `include_all_active`
 * is for administrators only (`User not authorized for this query`) and lists every active
 * channel; from 356 `include_all` lists the channels the user has metadata access to.
 */
export function listChannels(world: World, user: User, options: ChannelListOptions): Record<string, unknown>[] {
  const modern = world.has(FEATURES.GET_STREAMS_INCLUDE_ALL);
  if (options.includeAll && !modern && !isAdministrator(user)) throw badRequest('User not authorized for this query');
  const excludeArchived = options.excludeArchived || !world.has(FEATURES.CHANNEL_IS_ARCHIVED);
  const chosen: Stream[] = [];
  for (const stream of world.streams.values()) {
    if (excludeArchived && stream.isArchived) continue;
    const pick = options.includeAll ? !modern || hasChannelMetadataAccess(world, user, stream) : selected(world, user, stream, options);
    if (pick) chosen.push(stream);
  }
  chosen.sort((a, b) => compareCodePoints(a.name, b.name));
  return chosen.map((stream) => {
    const out = channelToApi(world, stream);
    if (options.includeDefault) out.is_default = world.defaultStreamIds.has(stream.id);
    return out;
  });
}

/**
 * `access_stream_by_id`: a channel of the realm the user has content access to, or (when
 * `metadata` is set) metadata access. Archived, unknown and inaccessible channels all answer
 * `Invalid channel ID`, so the error does not reveal which private channels exist.
 */
export function accessChannelById(world: World, user: User, streamId: number, options: { metadata: boolean }): Stream {
  const stream = world.streams.get(streamId);
  if (!stream || stream.isArchived) throw badRequest('Invalid channel ID');
  const allowed = options.metadata ? hasChannelMetadataAccess(world, user, stream) : hasChannelContentAccess(world, user, stream);
  if (!allowed) throw badRequest('Invalid channel ID');
  return stream;
}
