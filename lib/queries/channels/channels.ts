/**
 * The API shape of a channel (`BasicChannel` of the real OpenAPI get-events description, also the `never_subscribed`
 * entries of register) and the numbers it carries: subscribers, weekly traffic, post policy.
 * Every field appears only from the feature level that introduced it.
 */
import type { SystemGroupName } from '../../entities/group.js';
import { CHANNEL_PERMISSION_SETTINGS, type ChannelPermissionSetting, type Stream } from '../../entities/stream.js';
import { type Feature, FEATURES } from '../../features/feature-levels.js';
import { renderMarkdown } from '../../rendering/markdown/index.js';
import type { World } from '../../state/world.js';
import { groupSettingToApi } from '../groups/groups.js';

/** The level at which each channel permission setting appeared in channel objects. */
export const CHANNEL_SETTING_SINCE: ReadonlyMap<ChannelPermissionSetting, Feature> = new Map<ChannelPermissionSetting, Feature>([
  ['can_add_subscribers_group', FEATURES.CAN_ADD_SUBSCRIBERS_GROUP],
  ['can_administer_channel_group', FEATURES.CAN_ADMINISTER_CHANNEL_GROUP],
  ['can_delete_any_message_group', FEATURES.ADMIN_SET_USER_STATUS],
  ['can_delete_own_message_group', FEATURES.ADMIN_SET_USER_STATUS],
  ['can_move_messages_out_of_channel_group', FEATURES.CAN_MOVE_OUT_OF_CHANNEL_GROUP],
  ['can_move_messages_within_channel_group', FEATURES.CAN_MOVE_OUT_OF_CHANNEL_GROUP],
  ['can_remove_subscribers_group', FEATURES.CAN_REMOVE_SUBSCRIBERS_GROUP],
  ['can_resolve_topics_group', FEATURES.CAN_RESOLVE_TOPICS_GROUP],
  ['can_send_message_group', FEATURES.STREAM_POST_POLICY_REMOVED],
  ['can_subscribe_group', FEATURES.CAN_SUBSCRIBE_GROUP],
]);

/** Whether a channel permission setting exists at the emulated level. */
export const channelSettingExists = (world: World, setting: ChannelPermissionSetting): boolean =>
  world.has(CHANNEL_SETTING_SINCE.get(setting) as Feature);

/** The API name: `can_remove_subscribers_group` was `can_remove_subscribers_group_id` before level 197. */
export function channelSettingApiName(world: World, setting: ChannelPermissionSetting): string {
  if (setting === 'can_remove_subscribers_group' && !world.has(FEATURES.CAN_REMOVE_SUBSCRIBERS_GROUP_RENAMED)) {
    return 'can_remove_subscribers_group_id';
  }
  return setting;
}

/** The legacy `stream_post_policy` derived from `can_send_message_group` (1 when no role group matches). */
const POST_POLICY_BY_GROUP = new Map<SystemGroupName, number>([
  ['role:everyone', 1],
  ['role:administrators', 2],
  ['role:fullmembers', 3],
  ['role:moderators', 4],
]);

export function streamPostPolicy(world: World, stream: Stream): number {
  const setting = stream.settings.get('can_send_message_group');
  if (setting?.kind !== 'group') return 1;
  for (const [name, id] of world.systemGroups) if (id === setting.groupId) return POST_POLICY_BY_GROUP.get(name) ?? 1;
  return 1;
}

/** Active subscribers who are active users, ascending, as the real server's query orders them. */
export function subscriberIds(world: World, streamId: number): number[] {
  const ids: number[] = [];
  for (const [userId, sub] of world.subscriptions.get(streamId) ?? []) {
    if (sub.active && world.users.get(userId)?.isActive) ids.push(userId);
  }
  return ids.sort((a, b) => a - b);
}

const DAY_MS = 86_400_000;

/** Python's `round(x)` on a non-negative value: halves go to the even neighbour. */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

function roundToTwoSignificantDigits(n: number): number {
  const digits = String(n).length;
  if (digits <= 2) return n;
  const factor = 10 ** (digits - 2);
  return roundHalfEven(n / factor) * factor;
}

