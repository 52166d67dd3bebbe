/**
 * The realm's announcement channels through `PATCH /realm`, as the real server's
 * `do_set_realm_new_stream_announcements_stream` and its two siblings: a channel the
 * administrator can see (`access_stream_by_id` without content access) or -1 for none; a value
 * is applied whenever it differs from the stored channel (so -1 while none is set still is), with
 * one `realm`/`update` event. Before level 241 the first two were `notifications_stream_id` and
 * `signup_notifications_stream_id`.
 */
import { badRequest } from '../../errors.js';
import type { Realm } from '../../entities/realm.js';
import type { User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { hasChannelMetadataAccess } from '../../queries/channels/channel-access.js';
import { realmAudience } from '../../queries/users/access.js';
import type { World } from '../../state/world.js';

export const ANNOUNCEMENT_SETTINGS = ['new_stream_announcements_stream_id', 'signup_announcements_stream_id', 'zulip_update_announcements_stream_id'] as const;
export type AnnouncementSetting = (typeof ANNOUNCEMENT_SETTINGS)[number];

const FIELD = new Map<AnnouncementSetting, 'newStreamAnnouncementsStreamId' | 'signupAnnouncementsStreamId' | 'zulipUpdateAnnouncementsStreamId'>([
  ['new_stream_announcements_stream_id', 'newStreamAnnouncementsStreamId'],
  ['signup_announcements_stream_id', 'signupAnnouncementsStreamId'],
  ['zulip_update_announcements_stream_id', 'zulipUpdateAnnouncementsStreamId'],
]);

const LEGACY_NAME = new Map<AnnouncementSetting, string>([
  ['new_stream_announcements_stream_id', 'notifications_stream_id'],
  ['signup_announcements_stream_id', 'signup_notifications_stream_id'],
]);

/** The setting's name at the emulated level (parameter, event property and response key). */
export const announcementName = (world: World, setting: AnnouncementSetting): string =>
  world.has(FEATURES.ANNOUNCEMENT_RENAMES) ? setting : (LEGACY_NAME.get(setting) ?? setting);

export interface PlannedAnnouncement {
  readonly setting: AnnouncementSetting;
  readonly value: number;
}

/** Checks every sent value; returns those to apply. */
export function planAnnouncementChannels(world: World, actor: User, input: ReadonlyMap<AnnouncementSetting, number>): PlannedAnnouncement[] {
  const planned: PlannedAnnouncement[] = [];
  for (const setting of ANNOUNCEMENT_SETTINGS) {
    const value = input.get(setting);
    if (value === undefined) continue;
    const current = world.realm[FIELD.get(setting) as keyof Realm];
    if (current !== null && current === value) continue;
    if (value >= 0) {
      const stream = world.streams.get(value);
      if (!stream || stream.isArchived || !hasChannelMetadataAccess(world, actor, stream)) throw badRequest('Invalid channel ID');
    }
    planned.push({ setting, value });
  }
  return planned;
}

/** Applies planned values with their events; returns the response data entries. */
export function applyAnnouncementChannels(world: World, planned: readonly PlannedAnnouncement[]): Array<[string, number]> {
  return planned.map(({ setting, value }) => {
    const field = FIELD.get(setting) as 'newStreamAnnouncementsStreamId';
    world.realm[field] = value >= 0 ? value : null;
    const name = announcementName(world, setting);
    world.events.send({ type: 'realm', op: 'update', property: name, value }, realmAudience(world));
    return [name, value];
  });
}
