/**
 * The realm's group-permission settings in `POST /register` (`realm_can_*_group`, their
 * deprecated enum twins) and `server_supported_permission_settings`. Settings the world does
 * not model yet report the real server's default group.
 */
import { CHANNEL_SETTING_RULES, GROUP_SETTING_RULES, type SettingRules } from '../../settings/defaults.js';
import { type GroupSetting, namedGroup, type SystemGroupName } from '../../entities/group.js';
import type { RealmPermissionSetting } from '../../entities/realm.js';
import { type Feature, FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';
import { groupSettingToApi } from '../groups/groups.js';
import type { Fields } from './state-fields.js';

interface RealmSettingDef {
  readonly name: string;
  readonly since: Feature;
  readonly defaultGroup: SystemGroupName;
  readonly allowEveryone: boolean;
  readonly allowNobody: boolean;
  readonly requireSystem?: boolean;
  readonly allowedSystemGroups?: readonly SystemGroupName[];
}

const def = (name: string, since: Feature, defaultGroup: SystemGroupName, allowEveryone = false, allowNobody = true): RealmSettingDef => ({
  name,
  since,
  defaultGroup,
  allowEveryone,
  allowNobody,
});

/** In the order the real OpenAPI register-queue description lists them. */
const REALM_SETTINGS: readonly RealmSettingDef[] = [
  def('can_add_custom_emoji_group', FEATURES.ADD_CUSTOM_EMOJI_GROUP, 'role:members'),
  def('can_add_subscribers_group', FEATURES.ADD_SUBSCRIBERS_GROUP, 'role:members'),
  def('can_delete_any_message_group', FEATURES.DELETE_ANY_MESSAGE_GROUP, 'role:administrators'),
  def('can_delete_own_message_group', FEATURES.DELETE_OWN_MESSAGE_GROUP, 'role:everyone', true),
  def('can_set_delete_message_policy_group', FEATURES.SET_DELETE_POLICY_GROUP, 'role:moderators'),
  def('can_set_topics_policy_group', FEATURES.TOPICS_POLICY, 'role:members', true),
  def('can_invite_users_group', FEATURES.INVITE_USERS_GROUP, 'role:members'),
  def('can_mention_many_users_group', FEATURES.MENTION_MANY_USERS_GROUP, 'role:administrators', true),
  def('can_move_messages_between_channels_group', FEATURES.MOVE_BETWEEN_CHANNELS_GROUP, 'role:members'),
  def('can_move_messages_between_topics_group', FEATURES.MOVE_BETWEEN_TOPICS_GROUP, 'role:everyone', true),
  def('can_create_groups', FEATURES.CREATE_GROUPS, 'role:members'),
  def('can_create_bots_group', FEATURES.CREATE_BOTS_GROUPS, 'role:members'),
  def('can_create_write_only_bots_group', FEATURES.CREATE_BOTS_GROUPS, 'role:members'),
  def('can_manage_all_groups', FEATURES.CREATE_GROUPS, 'role:owners', false, false),
  def('can_manage_billing_group', FEATURES.MANAGE_BILLING_GROUP, 'role:administrators', false, false),
  def('can_create_public_channel_group', FEATURES.CREATE_PUBLIC_CHANNEL_GROUP, 'role:members'),
  def('can_create_private_channel_group', FEATURES.CREATE_PRIVATE_CHANNEL_GROUP, 'role:members'),
  {
    ...def('can_create_web_public_channel_group', FEATURES.CREATE_WEB_PUBLIC_CHANNEL_GROUP, 'role:owners'),
    requireSystem: true,
    allowedSystemGroups: ['role:moderators', 'role:administrators', 'role:owners', 'role:nobody'],
  },
  def('can_resolve_topics_group', FEATURES.RESOLVE_TOPICS_GROUP, 'role:everyone', true),
  def('create_multiuse_invite_group', FEATURES.MULTIUSE_INVITE_GROUP, 'role:administrators'),
  def('direct_message_initiator_group', FEATURES.DIRECT_MESSAGE_GROUPS, 'role:everyone', true),
  def('direct_message_permission_group', FEATURES.DIRECT_MESSAGE_GROUPS, 'role:everyone', true),
  {
    ...def('can_access_all_users_group', FEATURES.ACCESS_ALL_USERS_GROUP, 'role:everyone', true, false),
    requireSystem: true,
    allowedSystemGroups: ['role:everyone', 'role:members'],
  },
  def('can_summarize_topics_group', FEATURES.SUMMARIZE_TOPICS, 'role:everyone', true),
];

/** The realm's value of a permission setting, or the real server's default. */
export function realmSetting(world: World, name: string, fallback: SystemGroupName): GroupSetting {
  return world.realm.settings.get(name as RealmPermissionSetting) ?? namedGroup(world.systemGroupId(fallback));
}

function systemGroupName(world: World, setting: GroupSetting): SystemGroupName | undefined {
  if (setting.kind !== 'group') return undefined;
  for (const [name, id] of world.systemGroups) if (id === setting.groupId) return name;
  return undefined;
}

const CREATE_POLICY = new Map<SystemGroupName, number>([
  ['role:members', 1],
  ['role:everyone', 1],
  ['role:administrators', 2],
  ['role:fullmembers', 3],
  ['role:moderators', 4],
  ['role:nobody', 6],
  ['role:owners', 7],
]);
const WILDCARD_POLICY = new Map<SystemGroupName, number>([
  ['role:everyone', 1],
  ['role:members', 2],
  ['role:fullmembers', 3],
  ['role:administrators', 5],
  ['role:owners', 5],
  ['role:nobody', 6],
  ['role:moderators', 7],
]);

/** A deprecated enum twin of a group setting: the enum of its system group (members otherwise). */
export function legacyPolicy(world: World, setting: GroupSetting, table: ReadonlyMap<SystemGroupName, number>, fallback: number): number {
  const name = systemGroupName(world, setting);
  return (name && table.get(name)) ?? fallback;
}

/** Groups any member belongs to: a setting held by one of them was the legacy "everyone" value. */
const ANY_MEMBER = new Set<SystemGroupName>(['role:members', 'role:everyone']);

/**
 * `bot_creation_policy` before level 344, read off the two settings that replaced it: 1 when
 * every member may create any bot, 2 when members may create only incoming webhooks (generic
 * bots limited to administrators), 3 when only administrators may.
 */
function botCreationPolicy(world: World): number {
  const holdsAll = (name: string) => ANY_MEMBER.has(systemGroupName(world, realmSetting(world, name, 'role:members')) ?? 'role:nobody');
  if (holdsAll('can_create_bots_group')) return 1;
  return holdsAll('can_create_write_only_bots_group') ? 2 : 3;
}

/** Adds every `realm_can_*_group` field and the deprecated policy enums. */
export function addRealmPermissionFields(world: World, fields: Fields): void {
  for (const setting of REALM_SETTINGS) {
    fields.since(setting.since, `realm_${setting.name}`, groupSettingToApi(world, realmSetting(world, setting.name, setting.defaultGroup)));
  }
  const create = (name: string, fallback: SystemGroupName) => legacyPolicy(world, realmSetting(world, name, fallback), CREATE_POLICY, 1);
  fields
    .since(FEATURES.CREATE_STREAM_POLICY_SPLIT, 'realm_create_public_stream_policy', create('can_create_public_channel_group', 'role:members'))
    .since(FEATURES.CREATE_STREAM_POLICY_SPLIT, 'realm_create_private_stream_policy', create('can_create_private_channel_group', 'role:members'))
    .before(FEATURES.CREATE_STREAM_POLICY_SPLIT, 'realm_create_stream_policy', create('can_create_public_channel_group', 'role:members'))
    .since(FEATURES.WEB_PUBLIC_STREAMS, 'realm_create_web_public_stream_policy', create('can_create_web_public_channel_group', 'role:owners'))
    .before(FEATURES.CREATE_BOTS_GROUPS, 'realm_bot_creation_policy', botCreationPolicy(world))
    .set(
      'realm_wildcard_mention_policy',
      legacyPolicy(world, realmSetting(world, 'can_mention_many_users_group', 'role:administrators'), WILDCARD_POLICY, 5),
    );
}

interface PermissionMetadata {
  require_system_group: boolean;
  allow_internet_group: boolean;
  allow_nobody_group: boolean;
  allow_everyone_group: boolean;
  default_group_name: string;
  default_for_system_groups: string | null;
  allowed_system_groups: string[];
}

const fromRules = (rules: SettingRules, defaultName: string, forSystem: string | null): PermissionMetadata => ({
  require_system_group: false,
  allow_internet_group: rules.allowInternet,
  allow_nobody_group: rules.allowNobody,
  allow_everyone_group: rules.allowEveryone,
  default_group_name: defaultName,
  default_for_system_groups: forSystem,
  allowed_system_groups: [],
});

/** Channel settings: default group names of a channel created by subscribe, and their levels. */
const CHANNEL_DEFAULTS = new Map<string, readonly [string, Feature | null]>([
  ['can_add_subscribers_group', ['role:nobody', FEATURES.CAN_ADD_SUBSCRIBERS_GROUP]],
  ['can_administer_channel_group', ['channel_creator', FEATURES.CAN_ADMINISTER_CHANNEL_GROUP]],
  ['can_delete_any_message_group', ['role:nobody', FEATURES.ADMIN_SET_USER_STATUS]],
  ['can_delete_own_message_group', ['role:nobody', FEATURES.ADMIN_SET_USER_STATUS]],
  ['can_move_messages_out_of_channel_group', ['role:nobody', FEATURES.CAN_MOVE_OUT_OF_CHANNEL_GROUP]],
  ['can_move_messages_within_channel_group', ['role:nobody', FEATURES.CAN_MOVE_OUT_OF_CHANNEL_GROUP]],
  ['can_remove_subscribers_group', ['role:administrators', FEATURES.CAN_REMOVE_SUBSCRIBERS_GROUP]],
  ['can_resolve_topics_group', ['role:nobody', FEATURES.RESOLVE_TOPICS_GROUP]],
  ['can_send_message_group', ['role:everyone', FEATURES.STREAM_POST_POLICY_REMOVED]],
  ['can_subscribe_group', ['role:nobody', FEATURES.CAN_SUBSCRIBE_GROUP]],
]);

const GROUP_DEFAULTS = new Map<string, readonly [string, Feature | null]>([
  ['can_add_members_group', ['group_creator', FEATURES.CAN_ADD_MEMBERS_GROUP]],
  ['can_join_group', ['role:nobody', FEATURES.CAN_JOIN_GROUP]],
  ['can_leave_group', ['role:everyone', FEATURES.CAN_LEAVE_GROUP]],
  ['can_manage_group', ['group_creator', FEATURES.CAN_MANAGE_GROUP]],
  ['can_mention_group', ['role:everyone', null]],
  ['can_remove_members_group', ['role:nobody', FEATURES.CAN_REMOVE_MEMBERS_GROUP]],
]);

/** `server_supported_permission_settings` (FL 221), for the settings the emulated level has. */
export function supportedPermissionSettings(world: World): Record<string, Record<string, PermissionMetadata>> {
  const realm = REALM_SETTINGS.filter((s) => world.has(s.since)).map((s): [string, PermissionMetadata] => [
    s.name,
    {
      require_system_group: s.requireSystem ?? false,
      allow_internet_group: false,
      allow_nobody_group: s.allowNobody,
      allow_everyone_group: s.allowEveryone,
      default_group_name: s.defaultGroup,
      default_for_system_groups: null,
      allowed_system_groups: [...(s.allowedSystemGroups ?? [])],
    },
  ]);
  const scoped = (rules: ReadonlyMap<string, SettingRules>, defaults: ReadonlyMap<string, readonly [string, Feature | null]>, forSystem: string | null) =>
    [...rules].flatMap(([name, rule]): Array<[string, PermissionMetadata]> => {
      const [defaultName, since] = defaults.get(name) ?? ['role:nobody', null];
      return since && !world.has(since) ? [] : [[name, fromRules(rule, defaultName, forSystem)]];
    });
  return {
    realm: Object.fromEntries(realm),
    stream: Object.fromEntries(scoped(CHANNEL_SETTING_RULES, CHANNEL_DEFAULTS, null)),
    group: Object.fromEntries(scoped(GROUP_SETTING_RULES, GROUP_DEFAULTS, 'role:nobody')),
  };
}
