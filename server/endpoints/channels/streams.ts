/**
 * Channels by ID: `GET /streams`, `GET`/`PATCH`/`DELETE /streams/{stream_id}`,
 * `GET /streams/{stream_id}/members` and `GET /streams/{stream_id}/email_address`, with the
 * real server's parameters (in its declaration order) at the emulated feature level.
 */
import { archiveChannel } from '../../../lib/actions/channels/channel-archive.js';
import { type ChannelUpdateInput, updateChannel } from '../../../lib/actions/channels/channel-update.js';
import type { GroupSettingChange } from '../../../lib/actions/channels/channel-update-checks.js';
import { legacyPostPolicyOf } from '../../../lib/actions/channels/channel-post-policy.js';
import { MAX_CHANNEL_DESCRIPTION_LENGTH } from '../../../lib/input/channel-names.js';
import { badRequest } from '../../../lib/errors.js';
import { CHANNEL_PERMISSION_SETTINGS, type ChannelPermissionSetting, TOPICS_POLICIES } from '../../../lib/entities/stream.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { type GroupSettingInput, groupSettingValue } from '../../../lib/input/group-setting-input.js';
import { canSeeSubscribers } from '../../../lib/queries/channels/channel-access.js';
import { channelEmailAddress, emailAddressSender } from '../../../lib/queries/channels/channel-email.js';
import { accessChannelById, listChannels } from '../../../lib/queries/channels/channel-list.js';
import { CHANNEL_SETTING_SINCE, channelToApi, subscriberIds } from '../../../lib/queries/channels/channels.js';
import { bool, int, literal, nullable, object, optional, required, str as jsonStr, union } from '../../../lib/input/schema.js';
import type { World } from '../../../lib/state/world.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { json, literalStr, type Param, str } from '../../app/params.js';

const flag = (value: boolean) => json(bool).default(value);

const listStreams = authed({
  params: {
    include_public: flag(true),
    include_web_public: flag(false),
    include_subscribed: flag(true),
    exclude_archived: flag(true).availableFrom(FEATURES.CHANNEL_IS_ARCHIVED, { otherwise: true }),
    include_all: flag(false).availableFrom(FEATURES.GET_STREAMS_INCLUDE_ALL, { otherwise: false }),
    include_all_active: flag(false),
    include_default: flag(false),
    include_owner_subscribed: flag(false),
    include_can_access_content: flag(false).availableFrom(FEATURES.GET_STREAMS_INCLUDE_ALL, { otherwise: false }),
  },
  run({ world, user }, args) {
    const streams = listChannels(world, user, {
      includePublic: args.include_public,
      includeWebPublic: args.include_web_public,
      includeSubscribed: args.include_subscribed,
      excludeArchived: args.exclude_archived,
      includeAll: args.include_all || args.include_all_active,
      includeDefault: args.include_default,
      includeOwnerSubscribed: args.include_owner_subscribed,
      includeCanAccessContent: args.include_can_access_content,
    });
    return { streams };
  },
});

const streamIdOf = (path: ReadonlyMap<string, string>): number => Number(path.get('stream_id'));

const getStream = authed({
  since: FEATURES.GET_STREAM_BY_ID,
  params: {},
  run({ world, user, path }) {
    const stream = accessChannelById(world, user, streamIdOf(path), { metadata: true });
    return { stream: channelToApi(world, stream) };
  },
});

/** `{"new": value, "old": value}` from level 320; a bare group ID before. */
const groupChange = union(int, object({ new: required(groupSettingValue), old: optional(groupSettingValue) }));
type GroupChangeArg = number | { new: GroupSettingInput; old?: GroupSettingInput | undefined };

const groupChangeParam = (setting: ChannelPermissionSetting): Param<GroupChangeArg> => json(groupChange).availableFrom(CHANNEL_SETTING_SINCE.get(setting)!);

const groupSettingParams = Object.fromEntries(CHANNEL_PERMISSION_SETTINGS.map((s) => [s, groupChangeParam(s)])) as Record<ChannelPermissionSetting, Param<GroupChangeArg>>;

