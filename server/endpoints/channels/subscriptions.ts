/**
 * Subscriptions (section 4.1; reference sections 2-5): `POST`, `GET` and `DELETE
 * /users/me/subscriptions`, and `GET /get_stream_id`. Parameters are declared in the real
 * server's validation order.
 */
import { subscribe } from '../../../lib/actions/channels/subscriptions.js';
import { unsubscribe } from '../../../lib/actions/channels/unsubscribe.js';
import { MAX_CHANNEL_DESCRIPTION_LENGTH } from '../../../lib/input/channel-names.js';
import { badRequest, notForGuests } from '../../../lib/errors.js';
import { CHANNEL_PERMISSION_SETTINGS, type ChannelPermissionSetting, TOPICS_POLICIES, type TopicsPolicy } from '../../../lib/entities/stream.js';
import { isGuest } from '../../../lib/entities/user.js';
import { type Feature, FEATURES } from '../../../lib/features/feature-levels.js';
import { type GroupSettingInput, groupSettingValue } from '../../../lib/input/group-setting-input.js';
import { hasChannelContentAccess } from '../../../lib/queries/channels/channel-access.js';
import type { Principal } from '../../../lib/queries/users/principals.js';
import { activeSubscriptions, type IncludeSubscribers } from '../../../lib/queries/channels/subscriptions.js';
import { bool, int, list, literal, object, optional, refine, required, str, union } from '../../../lib/input/schema.js';
import { codePointLength } from '../../../lib/input/topic-names.js';
import type { World } from '../../../lib/state/world.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { json, Param, str as plainStr } from '../../app/params.js';
import { MAX_CHANNELS, MAX_SUBSCRIPTION_CHANGES, MAX_USER_IDS } from '../../../lib/input/limits.js';

