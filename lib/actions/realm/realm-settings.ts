/**
 * A minimal `PATCH /realm` (the real server's `update_realm`): message-editing settings, the
 * waiting period, the moderation request channel and the realm's group permission settings.
 * Everything is validated first; then values are applied and announced in the real server's order.
 */
import { ApiError, badRequest, badValue, mustBeOwner } from '../../errors.js';
import type { GroupSetting } from '../../entities/group.js';
import type { EditHistoryVisibilityPolicy, RealmPermissionSetting } from '../../entities/realm.js';
import { isOwner, type User } from '../../entities/user.js';
import type { GroupSettingInput } from '../../input/group-setting-input.js';
import { realmAudience  } from '../../queries/users/access.js';
import { groupSettingToApi } from '../../queries/groups/groups.js';
import { expectedGroupSetting, REALM_GROUP_SETTING_RULES, resolveRealmGroupSetting, sameGroupSetting } from '../../queries/realm/realm-settings.js';
import type { World } from '../../state/world.js';
import { syncFullMembers } from '../groups/role-group-events.js';

/** A group-setting change as `PATCH /realm` takes it: the new value and optionally the expected old one. */
export interface GroupSettingChange {
  readonly new: GroupSettingInput;
  readonly old?: GroupSettingInput;
}

export interface RealmUpdate {
  readonly allowMessageEditing?: boolean;
  readonly groupSettings: ReadonlyMap<RealmPermissionSetting, GroupSettingChange>;
  /** A positive number of seconds, or the text `unlimited`. */
  readonly messageContentEditLimitSeconds?: number | string;
  readonly editHistoryVisibilityPolicy?: EditHistoryVisibilityPolicy;
  readonly moderationRequestChannelId?: number;
  readonly waitingPeriodThreshold?: number;
}

/** The settings only organization owners may change (`update_realm`). */
const OWNER_ONLY_GROUP_SETTINGS: ReadonlySet<RealmPermissionSetting> = new Set(['create_multiuse_invite_group', 'can_create_groups', 'can_manage_all_groups', 'can_invite_users_group', 'can_manage_billing_group']);

/** The integer values the real server's `MessageEditHistoryVisibilityPolicyEnum` serialises to. */
const EDIT_HISTORY_POLICY_VALUE = new Map<EditHistoryVisibilityPolicy, number>([
  ['all', 1],
  ['moves', 2],
  ['none', 3],
]);

function parseEditLimit(raw: number | string): number | null {
  if (raw === 'unlimited') return null;
  if (typeof raw === 'string' || raw <= 0) {
    throw badValue('message_content_edit_limit_seconds', raw);
  }
  return raw;
}

const previousValueMismatch = (): ApiError => new ApiError('EXPECTATION_MISMATCH', 400, "'old' value does not match the expected value.");

interface PlannedGroupChange {
  readonly name: RealmPermissionSetting;
  readonly value: GroupSetting;
}

function planGroupSettings(world: World, update: RealmUpdate): PlannedGroupChange[] {
  const planned: PlannedGroupChange[] = [];
  for (const [name, rules] of REALM_GROUP_SETTING_RULES) {
    const change = update.groupSettings.get(name);
    if (!change) continue;
    const current = world.realm.settings.get(name);
    // As `validate_group_setting_value_change`: the expected old value is compared first, and a
    // value equal to the current one is skipped before any validation.
    if (change.old !== undefined && (!current || !sameGroupSetting(world, current, expectedGroupSetting(world, change.old)))) {
      throw previousValueMismatch();
    }
    if (current && sameGroupSetting(world, current, expectedGroupSetting(world, change.new))) continue;
    const value = resolveRealmGroupSetting(world, name, change.new, rules);
    planned.push({ name, value });
  }
  return planned;
}

/**
 * Validates and applies a realm update made by `actor` (an administrator). Returns the response
 * data: each changed setting with its new value, as the real server reports them.
 */
export function updateRealm(world: World, actor: User, update: RealmUpdate): Record<string, unknown> {
  const ownerNeeded = [...update.groupSettings.keys()].some((name) => OWNER_ONLY_GROUP_SETTINGS.has(name)) || update.waitingPeriodThreshold !== undefined;
  if (ownerNeeded && !isOwner(actor)) throw mustBeOwner();
  const editLimit = update.messageContentEditLimitSeconds === undefined ? undefined : parseEditLimit(update.messageContentEditLimitSeconds);
  const groupChanges = planGroupSettings(world, update);
  const channelId = update.moderationRequestChannelId;
  const realm = world.realm;
  // Like the real server, a channel ID is applied whenever it differs from the stored one
  // (including -1 while none is set); a non-negative ID must name a private channel.
  const channelChanges = channelId !== undefined && (realm.moderationRequestChannelId === null || realm.moderationRequestChannelId !== channelId);
  if (channelChanges && channelId >= 0) {
    const stream = world.streams.get(channelId);
    if (!stream) throw badRequest('Invalid channel ID');
    if (!stream.inviteOnly) throw badRequest('Moderation request channel must be private.');
  }

  const everyone = realmAudience(world);
  const data: Array<[string, unknown]> = [];
  const sendDefault = (name: string, value: unknown) =>
    world.events.send({ type: 'realm', op: 'update_dict', property: 'default', data: Object.fromEntries([[name, value]]) }, everyone);

  if (editLimit === null && realm.messageContentEditLimitSeconds !== null) {
    realm.messageContentEditLimitSeconds = null;
    sendDefault('message_content_edit_limit_seconds', null);
    data.push(['message_content_edit_limit_seconds', null]);
  }
  if (update.allowMessageEditing !== undefined && update.allowMessageEditing !== realm.allowMessageEditing) {
    realm.allowMessageEditing = update.allowMessageEditing;
    sendDefault('allow_message_editing', update.allowMessageEditing);
    data.push(['allow_message_editing', update.allowMessageEditing]);
  }
  if (typeof editLimit === 'number' && editLimit !== realm.messageContentEditLimitSeconds) {
    realm.messageContentEditLimitSeconds = editLimit;
    sendDefault('message_content_edit_limit_seconds', editLimit);
    data.push(['message_content_edit_limit_seconds', editLimit]);
  }
  const policy = update.editHistoryVisibilityPolicy;
  if (policy !== undefined && policy !== realm.editHistoryVisibilityPolicy) {
    realm.editHistoryVisibilityPolicy = policy;
    world.events.send({ type: 'realm', op: 'update', property: 'message_edit_history_visibility_policy', value: policy }, everyone);
    data.push(['message_edit_history_visibility_policy', EDIT_HISTORY_POLICY_VALUE.get(policy)]);
  }
  const threshold = update.waitingPeriodThreshold;
  if (threshold !== undefined && threshold !== realm.waitingPeriodThreshold) {
    realm.waitingPeriodThreshold = threshold;
    world.events.send({ type: 'realm', op: 'update', property: 'waiting_period_threshold', value: threshold }, everyone);
    data.push(['waiting_period_threshold', threshold]);
    syncFullMembers(world);
  }
  for (const { name, value } of groupChanges) {
    realm.settings.set(name, value);
    const apiValue = groupSettingToApi(world, value);
    sendDefault(name, apiValue);
    data.push([name, apiValue]);
  }
  if (channelChanges) {
    realm.moderationRequestChannelId = channelId >= 0 ? channelId : null;
    world.events.send({ type: 'realm', op: 'update', property: 'moderation_request_channel_id', value: channelId }, everyone);
    data.push(['moderation_request_channel_id', channelId]);
  }
  return Object.fromEntries(data);
}