const updateParams = {
  description: str({ maxLength: MAX_CHANNEL_DESCRIPTION_LENGTH }),
  is_private: json(bool),
  is_default_stream: json(bool).availableFrom(FEATURES.SUBSCRIBE_DEFAULT_STREAM),
  history_public_to_subscribers: json(bool),
  is_web_public: json(bool).availableFrom(FEATURES.SUBSCRIBE_WEB_PUBLIC),
  new_name: str(),
  message_retention_days: json(union(jsonStr, int)).availableFrom(FEATURES.MESSAGE_RETENTION_DAYS),
  is_archived: json(bool).availableFrom(FEATURES.UNARCHIVE_CHANNEL),
  topics_policy: literalStr(...TOPICS_POLICIES).availableFrom(FEATURES.TOPICS_POLICY),
  ...groupSettingParams,
  is_announcement_only: json(bool).availableBefore(FEATURES.STREAM_POST_POLICY_REMOVED),
  stream_post_policy: json(literal(1, 2, 3, 4)).availableBefore(FEATURES.STREAM_POST_POLICY_REMOVED),
  can_remove_subscribers_group_id: json(int).availableFrom(FEATURES.CAN_REMOVE_SUBSCRIBERS_GROUP).availableBefore(FEATURES.CAN_REMOVE_SUBSCRIBERS_GROUP_RENAMED),
  folder_id: json(nullable(int)).availableFrom(FEATURES.CHANNEL_FOLDERS),
};

/** The group-setting changes sent, in their level's format (a bare ID before 320, an update object from it). */
function groupChangesOf(world: World, args: Partial<Record<ChannelPermissionSetting | 'can_remove_subscribers_group_id', unknown>>): Map<ChannelPermissionSetting, GroupSettingChange> {
  const changes = new Map<ChannelPermissionSetting, GroupSettingChange>();
  const objectForm = world.has(FEATURES.CAN_REMOVE_SUBSCRIBERS_ANY_GROUP);
  for (const setting of CHANNEL_PERMISSION_SETTINGS) {
    const value = args[setting] as GroupChangeArg | undefined;
    if (value === undefined) continue;
    if (typeof value === 'number') {
      if (objectForm) throw badRequest(`${setting} is not a dict`);
      changes.set(setting, { new: value });
    } else {
      if (!objectForm) throw badRequest(`${setting} is not an integer`);
      changes.set(setting, value);
    }
  }
  if (typeof args.can_remove_subscribers_group_id === 'number') changes.set('can_remove_subscribers_group', { new: args.can_remove_subscribers_group_id });
  return changes;
}

const updateStream = authed({
  params: updateParams,
  run({ world, user, path }, args) {
    if (args.topics_policy === 'empty_topic_only' && !world.has(FEATURES.EMPTY_TOPIC_ONLY)) throw badRequest('Invalid topics_policy');
    const input: ChannelUpdateInput = {
      description: args.description,
      newName: args.new_name,
      isPrivate: args.is_private,
      isWebPublic: args.is_web_public,
      historyPublicToSubscribers: args.history_public_to_subscribers,
      isDefaultStream: args.is_default_stream,
      messageRetentionDays: args.message_retention_days,
      isArchived: args.is_archived,
      topicsPolicy: args.topics_policy,
      folderId: args.folder_id,
      groupSettings: groupChangesOf(world, args),
      legacyPostPolicy: legacyPostPolicyOf(args.stream_post_policy, args.is_announcement_only),
    };
    updateChannel(world, user, streamIdOf(path), input);
    return {};
  },
});

const deleteStream = authed({
  params: {},
  run({ world, user, path }) {
    archiveChannel(world, user, streamIdOf(path));
    return {};
  },
});

/** Subscribers of a channel the user has metadata access to, when the user may see them. */
const getMembers = authed({
  params: {},
  run({ world, user, path }) {
    const stream = accessChannelById(world, user, streamIdOf(path), { metadata: true });
    if (!canSeeSubscribers(world, user, stream)) throw badRequest('Unable to retrieve subscribers for private channel');
    return { subscribers: subscriberIds(world, stream.id) };
  },
});

/** The channel's incoming-email address; content access needed (level 226); `sender_id` from level 335. */
const getEmailAddress = authed({
  since: FEATURES.SUBSCRIPTION_EMAIL_ADDRESS_REMOVED,
  params: { sender_id: json(int).availableFrom(FEATURES.CHANNEL_EMAIL_SENDER) },
  run({ world, user, path }, args) {
    const stream = accessChannelById(world, user, streamIdOf(path), { metadata: false });
    if (!world.has(FEATURES.CHANNEL_EMAIL_SENDER)) return { email: channelEmailAddress(world, stream, { showSender: true }) };
    const sender = emailAddressSender(world, user, args.sender_id);
    return { email: channelEmailAddress(world, stream, { showSender: true, owner: { creatorId: user.id, senderId: sender.id } }) };
  },
});

export const routes: RouteDef[] = [
  { path: '/streams', methods: { GET: listStreams } },
  { path: '/streams/{stream_id:int}', methods: { GET: getStream, PATCH: updateStream, DELETE: deleteStream } },
  { path: '/streams/{stream_id:int}/members', methods: { GET: getMembers } },
  { path: '/streams/{stream_id:int}/email_address', methods: { GET: getEmailAddress } },
];