/**
 * `stream_weekly_traffic`: messages of the last 28 days scaled to a week; null while the channel
 * is younger than 7 days (the real server's `get_average_weekly_stream_traffic`). The real
 * server counts from daily analytics rows (`messages_in_stream:is_bot:day`, UTC days, with
 * `end_time` in the last 28 days) that exist only once a day is over, so today's messages do
 * not count yet; as no event announces the value, counting them would leave clients stale.
 */
export function weeklyTraffic(world: World, stream: Stream): number | null {
  const now = world.now();
  const ageDays = Math.floor((now - stream.dateCreated) / DAY_MS);
  if (ageDays < 7) return null;
  // Days whose end falls in the last 28 days: the real server's analytics count whole days.
  let recent = 0;
  const today = Math.floor(now / DAY_MS);
  for (let day = today - 28; day <= today; day++) {
    const dayEnd = day * DAY_MS + DAY_MS;
    if (dayEnd <= now && dayEnd > now - 28 * DAY_MS) recent += world.messages.sentOnDay(stream.id, day);
  }
  let average = ageDays >= 28 ? Math.floor(recent / 4) : Math.floor((recent * 7) / ageDays);
  if (average === 0 && recent > 0) average = 1;
  return roundToTwoSignificantDigits(average);
}

export interface ChannelViewOptions {
  /** Creation events carry `null`: the real server cannot compute traffic for a new channel. */
  readonly withoutTraffic?: boolean;
}

/**
 * The channel's rendered description. A fixture's channels are rendered here on first use, as
 * the fixture loader would have rendered them (plain Markdown, no realm data), and kept.
 */
export function channelDescriptionHtml(stream: Stream): string {
  stream.renderedDescription ??= stream.description === '' ? '' : renderMarkdown(stream.description);
  return stream.renderedDescription;
}

/** The channel object of events and register (`BasicChannel`), at the emulated level. */
export function channelToApi(world: World, stream: Stream, options: ChannelViewOptions = {}): Record<string, unknown> {
  const out: Record<string, unknown> = { name: stream.name, stream_id: stream.id };
  if (world.has(FEATURES.CHANNEL_IS_ARCHIVED)) out.is_archived = stream.isArchived;
  if (world.has(FEATURES.CHANNEL_CREATOR_ID)) out.creator_id = stream.creatorId;
  out.description = stream.description;
  out.rendered_description = channelDescriptionHtml(stream);
  if (world.has(FEATURES.CHANNEL_DATE_CREATED)) out.date_created = Math.floor(stream.dateCreated / 1000);
  out.invite_only = stream.inviteOnly;
  out.is_web_public = stream.isWebPublic;
  const postPolicy = streamPostPolicy(world, stream);
  out.stream_post_policy = postPolicy;
  out.history_public_to_subscribers = stream.historyPublicToSubscribers;
  out.first_message_id = stream.firstMessageId;
  if (world.has(FEATURES.CHANNEL_FOLDERS)) out.folder_id = stream.folderId;
  if (world.has(FEATURES.TOPICS_POLICY)) out.topics_policy = stream.topicsPolicy;
  if (world.has(FEATURES.CHANNEL_IS_RECENTLY_ACTIVE)) out.is_recently_active = true;
  if (world.has(FEATURES.MESSAGE_RETENTION_DAYS)) out.message_retention_days = stream.messageRetentionDays;
  out.is_announcement_only = postPolicy === 2;
  out.stream_weekly_traffic = options.withoutTraffic ? null : weeklyTraffic(world, stream);
  for (const setting of CHANNEL_PERMISSION_SETTINGS) {
    const value = stream.settings.get(setting);
    if (value && channelSettingExists(world, setting)) out[channelSettingApiName(world, setting)] = groupSettingToApi(world, value);
  }
  if (world.has(FEATURES.CHANNEL_SUBSCRIBER_COUNT)) out.subscriber_count = subscriberIds(world, stream.id).length;
  return out;
}