/** `check_color`: Python's `$` also matches before a final newline. */
const color = refine(str, (value, path) => {
  if (!/^#[a-fA-F0-9]{3,6}\n?$/.test(value)) throw badRequest(`${path} is not a valid hex color code`);
});

const description = refine(str, (value, path) => {
  if (codePointLength(value) > MAX_CHANNEL_DESCRIPTION_LENGTH) {
    throw badRequest(`${path} is too long (limit: ${MAX_CHANNEL_DESCRIPTION_LENGTH} characters)`);
  }
});

/** Keys other than these are ignored, as by the real server's pydantic model. */
const subscriptionItem = object(
  { name: required(str), color: optional(color), description: optional(description) },
  { extra: 'ignore' },
);

const principals = union(list(str, MAX_USER_IDS), list(int, MAX_USER_IDS));

const topicsPolicy = refine(str, (value, path) => {
  if (!(TOPICS_POLICIES as readonly string[]).includes(value)) throw badRequest(`Invalid ${path}`);
});

const groupSetting = (since: Feature) => json(groupSettingValue).availableFrom(since);

const subscribeParams = {
  subscriptions: json(list(subscriptionItem, MAX_CHANNELS)).required(),
  invite_only: json(bool).default(false),
  is_web_public: json(bool).default(false).availableFrom(FEATURES.SUBSCRIBE_WEB_PUBLIC, { otherwise: false }),
  is_default_stream: json(bool).default(false).availableFrom(FEATURES.SUBSCRIBE_DEFAULT_STREAM, { otherwise: false }),
  is_announcement_only: json(bool).availableBefore(FEATURES.STREAM_POST_POLICY_REMOVED),
  stream_post_policy: json(literal(1, 2, 3, 4)).availableBefore(FEATURES.STREAM_POST_POLICY_REMOVED),
  history_public_to_subscribers: json(bool),
  // Absent below level 17, where channels always used the realm's retention.
  message_retention_days: json(union(str, int)).default('realm_default').availableFrom(FEATURES.MESSAGE_RETENTION_DAYS, { otherwise: 'realm_default' }),
  topics_policy: json(topicsPolicy).availableFrom(FEATURES.TOPICS_POLICY),
  can_add_subscribers_group: groupSetting(FEATURES.CAN_ADD_SUBSCRIBERS_GROUP),
  can_administer_channel_group: groupSetting(FEATURES.CAN_ADMINISTER_CHANNEL_GROUP),
  can_delete_any_message_group: groupSetting(FEATURES.ADMIN_SET_USER_STATUS),
  can_delete_own_message_group: groupSetting(FEATURES.ADMIN_SET_USER_STATUS),
  can_move_messages_out_of_channel_group: groupSetting(FEATURES.CAN_MOVE_OUT_OF_CHANNEL_GROUP),
  can_move_messages_within_channel_group: groupSetting(FEATURES.CAN_MOVE_OUT_OF_CHANNEL_GROUP),
  can_send_message_group: groupSetting(FEATURES.STREAM_POST_POLICY_REMOVED),
  can_remove_subscribers_group_id: json(int)
    .availableFrom(FEATURES.CAN_REMOVE_SUBSCRIBERS_GROUP)
    .availableBefore(FEATURES.CAN_REMOVE_SUBSCRIBERS_GROUP_RENAMED),
  can_remove_subscribers_group: groupSetting(FEATURES.CAN_REMOVE_SUBSCRIBERS_GROUP_RENAMED),
  can_resolve_topics_group: json(groupSettingValue).availableFrom(FEATURES.CAN_RESOLVE_TOPICS_GROUP),
  can_subscribe_group: groupSetting(FEATURES.CAN_SUBSCRIBE_GROUP),
  announce: json(bool).default(false),
  principals: json(principals),
  authorization_errors_fatal: json(bool).default(true),
  folder_id: json(int).availableFrom(FEATURES.CHANNEL_FOLDERS),
  // Before level 397 the DMs were always sent.
  send_new_subscription_messages: json(bool).default(true).availableFrom(FEATURES.NEW_SUBSCRIPTION_MESSAGES, { otherwise: true }),
};

type SubscribeArgs = { [K in keyof typeof subscribeParams]: unknown };

/** Level-dependent value rules that a static declaration cannot express. */
function checkLevelRules(world: World, args: Partial<SubscribeArgs>): void {
  if (args.topics_policy === 'empty_topic_only' && !world.has(FEATURES.EMPTY_TOPIC_ONLY)) throw badRequest('Invalid topics_policy');
  if (typeof args.can_remove_subscribers_group === 'object' && !world.has(FEATURES.CAN_REMOVE_SUBSCRIBERS_ANY_GROUP)) {
    throw badRequest('can_remove_subscribers_group is not an integer');
  }
  const list = args.principals as Principal[] | undefined;
  if (list && list.length > 0 && typeof list[0] === 'number' && !world.has(FEATURES.INTEGER_PRINCIPALS)) {
    throw badRequest('principals[0] is not a string');
  }
}

/** One request changes at most MAX_SUBSCRIPTION_CHANGES channel-user pairs: each is a row, an event and a notice. */
function checkChangeCount(channels: number, principals: readonly unknown[] | undefined): void {
  if (channels * Math.max(1, principals?.length ?? 0) > MAX_SUBSCRIPTION_CHANGES) {
    throw badRequest(`Too many subscription changes in one request (limit: ${MAX_SUBSCRIPTION_CHANGES} channel-user pairs).`);
  }
}

function groupSettingsOf(args: SubscribeArgs): Map<ChannelPermissionSetting, GroupSettingInput> {
  const settings = new Map<ChannelPermissionSetting, GroupSettingInput>();
  for (const setting of CHANNEL_PERMISSION_SETTINGS) {
    const value = args[setting];
    if (value !== undefined) settings.set(setting, value as GroupSettingInput);
  }
  if (args.can_remove_subscribers_group_id !== undefined) settings.set('can_remove_subscribers_group', args.can_remove_subscribers_group_id as number);
  return settings;
}

const subscribeEndpoint = authed({
  // Guests are refused before any parameter is read (test_guest_user_subscribe).
  gate: ({ user }) => {
    if (isGuest(user)) throw notForGuests();
  },
  params: subscribeParams,
  run({ world, user }, args) {
    checkLevelRules(world, args);
    checkChangeCount(args.subscriptions.length, args.principals as readonly unknown[] | undefined);
    const legacyPostPolicy = args.stream_post_policy ?? (args.is_announcement_only ? 2 : undefined);
    return subscribe(world, user, {
      subscriptions: args.subscriptions,
      inviteOnly: args.invite_only,
      isWebPublic: args.is_web_public,
      isDefaultStream: args.is_default_stream,
      historyPublicToSubscribers: args.history_public_to_subscribers ?? null,
      messageRetentionDays: args.message_retention_days,
      topicsPolicy: args.topics_policy as TopicsPolicy | undefined,
      groupSettings: groupSettingsOf(args),
      legacyPostPolicy,
      announce: args.announce,
      principals: args.principals ?? [],
      authorizationErrorsFatal: args.authorization_errors_fatal,
      folderId: args.folder_id,
      sendNewSubscriptionMessages: args.send_new_subscription_messages,
    });
  },
});

/** `include_subscribers`: a JSON boolean, or the plain string `partial` (level 412). */
const includeSubscribers = new Param<IncludeSubscribers>((raw, name) => {
  if (raw === 'partial') return 'partial';
  return json(bool).decode(raw, name);
});

const listEndpoint = authed({
  params: { include_subscribers: includeSubscribers.default(false) },
  run({ world, user }, args) {
    const include = args.include_subscribers;
    if (include === 'partial' && !world.has(FEATURES.PARTIAL_SUBSCRIBERS)) throw badRequest('include_subscribers is not valid JSON');
    return { subscriptions: activeSubscriptions(world, user, { includeSubscribers: include }) };
  },
});

const unsubscribeEndpoint = authed({
  params: {
    subscriptions: json(list(str, MAX_CHANNELS)).required(),
    principals: json(principals),
  },
  run({ world, user }, args) {
    checkLevelRules(world, { principals: args.principals });
    checkChangeCount(args.subscriptions.length, args.principals as readonly unknown[] | undefined);
    return unsubscribe(world, user, { names: args.subscriptions, principals: args.principals ?? [] });
  },
});

/** `GET /get_stream_id`: the name is matched case-insensitively, unstripped; no access looks like no channel. */
const getStreamId = authed({
  params: { stream: plainStr().required() },
  run({ world, user }, args) {
    const stream = world.streamByName(args.stream);
    if (!stream || stream.isArchived || !hasChannelContentAccess(world, user, stream)) {
      throw badRequest(`Invalid channel name '${args.stream}'`);
    }
    return { stream_id: stream.id };
  },
});

export const routes: RouteDef[] = [
  { path: '/users/me/subscriptions', methods: { GET: listEndpoint, POST: subscribeEndpoint, DELETE: unsubscribeEndpoint } },
  { path: '/get_stream_id', methods: { GET: getStreamId } },
];
