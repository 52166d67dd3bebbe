/**
 * Default channel groups in their API shape, as `default_stream_groups_to_dicts_sorted` gives
 * them to `POST /register` (`realm_default_stream_groups`) and the `default_stream_groups` event.
 */
import type { DefaultStreamGroup, Stream } from '../../entities/stream.js';
import { FEATURES } from '../../features/feature-levels.js';
import { compareCodePoints } from '../../input/strings.js';
import type { World } from '../../state/world.js';
import { channelToApi } from './channels.js';

/** A group's channels by name: their IDs from level 330, channel objects before. */
function groupChannels(world: World, group: DefaultStreamGroup): unknown[] {
  const streams = [...group.streamIds]
    .map((id) => world.streams.get(id))
    .filter((s): s is Stream => s !== undefined)
    .sort((a, b) => compareCodePoints(a.name, b.name));
  if (world.has(FEATURES.DEFAULT_STREAM_GROUPS_IDS)) return streams.map((s) => s.id);
  return streams.map((s) => channelToApi(world, s));
}

/** Every group of the realm, by name. */
export function defaultStreamGroupsToApi(world: World): Record<string, unknown>[] {
  return [...world.defaultStreamGroups.values()]
    .sort((a, b) => compareCodePoints(a.name, b.name))
    .map((group) => ({ name: group.name, id: group.id, description: group.description, streams: groupChannels(world, group) }));
}

/** The group with this ID, or undefined. */
export const defaultStreamGroupById = (world: World, groupId: number): DefaultStreamGroup | undefined => world.defaultStreamGroups.get(groupId);

/** The group with exactly this name (names are case-sensitive), or undefined. */
export function defaultStreamGroupNamed(world: World, name: string): DefaultStreamGroup | undefined {
  for (const group of world.defaultStreamGroups.values()) if (group.name === name) return group;
  return undefined;
}
