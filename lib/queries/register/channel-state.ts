/**
 * The channel lists of `POST /register` that are not subscriptions, as the real server's
 * `fetch_initial_state_data` builds them (zerver/lib/events.py): `streams` (event type `stream`),
 * `realm_default_streams` (`default_streams`) and `realm_default_stream_groups`
 * (`default_stream_groups`).
 */
import type { Stream } from '../../entities/stream.js';
import { isGuest, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { compareCodePoints } from '../../input/strings.js';
import type { World } from '../../state/world.js';
import { listChannels } from '../channels/channel-list.js';
import { channelToApi } from '../channels/channels.js';
import { defaultStreamGroupsToApi } from '../channels/default-stream-groups.js';
import type { RegisterOptions } from './state-fields.js';

/**
 * `streams`: from level 356 every channel the user has metadata access to (`include_all`);
 * before it the public channels (none for guests) and the user's subscriptions, with web-public
 * channels from level 205. Archived channels only for clients declaring `archived_channels`
 * (level 378). `include_streams=false` leaves the key out.
 */
export function streamsState(world: World, user: User, options: RegisterOptions): Record<string, unknown> {
  if (!options.includeStreams) return {};
  const modern = world.has(FEATURES.GET_STREAMS_INCLUDE_ALL);
  const streams = listChannels(world, user, {
    includePublic: true,
    includeWebPublic: world.has(FEATURES.REGISTER_STREAMS_WEB_PUBLIC),
    includeSubscribed: true,
    excludeArchived: !(options.capabilities.archivedChannels && world.has(FEATURES.REGISTER_STREAMS_ARCHIVED)),
    includeAll: modern,
    includeDefault: false,
    includeOwnerSubscribed: false,
    includeCanAccessContent: false,
  });
  return { streams };
}

/** The realm's default channels that still exist and are not archived. */
function defaultChannels(world: World): Stream[] {
  const out: Stream[] = [];
  for (const id of world.defaultStreamIds) {
    const stream = world.streams.get(id);
    if (stream && !stream.isArchived) out.push(stream);
  }
  return out;
}

/**
 * `realm_default_streams`: IDs from level 330, channel objects (by name) before. Guests get an
 * empty list: they cannot see every default channel, so the real server pretends there are none.
 */
export function defaultStreamsState(world: World, user: User): Record<string, unknown> {
  if (isGuest(user)) return { realm_default_streams: [] };
  const streams = defaultChannels(world);
  if (world.has(FEATURES.DEFAULT_STREAMS_EVENT_IDS)) return { realm_default_streams: streams.map((s) => s.id).sort((a, b) => a - b) };
  return { realm_default_streams: streams.sort((a, b) => compareCodePoints(a.name, b.name)).map((s) => channelToApi(world, s)) };
}

/** `realm_default_stream_groups`: every group by name; none for guests, as for default channels. */
export function defaultStreamGroupsState(world: World, user: User): Record<string, unknown> {
  return { realm_default_stream_groups: isGuest(user) ? [] : defaultStreamGroupsToApi(world) };
}
