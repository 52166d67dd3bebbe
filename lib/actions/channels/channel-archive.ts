/**
 * Archiving (`DELETE /streams/{stream_id}`) and unarchiving channels, as the real server's
 * `do_deactivate_stream` / `do_unarchive_stream` do at the emulated level.
 *
 * From level 315 an archived channel keeps its name, privacy and subscriptions; before, it was
 * made private, lost every subscription and was renamed `<7 hex digits>!DEACTIVATED:<name>` so
 * its name became free again.
 */
import { createHash } from 'node:crypto';
import { MAX_CHANNEL_NAME_LENGTH } from '../../input/channel-names.js';
import { badRequest, mustBeAdministrator } from '../../errors.js';
import type { Stream } from '../../entities/stream.js';
import { isAdministrator, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { activeUsersAudience } from '../../queries/channels/channel-access.js';
import { accessChannelForAdministration } from '../../queries/channels/channel-admin.js';
import { channelToApi } from '../../queries/channels/channels.js';
import type { World } from '../../state/world.js';
import { metadataAudience, postChannelNotice, sendStreamUpdate } from './channel-update-events.js';
import { archivedText, unarchivedText } from './channel-update-notices.js';
import { sendDefaultStreamsEvent } from './channel-creation.js';
import { removeArchivedChannelFromGroups } from './defaults/default-stream-groups.js';
import { streamDeleteEvent } from './subscription-events.js';

const REALM_CHANNEL_SETTINGS = [
  ['moderation_request_channel_id', 'moderationRequestChannelId'],
  ['new_stream_announcements_stream_id', 'newStreamAnnouncementsStreamId'],
  ['signup_announcements_stream_id', 'signupAnnouncementsStreamId'],
  ['zulip_update_announcements_stream_id', 'zulipUpdateAnnouncementsStreamId'],
] as const;

/** Realm settings naming the archived channel are unset; one `realm`/`update_dict` (-1 for none). */
function unsetRealmChannels(world: World, stream: Stream): void {
  const data: Record<string, number> = {};
  for (const [apiName, field] of REALM_CHANNEL_SETTINGS) {
    if (world.realm[field] !== stream.id) continue;
    world.realm[field] = null;
    data[apiName] = -1;
  }
  if (Object.keys(data).length === 0) return;
  world.events.send({ type: 'realm', op: 'update_dict', property: 'default', data }, activeUsersAudience(world, { includeGuests: true }));
}

/** Out of the default channels, then out of every default channel group (each with its event). */
function removeFromDefaults(world: World, stream: Stream): void {
  if (world.defaultStreamIds.delete(stream.id)) sendDefaultStreamsEvent(world);
  removeArchivedChannelFromGroups(world, stream);
}

/** The name an archived channel took before level 315. */
function deactivatedName(stream: Stream): string {
  const hash = createHash('sha512').update(String(stream.id)).digest('hex').slice(0, 7);
  return [...`${hash}!DEACTIVATED:${stream.name}`].slice(0, MAX_CHANNEL_NAME_LENGTH).join('');
}

/** Before level 315: private, unsubscribed, renamed; one `stream`/`delete` with the channel as it was. */
function archiveLegacy(world: World, stream: Stream): void {
  const affected = metadataAudience(world, stream);
  const before = { ...channelToApi(world, stream) };
  for (const sub of world.subscriptions.get(stream.id)?.values() ?? []) sub.active = false;
  stream.isArchived = true;
  stream.inviteOnly = true;
  world.streams.rename(stream, deactivatedName(stream));
  removeFromDefaults(world, stream);
  world.events.send({ type: 'stream', op: 'delete', streams: [before] }, affected);
}

/**
 * `DELETE /streams/{stream_id}`: organization administrators and (from level 325) channel
 * administrators. Sends `stream` update `is_archived` and `stream`/`delete` to everyone who
 * could see the channel, and Notification Bot posts the notice in the archived channel.
 */
export function archiveChannel(world: World, actor: User, streamId: number): void {
  // Before level 325 the view required an administrator before looking at the channel.
  if (!world.has(FEATURES.CAN_ADMINISTER_CHANNEL_GROUP) && !isAdministrator(actor)) throw mustBeAdministrator();
  const stream = accessChannelForAdministration(world, actor, streamId);
  if (stream.isArchived) throw badRequest('Channel is already deactivated');
  if (!world.has(FEATURES.CHANNEL_IS_ARCHIVED)) {
    archiveLegacy(world, stream);
    return;
  }
  const affected = metadataAudience(world, stream);
  stream.isArchived = true;
  unsetRealmChannels(world, stream);
  removeFromDefaults(world, stream);
  sendStreamUpdate(world, stream, 'is_archived', true, affected);
  world.events.send(streamDeleteEvent(world, [stream]), affected);
  postChannelNotice(world, null, stream, archivedText(stream.name), true);
}

/** Unarchives (checked by the caller): update `is_archived` and `stream`/`create` to who can see it, then the notice. */
export function unarchiveChannel(world: World, stream: Stream): void {
  stream.isArchived = false;
  // A channel archived while private and web-public (an old invalid state) comes back private only.
  if (stream.inviteOnly && stream.isWebPublic) stream.isWebPublic = false;
  const audience = metadataAudience(world, stream);
  sendStreamUpdate(world, stream, 'is_archived', false, audience);
  world.events.send({ type: 'stream', op: 'create', streams: [channelToApi(world, stream)] }, audience);
  postChannelNotice(world, null, stream, unarchivedText(stream.name));
}
