/**
 * The checks of `PATCH /streams/{stream_id}` that come before any change, in the real server's
 * order (`update_stream_backend`): the proposed privacy state, default-channel, retention,
 * unarchiving, topics policy, name, folder and group-setting changes. Each returns the
 * normalised value the update will apply.
 */
import { checkChannelName } from '../../input/channel-names.js';
import { CHANNEL_SETTING_RULES } from '../../settings/defaults.js';
import { ApiError, badRequest, insufficientPermission, mustBeAdministrator, mustBeOwner } from '../../errors.js';
import type { GroupSetting } from '../../entities/group.js';
import type { RealmPermissionSetting } from '../../entities/realm.js';
import { CHANNEL_PERMISSION_SETTINGS, type ChannelPermissionSetting, type Stream } from '../../entities/stream.js';
import { isAdministrator, isOwner, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { type GroupSettingInput, resolveGroupSetting } from '../../input/group-setting-input.js';
import { hasChannelContentAccess } from '../../queries/channels/channel-access.js';
import { channelSettingApiName } from '../../queries/channels/channels.js';
import { groupSettingToApi, hasGroupSetting } from '../../queries/groups/groups.js';
import { pythonStrip } from '../../input/topic-names.js';
import { canSetDeleteMessagePolicy } from '../../queries/channels/channel-admin.js';
import type { World } from '../../state/world.js';
import { parseRetentionDays } from './channel-creation.js';
import type { PermissionState } from './channel-update-events.js';

/** A group-setting change as sent: the new value and, optionally, the value the client expects now. */
export interface GroupSettingChange {
  readonly new: GroupSettingInput;
  readonly old?: GroupSettingInput | undefined;
}

const realmPermits = (world: World, user: User, setting: RealmPermissionSetting): boolean => {
  const value = world.realm.settings.get(setting);
  return value !== undefined && hasGroupSetting(world, user, value);
};

export const contentAccessRequired = (): ApiError => badRequest('Channel content access is required.');

export interface PermissionRequest {
  readonly isPrivate?: boolean | undefined;
  readonly isWebPublic?: boolean | undefined;
  readonly historyPublicToSubscribers?: boolean | undefined;
  readonly isDefaultStream?: boolean | undefined;
}

/**
 * The privacy state the request proposes, checked: web-public needs public history and a public
 * channel, public channels need public history, default channels cannot be private, nor may the
 * moderation request channel be public. Changing `is_private` needs content access and the
 * realm's permission to create such channels; making a channel web-public needs spectator access
 * and the web-public creation permission. Returns null when the privacy does not change.
 */
export function checkPermissionChange(world: World, actor: User, stream: Stream, request: PermissionRequest): PermissionState | null {
  const inviteOnly = request.isPrivate ?? stream.inviteOnly;
  const isWebPublic = request.isWebPublic ?? stream.isWebPublic;
  const isDefault = request.isDefaultStream ?? world.defaultStreamIds.has(stream.id);
  // Before level 136 the history flag was read only together with is_private or is_web_public.
  const historyHeard = world.has(FEATURES.HISTORY_PUBLIC_ALONE) || request.isPrivate !== undefined || request.isWebPublic !== undefined;
  const historyRequest = historyHeard ? request.historyPublicToSubscribers : undefined;
  let history = stream.historyPublicToSubscribers;
  if (historyRequest !== undefined) history = historyRequest;
  else if (request.isPrivate !== undefined) history = !request.isPrivate;
  if (isWebPublic && !history) throw badRequest('Invalid parameters');
  if (isWebPublic && inviteOnly) throw badRequest('Invalid parameters');
  if (!inviteOnly && !history) throw badRequest('Invalid parameters');
  if (inviteOnly && isDefault) throw badRequest('A default channel cannot be private.');
  if (!inviteOnly && world.realm.moderationRequestChannelId === stream.id) throw badRequest('Moderation request channel must be private.');
  if (request.isPrivate !== undefined) {
    if (!hasChannelContentAccess(world, actor, stream)) throw contentAccessRequired();
    const needed = request.isPrivate ? 'can_create_private_channel_group' : 'can_create_public_channel_group';
    if (!realmPermits(world, actor, needed)) throw insufficientPermission();
  }
  if (request.isWebPublic === true) {
    if (!world.realm.enableSpectatorAccess) throw badRequest('Web-public channels are not enabled.');
    if (!realmPermits(world, actor, 'can_create_web_public_channel_group')) throw insufficientPermission();
  }
  if (request.isPrivate === undefined && request.isWebPublic === undefined && historyRequest === undefined) return null;
  return { inviteOnly, isWebPublic, historyPublicToSubscribers: history };
}

/** `is_default_stream`: administrators only. */
export function checkDefaultChange(actor: User, value: boolean | undefined): void {
  if (value !== undefined && !isAdministrator(actor)) throw mustBeAdministrator();
}

/** `message_retention_days`: owners only; null is the realm default, -1 forever. */
export function checkRetentionChange(world: World, actor: User, value: string | number | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (!isOwner(actor)) throw mustBeOwner();
  return parseRetentionDays(world, value);
}

/** `is_archived=false` (level 388): only an archived channel, and a private one needs subscribers. */
export function checkUnarchive(world: World, stream: Stream, isArchived: boolean | undefined): boolean {
  if (isArchived !== false || !world.has(FEATURES.UNARCHIVE_CHANNEL)) return false;
  if (!stream.isArchived) throw badRequest('Channel is not currently deactivated');
  const subscribed = [...(world.subscriptions.get(stream.id)?.values() ?? [])].some((sub) => sub.active);
  if (stream.inviteOnly && !subscribed) throw badRequest('Channel is private and have no subscribers');
  return true;
}

/** `new_name`: stripped; the same name is refused, a different name must be valid and free. */
export function checkRename(world: World, stream: Stream, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const name = pythonStrip(raw);
  if (name === stream.name) throw badRequest('Channel already has that name.');
  if (name.toLowerCase() !== stream.name.toLowerCase()) {
    checkChannelName(name);
    if (world.streamByName(name)) throw new ApiError('CHANNEL_ALREADY_EXISTS', 400, `Channel '${name}' already exists`);
  }
  return name;
}

/** Group settings compare by their API form, members and subgroups sorted. */
const sameSetting = (world: World, a: GroupSetting, b: GroupSetting): boolean =>
  JSON.stringify(groupSettingToApi(world, a)) === JSON.stringify(groupSettingToApi(world, b));

/** Settings whose groups grant content access: changing them needs content access. */
const NEED_CONTENT_ACCESS: ReadonlySet<ChannelPermissionSetting> = new Set(['can_add_subscribers_group', 'can_subscribe_group']);

/**
 * The group-setting changes in the model's setting order, validated as for creation. An `old`
 * value that is not the current one is `EXPECTATION_MISMATCH`; a `new` value equal to the
 * current one is no change.
 */
export function checkGroupSettingChanges(
  world: World,
  actor: User,
  stream: Stream,
  changes: ReadonlyMap<ChannelPermissionSetting, GroupSettingChange>,
): Map<ChannelPermissionSetting, GroupSetting> {
  const resolved = new Map<ChannelPermissionSetting, GroupSetting>();
  const nobody = world.systemGroupId('role:nobody');
  for (const setting of CHANNEL_PERMISSION_SETTINGS) {
    const change = changes.get(setting);
    if (change === undefined) continue;
    const name = channelSettingApiName(world, setting);
    const rules = CHANNEL_SETTING_RULES.get(setting)!;
    const current = stream.settings.get(setting);
    if (change.old !== undefined && current && !sameSetting(world, resolveGroupSetting(world, name, change.old, { ...rules, allowEveryone: true, allowNobody: true, allowInternet: true }), current)) {
      throw new ApiError('EXPECTATION_MISMATCH', 400, "'old' value does not match the expected value.");
    }
    const value = resolveGroupSetting(world, name, change.new, rules);
    if (current && sameSetting(world, value, current)) continue;
    if (NEED_CONTENT_ACCESS.has(setting) && !hasChannelContentAccess(world, actor, stream)) throw contentAccessRequired();
    const isNobody = value.kind === 'group' && value.groupId === nobody;
    if ((setting === 'can_delete_any_message_group' || setting === 'can_delete_own_message_group') && !isNobody && !canSetDeleteMessagePolicy(world, actor)) {
      throw insufficientPermission();
    }
    resolved.set(setting, value);
  }
  return resolved;
}
