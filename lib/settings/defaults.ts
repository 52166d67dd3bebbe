/** Default permission settings of new channels, groups and realms, as the real server sets them. */
import { type GroupPermissionSetting, type GroupSetting, namedGroup, type SystemGroupName } from '../entities/group.js';
import type { RealmPermissionSetting } from '../entities/realm.js';
import type { ChannelPermissionSetting } from '../entities/stream.js';
import type { World } from '../state/world.js';

export const creatorOnly = (creatorId: number): GroupSetting => ({
  kind: 'anonymous',
  members: new Set([creatorId]),
  subgroups: new Set(),
});

const system = (world: World, name: SystemGroupName): GroupSetting => namedGroup(world.systemGroupId(name));

/** Settings of a channel created through subscribe (`test_default_permission_settings_on_stream_creation`). */
export function defaultChannelSettings(world: World, creatorId: number | null): Map<ChannelPermissionSetting, GroupSetting> {
  return new Map<ChannelPermissionSetting, GroupSetting>([
    ['can_add_subscribers_group', system(world, 'role:nobody')],
    ['can_administer_channel_group', creatorId === null ? system(world, 'role:nobody') : creatorOnly(creatorId)],
    ['can_delete_any_message_group', system(world, 'role:nobody')],
    // The realm's can_delete_own_message_group (everyone) already lets senders delete; the
    // channel's only adds to it (`Stream.stream_permission_group_settings`: nobody).
    ['can_delete_own_message_group', system(world, 'role:nobody')],
    ['can_move_messages_out_of_channel_group', system(world, 'role:nobody')],
    ['can_move_messages_within_channel_group', system(world, 'role:nobody')],
    ['can_remove_subscribers_group', system(world, 'role:administrators')],
    ['can_resolve_topics_group', system(world, 'role:nobody')],
    ['can_send_message_group', system(world, 'role:everyone')],
    ['can_subscribe_group', system(world, 'role:nobody')],
  ]);
}

/** Settings of a user-defined group (section 4.9; `test_user_group_create`). */
export function defaultGroupSettings(world: World, creatorId: number | null): Map<GroupPermissionSetting, GroupSetting> {
  const creator = (): GroupSetting => (creatorId === null ? system(world, 'role:nobody') : creatorOnly(creatorId));
  return new Map<GroupPermissionSetting, GroupSetting>([
    ['can_add_members_group', creator()],
    ['can_join_group', system(world, 'role:nobody')],
    ['can_leave_group', system(world, 'role:everyone')],
    ['can_manage_group', creator()],
    ['can_mention_group', system(world, 'role:everyone')],
    ['can_remove_members_group', system(world, 'role:nobody')],
  ]);
}

/** System groups have every group setting at `role:nobody`. */
export function systemGroupSettings(nobodyId: number): Map<GroupPermissionSetting, GroupSetting> {
  const nobody = namedGroup(nobodyId);
  return new Map<GroupPermissionSetting, GroupSetting>([
    ['can_add_members_group', nobody],
    ['can_join_group', nobody],
    ['can_leave_group', nobody],
    ['can_manage_group', nobody],
    ['can_mention_group', nobody],
    ['can_remove_members_group', nobody],
  ]);
}

const REALM_DEFAULTS: ReadonlyArray<[RealmPermissionSetting, SystemGroupName]> = [
  ['can_access_all_users_group', 'role:everyone'],
  ['can_add_custom_emoji_group', 'role:members'],
  ['can_add_subscribers_group', 'role:members'],
  ['can_create_groups', 'role:members'],
  ['can_create_private_channel_group', 'role:members'],
  ['can_create_public_channel_group', 'role:members'],
  ['can_create_web_public_channel_group', 'role:owners'],
  ['can_invite_users_group', 'role:members'],
  ['can_create_bots_group', 'role:members'],
  ['can_create_write_only_bots_group', 'role:members'],
  ['can_delete_any_message_group', 'role:administrators'],
  ['can_delete_own_message_group', 'role:everyone'],
  ['can_manage_billing_group', 'role:administrators'],
  ['can_mention_many_users_group', 'role:administrators'],
  ['can_set_delete_message_policy_group', 'role:moderators'],
  ['can_summarize_topics_group', 'role:everyone'],
  ['direct_message_initiator_group', 'role:everyone'],
  ['can_manage_all_groups', 'role:owners'],
  ['can_set_topics_policy_group', 'role:members'],
  ['can_move_messages_between_channels_group', 'role:members'],
  ['can_move_messages_between_topics_group', 'role:everyone'],
  ['can_resolve_topics_group', 'role:everyone'],
  ['create_multiuse_invite_group', 'role:administrators'],
  ['direct_message_permission_group', 'role:everyone'],
];

export function defaultRealmSettings(world: World): Map<RealmPermissionSetting, GroupSetting> {
  return new Map(REALM_DEFAULTS.map(([setting, group]) => [setting, system(world, group)]));
}

/** Which system groups each setting may not take (section 4.9 and the real server's models). */
export interface SettingRules {
  readonly allowEveryone: boolean;
  readonly allowNobody: boolean;
  readonly allowInternet: boolean;
  /** Absent means allowed; section 4.9 refuses `role:owners` for `can_mention_group`. */
  readonly allowOwners?: boolean;
}

export const GROUP_SETTING_RULES: ReadonlyMap<GroupPermissionSetting, SettingRules> = new Map([
  ['can_add_members_group', { allowEveryone: false, allowNobody: true, allowInternet: false }],
  ['can_join_group', { allowEveryone: false, allowNobody: true, allowInternet: false }],
  ['can_leave_group', { allowEveryone: true, allowNobody: true, allowInternet: false }],
  ['can_manage_group', { allowEveryone: false, allowNobody: true, allowInternet: false }],
  // Section 4.9 (real servers accept role:owners here; we follow the description).
  ['can_mention_group', { allowEveryone: true, allowNobody: true, allowInternet: false, allowOwners: false }],
  ['can_remove_members_group', { allowEveryone: false, allowNobody: true, allowInternet: false }],
]);

export const CHANNEL_SETTING_RULES: ReadonlyMap<ChannelPermissionSetting, SettingRules> = new Map([
  ['can_add_subscribers_group', { allowEveryone: false, allowNobody: true, allowInternet: false }],
  ['can_administer_channel_group', { allowEveryone: false, allowNobody: true, allowInternet: false }],
  ['can_delete_any_message_group', { allowEveryone: true, allowNobody: true, allowInternet: false }],
  ['can_delete_own_message_group', { allowEveryone: true, allowNobody: true, allowInternet: false }],
  ['can_move_messages_out_of_channel_group', { allowEveryone: true, allowNobody: true, allowInternet: false }],
  ['can_move_messages_within_channel_group', { allowEveryone: true, allowNobody: true, allowInternet: false }],
  ['can_remove_subscribers_group', { allowEveryone: true, allowNobody: true, allowInternet: false }],
  ['can_resolve_topics_group', { allowEveryone: true, allowNobody: true, allowInternet: false }],
  ['can_send_message_group', { allowEveryone: true, allowNobody: true, allowInternet: false }],
  ['can_subscribe_group', { allowEveryone: false, allowNobody: true, allowInternet: false }],
]);
