/**
 * `POST /users/me/subscriptions` (section 4.1; reference section 2): subscribe users to
 * channels, creating the missing ones. Everything is validated in the real server's order before
 * anything changes, so an error leaves no channel and no subscription behind.
 */
import { checkChannelName } from '../../input/channel-names.js';
import { pythonStrip } from '../../input/topic-names.js';
import { CHANNEL_SETTING_RULES } from '../../settings/defaults.js';
import { badRequest, insufficientPermission } from '../../errors.js';
import { type GroupSetting, namedGroup } from '../../entities/group.js';
import { CHANNEL_PERMISSION_SETTINGS, type ChannelPermissionSetting, type Stream, type TopicsPolicy } from '../../entities/stream.js';
import { isAdministrator, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { type GroupSettingInput, resolveGroupSetting } from '../../input/group-setting-input.js';
import { hasChannelContentAccess } from '../../queries/channels/channel-access.js';
import { channelFolderById } from '../../queries/channels/channel-folders.js';
import { channelSettingApiName } from '../../queries/channels/channels.js';
import { hasGroupSetting } from '../../queries/groups/groups.js';
import { type Principal, resolvePrincipals } from '../../queries/users/principals.js';
import { apiEmail } from '../../queries/users/users.js';
import { canSetDeleteMessagePolicy } from '../../queries/channels/channel-admin.js';
import type { World } from '../../state/world.js';
import { addDefaultChannels, buildChannel, checkChannelCreation, type NewChannelSettings, parseRetentionDays, storeChannel } from './channel-creation.js';
import { addSubscriptions } from './subscription-changes.js';
import { newSubscriptionMessagesAllowed, type NoticeInput, sendSubscriptionNotices } from './subscription-notices.js';

export interface SubscriptionRequestItem {
  readonly name: string;
  readonly color?: string | undefined;
  readonly description?: string | undefined;
}

export interface SubscribeInput {
  readonly subscriptions: readonly SubscriptionRequestItem[];
  readonly inviteOnly: boolean;
  readonly isWebPublic: boolean;
  readonly isDefaultStream: boolean;
  readonly historyPublicToSubscribers: boolean | null;
  /** Raw value: `realm_default`, `unlimited` (`forever` before 91) or a positive integer. */
  readonly messageRetentionDays: string | number;
  readonly topicsPolicy: TopicsPolicy | undefined;
  /** Group-setting parameters as sent (only those present). */
  readonly groupSettings: ReadonlyMap<ChannelPermissionSetting, GroupSettingInput>;
  /** Before level 333: `stream_post_policy` (1-4), or 2 for `is_announcement_only`. */
  readonly legacyPostPolicy: number | undefined;
  readonly announce: boolean;
  readonly principals: readonly Principal[];
  readonly authorizationErrorsFatal: boolean;
  readonly folderId: number | undefined;
  readonly sendNewSubscriptionMessages: boolean;
}

/** The response body (section 4.1 and OpenAPI subscribe). */
export type SubscribeResult = {
  readonly subscribed: Record<string, string[]>;
  readonly already_subscribed: Record<string, string[]>;
  readonly unauthorized?: string[];
  readonly new_subscription_messages_sent?: boolean;
};

const POST_POLICY_GROUPS = ['role:everyone', 'role:administrators', 'role:fullmembers', 'role:moderators'] as const;

/** Step 4 of reference 2.2: resolve group settings (in the model's setting order), then legacy post policy. */
function resolveSettings(world: World, actor: User, input: SubscribeInput): Map<ChannelPermissionSetting, GroupSetting> {
  const resolved = new Map<ChannelPermissionSetting, GroupSetting>();
  const nobody = world.systemGroupId('role:nobody');
  for (const setting of CHANNEL_PERMISSION_SETTINGS) {
    const raw = input.groupSettings.get(setting);
    if (raw === undefined) continue;
    const value = resolveGroupSetting(world, channelSettingApiName(world, setting), raw, CHANNEL_SETTING_RULES.get(setting)!);
    const isNobody = value.kind === 'group' && value.groupId === nobody;
    // Setting who may delete messages needs the realm's can_set_delete_message_policy_group (default: moderators).
    if ((setting === 'can_delete_any_message_group' || setting === 'can_delete_own_message_group') && !isNobody && !canSetDeleteMessagePolicy(world, actor)) {
      throw insufficientPermission();
    }
    resolved.set(setting, value);
  }
  if (input.legacyPostPolicy !== undefined) {
    const group = POST_POLICY_GROUPS[input.legacyPostPolicy - 1] ?? 'role:everyone';
    resolved.set('can_send_message_group', namedGroup(world.systemGroupId(group)));
  }
  return resolved;
}

/** Realm-level or channel-level permission to add other users (`get_streams_to_which_user_cannot_add_subscribers`). */
export function canAddSubscribers(world: World, actor: User, stream: Stream): boolean {
  const realmLevel = world.realm.settings.get('can_add_subscribers_group');
  if (realmLevel && hasGroupSetting(world, actor, realmLevel, { allowEveryone: false })) return true;
  if (isAdministrator(actor)) return true;
  for (const [setting, feature] of [
    ['can_administer_channel_group', FEATURES.CAN_ADMINISTER_CHANNEL_GROUP],
    ['can_add_subscribers_group', FEATURES.CAN_ADD_SUBSCRIBERS_GROUP],
  ] as const) {
    const value = stream.settings.get(setting);
    if (value && world.has(feature) && hasGroupSetting(world, actor, value, { allowEveryone: false })) return true;
  }
  return false;
}

/** Content access, with archived channels out of reach before level 362. */
function mayJoin(world: World, actor: User, stream: Stream): boolean {
  if (stream.isArchived && !world.has(FEATURES.ARCHIVED_CHANNEL_SUBSCRIPTIONS)) return false;
  return hasChannelContentAccess(world, actor, stream);
}

interface Plan {
  readonly existing: Stream[];
  readonly missing: Array<{ name: string; description: string }>;
  readonly settings: NewChannelSettings;
}

/** Steps 5-7 of reference 2.2: folder, per-entry checks, names, existing vs missing, creation rights. */
function plan(world: World, actor: User, input: SubscribeInput, settings: Map<ChannelPermissionSetting, GroupSetting>): Plan {
  if (input.folderId !== undefined) channelFolderById(world, input.folderId);
  let messageRetentionDays: number | null = null;
  for (const _ of input.subscriptions) {
    messageRetentionDays = parseRetentionDays(world, input.messageRetentionDays);
    if (input.topicsPolicy !== undefined && input.topicsPolicy !== 'inherit') {
      const allowed = world.realm.settings.get('can_set_topics_policy_group');
      if (!allowed || !hasGroupSetting(world, actor, allowed)) throw insufficientPermission();
    }
  }
  const entries = input.subscriptions.map((item) => ({
    name: pythonStrip(item.name),
    // Newlines are not allowed in channel descriptions (test_create_api_multiline_description).
    description: (item.description ?? '').replace(/\n/g, ' '),
  }));
  for (const name of new Set(entries.map((e) => e.name))) checkChannelName(name);
  const existing = new Map<number, Stream>();
  const missing = new Map<string, { name: string; description: string }>();
  for (const entry of entries) {
    const stream = world.streamByName(entry.name);
    if (stream) existing.set(stream.id, stream);
    else if (!missing.has(entry.name.toLowerCase())) missing.set(entry.name.toLowerCase(), entry);
  }
  const newSettings: NewChannelSettings = {
    inviteOnly: input.inviteOnly,
    isWebPublic: input.isWebPublic,
    isDefaultStream: input.isDefaultStream,
    historyPublicToSubscribers: input.historyPublicToSubscribers,
    messageRetentionDays,
    topicsPolicy: input.topicsPolicy,
    folderId: input.folderId ?? null,
    settings,
  };
  for (const _ of missing.values()) checkChannelCreation(world, actor, newSettings);
  return { existing: [...existing.values()], missing: [...missing.values()], settings: newSettings };
}

/**
 * Subscribes `principals` (or the actor) to the named channels, creating missing ones with the
 * request's settings. Emits `stream`/`create`, `default_streams`, `subscription`/`add` and
 * `peer_add`, then sends the due Notification Bot messages (reference 2.5).
 */
export function subscribe(world: World, actor: User, input: SubscribeInput): SubscribeResult {
  const settings = resolveSettings(world, actor, input);
  const { existing, missing, settings: newSettings } = plan(world, actor, input, settings);
  const subscribingOthers = input.principals.length > 0 && !input.principals.every((p) => p === actor.id);
  const unauthorized = existing.filter((s) => !mayJoin(world, actor, s));
  if (unauthorized.length > 0 && input.authorizationErrorsFatal) throw badRequest(`Unable to access channel (${unauthorized[0]!.name}).`);
  const authorized = existing.filter((s) => !unauthorized.includes(s));
  // Raised even when authorization_errors_fatal is false (reference section 9, point 3).
  if (subscribingOthers && authorized.some((s) => !canAddSubscribers(world, actor, s))) throw insufficientPermission();
  const users = subscribingOthers ? resolvePrincipals(world, actor, input.principals) : [actor];

  // Every check passed: from here on the request changes the world.
  const created = missing.map((m) => buildChannel(world, actor, m.name, m.description, newSettings));
  for (const stream of created) storeChannel(world, stream);
  if (input.isDefaultStream) addDefaultChannels(world, created);
  const colors = new Map(input.subscriptions.filter((s) => s.color !== undefined).map((s) => [s.name, s.color as string]));
  const { added, already } = addSubscriptions(world, [...authorized, ...created], users, colors);

  const key = (userId: number) => (world.has(FEATURES.SUBSCRIBE_RESPONSE_BY_USER_ID) ? String(userId) : apiEmail(world, world.users.get(userId)!));
  const names = (byUser: Map<number, Stream[]>) => Object.fromEntries([...byUser].map(([id, streams]) => [key(id), streams.map((s) => s.name)]));
  const result: { -readonly [K in keyof SubscribeResult]: SubscribeResult[K] } = { subscribed: names(added), already_subscribed: names(already) };
  if (!input.authorizationErrorsFatal) result.unauthorized = unauthorized.map((s) => s.name);
  const notice: NoticeInput = {
    actor,
    subscribed: added,
    created,
    announce: input.announce,
    sendNewSubscriptionMessages: input.sendNewSubscriptionMessages,
  };
  // Present only when requested; false when the bulk limit suppressed the DMs (OpenAPI subscribe).
  if (world.has(FEATURES.NEW_SUBSCRIPTION_MESSAGES) && input.sendNewSubscriptionMessages) {
    result.new_subscription_messages_sent = newSubscriptionMessagesAllowed(world, notice);
  }
  sendSubscriptionNotices(world, notice);
  return result;
}
