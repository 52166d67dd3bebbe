/**
 * Default channel groups (`zerver/actions/default_streams.py`): create, rename, describe, add and
 * remove channels, delete. Every change sends the whole list in a `default_stream_groups` event to
 * every active non-guest user, as default channels do.
 */
import { MAX_DEFAULT_STREAM_GROUP_NAME_LENGTH, type DefaultStreamGroup, type Stream } from '../../../entities/stream.js';
import type { User } from '../../../entities/user.js';
import { badRequest } from '../../../errors.js';
import { isPythonSpace, trimWhere } from '../../../input/strings.js';
import { codePointLength } from '../../../input/topic-names.js';
import { activeUsersAudience } from '../../../queries/channels/channel-access.js';
import { defaultStreamGroupById, defaultStreamGroupNamed, defaultStreamGroupsToApi } from '../../../queries/channels/default-stream-groups.js';
import type { World } from '../../../state/world.js';
import { accessStreamByName } from '../../users/bot-input.js';

export function sendDefaultStreamGroupsEvent(world: World): void {
  const event = { type: 'default_stream_groups', default_stream_groups: defaultStreamGroupsToApi(world) };
  world.events.send(event, activeUsersAudience(world, { includeGuests: false }));
}

/** The length and NULL checks of `check_default_stream_group_name`. */
function checkNameContent(name: string): void {
  if (codePointLength(name) > MAX_DEFAULT_STREAM_GROUP_NAME_LENGTH) {
    throw badRequest(`Default channel group name too long (limit: ${MAX_DEFAULT_STREAM_GROUP_NAME_LENGTH} characters)`);
  }
  if (name.includes('\0')) throw badRequest(`Default channel group name '${name}' contains NULL (0x00) characters.`);
}

/** `check_default_stream_group_name`: not blank, at most 60 characters, no NULL character. */
function checkGroupName(name: string): void {
  if (trimWhere(name, isPythonSpace) === '') throw badRequest(`Invalid default channel group name '${name}'`);
  checkNameContent(name);
}

function checkNotDefaultChannel(world: World, stream: Stream, groupName: string): void {
  if (world.defaultStreamIds.has(stream.id)) throw badRequest(`'${stream.name}' is a default channel and cannot be added to '${groupName}'`);
}

/** `access_stream_by_name` for each name, in order: channels the administrator can read. */
export function accessChannelsByName(world: World, actor: User, names: readonly string[]): Stream[] {
  return names.map((name) => accessStreamByName(world, actor, name));
}

/** `access_default_stream_group_by_id`. */
export function accessDefaultStreamGroup(world: World, groupId: number): DefaultStreamGroup {
  const group = defaultStreamGroupById(world, groupId);
  if (!group) throw badRequest(`Default channel group with id '${groupId}' does not exist.`);
  return group;
}

/**
 * `POST /default_stream_groups/create`: default channels are refused first, then the name is
 * checked, then its uniqueness (case-sensitive, as the database's unique constraint).
 */
export function createDefaultStreamGroup(world: World, name: string, description: string, streams: readonly Stream[]): void {
  for (const stream of streams) checkNotDefaultChannel(world, stream, name);
  checkGroupName(name);
  if (defaultStreamGroupNamed(world, name)) throw badRequest(`Default channel group '${name}' already exists`);
  const id = world.ids.next('defaultStreamGroup');
  world.defaultStreamGroups.set(id, { id, name, description, streamIds: new Set(streams.map((s) => s.id)) });
  sendDefaultStreamGroupsEvent(world);
}

/**
 * Renaming checks only that the name differs and is free, as the real server does (a blank name
 * is accepted); the length and NULL checks keep what the real server's database would refuse out.
 */
export function renameDefaultStreamGroup(world: World, group: DefaultStreamGroup, name: string): void {
  if (group.name === name) throw badRequest(`This default channel group is already named '${name}'`);
  if (defaultStreamGroupNamed(world, name)) throw badRequest(`Default channel group '${name}' already exists`);
  checkNameContent(name);
  group.name = name;
  sendDefaultStreamGroupsEvent(world);
}

export function describeDefaultStreamGroup(world: World, group: DefaultStreamGroup, description: string): void {
  group.description = description;
  sendDefaultStreamGroupsEvent(world);
}

/**
 * `op=add`: each channel in turn must not be a default channel nor already in the group (a
 * channel named twice is "already present" the second time). All or none: the real server keeps
 * the channels added before the failing one, without an event.
 */
export function addChannelsToDefaultStreamGroup(world: World, group: DefaultStreamGroup, streams: readonly Stream[]): void {
  const present = new Set(group.streamIds);
  for (const stream of streams) {
    checkNotDefaultChannel(world, stream, group.name);
    if (present.has(stream.id)) throw badRequest(`Channel '${stream.name}' is already present in default channel group '${group.name}'`);
    present.add(stream.id);
  }
  for (const stream of streams) group.streamIds.add(stream.id);
  sendDefaultStreamGroupsEvent(world);
}

/** `op=remove`: every channel must be in the group; then all are removed. */
export function removeChannelsFromDefaultStreamGroup(world: World, group: DefaultStreamGroup, streams: readonly Stream[]): void {
  for (const stream of streams) {
    if (!group.streamIds.has(stream.id)) throw badRequest(`Channel '${stream.name}' is not present in default channel group '${group.name}'`);
  }
  for (const stream of streams) group.streamIds.delete(stream.id);
  sendDefaultStreamGroupsEvent(world);
}

export function deleteDefaultStreamGroup(world: World, group: DefaultStreamGroup): void {
  world.defaultStreamGroups.delete(group.id);
  sendDefaultStreamGroupsEvent(world);
}

/** Archiving a channel takes it out of every group holding it, one event per group. */
export function removeArchivedChannelFromGroups(world: World, stream: Stream): void {
  const holding = [...world.defaultStreamGroups.values()].filter((g) => g.streamIds.has(stream.id)).sort((a, b) => a.id - b.id);
  for (const group of holding) removeChannelsFromDefaultStreamGroup(world, group, [stream]);
}
