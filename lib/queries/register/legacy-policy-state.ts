/**
 * The role-based policy enums `POST /register` carried before the group settings replaced them
 * (changelog levels 270 to 341: `realm_private_message_policy`, `realm_edit_topic_policy`, ...),
 * read off the group setting that replaced each, as the real server derived the deprecated
 * enums it kept: the enum of the setting's system group, the nearest one otherwise. Each appears
 * from the level that introduced it until its group setting's level; the boolean each replaced
 * (`realm_invite_by_admins_only`, ...) appears before that.
 */
import type { SystemGroupName } from '../../entities/group.js';
import { type Feature, FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';
import { legacyPolicy, realmSetting } from './realm-permission-state.js';
import type { Fields } from './state-fields.js';

type Table = ReadonlyMap<SystemGroupName, number>;

/** `CommonPolicyEnum`: members 1, administrators 2, full members 3, moderators 4. */
const COMMON: Array<[SystemGroupName, number]> = [
  ['role:everyone', 1],
  ['role:members', 1],
  ['role:administrators', 2],
  ['role:owners', 2],
  ['role:fullmembers', 3],
  ['role:moderators', 4],
];
const COMMON_POLICY: Table = new Map(COMMON);
/** With `NOBODY` (6): invitations and moves between channels. */
const WITH_NOBODY: Table = new Map([...COMMON, ['role:nobody', 6]]);
/** With `EVERYONE` (5, guests included) and `NOBODY` (6): topic edits and own-message deletion. */
const WITH_EVERYONE: Table = new Map([...COMMON, ['role:everyone', 5], ['role:nobody', 6]]);
/** `PrivateMessagePolicyEnum`: 1 unlimited, 2 disabled. */
const DIRECT_MESSAGES: Table = new Map<SystemGroupName, number>([
  ['role:everyone', 1],
  ['role:members', 1],
  ['role:nobody', 2],
]);

interface LegacyPolicy {
  readonly key: string;
  /** Null: present from the first level. */
  readonly since: Feature | null;
  /** The group setting's level, from which the enum is gone; absent when it was kept. */
  readonly until?: Feature;
  readonly setting: string;
  readonly defaultGroup: SystemGroupName;
  readonly table: Table;
  /** The boolean the enum replaced at `since`, true for these policy values. */
  readonly previous?: { readonly key: string; readonly trueFor: ReadonlySet<number> };
}

const POLICIES: readonly LegacyPolicy[] = [
  { key: 'realm_private_message_policy', since: null, until: FEATURES.DIRECT_MESSAGE_GROUPS, setting: 'direct_message_permission_group', defaultGroup: 'role:everyone', table: DIRECT_MESSAGES },
  { key: 'realm_invite_to_stream_policy', since: null, until: FEATURES.ADD_SUBSCRIBERS_GROUP, setting: 'can_add_subscribers_group', defaultGroup: 'role:members', table: COMMON_POLICY },
  {
    key: 'realm_invite_to_realm_policy',
    since: FEATURES.INVITE_TO_REALM_POLICY,
    until: FEATURES.INVITE_USERS_GROUP,
    setting: 'can_invite_users_group',
    defaultGroup: 'role:members',
    table: WITH_NOBODY,
    previous: { key: 'realm_invite_by_admins_only', trueFor: new Set([2, 6]) },
  },
  { key: 'realm_move_messages_between_streams_policy', since: FEATURES.MOVE_BETWEEN_STREAMS_POLICY, until: FEATURES.MOVE_BETWEEN_CHANNELS_GROUP, setting: 'can_move_messages_between_channels_group', defaultGroup: 'role:members', table: WITH_NOBODY },
  {
    key: 'realm_edit_topic_policy',
    since: FEATURES.EDIT_TOPIC_POLICY,
    until: FEATURES.MOVE_BETWEEN_TOPICS_GROUP,
    setting: 'can_move_messages_between_topics_group',
    defaultGroup: 'role:everyone',
    table: WITH_EVERYONE,
    previous: { key: 'realm_allow_community_topic_editing', trueFor: new Set([1, 5]) },
  },
  {
    key: 'realm_add_custom_emoji_policy',
    since: FEATURES.ADD_CUSTOM_EMOJI_POLICY,
    until: FEATURES.ADD_CUSTOM_EMOJI_GROUP,
    setting: 'can_add_custom_emoji_group',
    defaultGroup: 'role:members',
    table: COMMON_POLICY,
    previous: { key: 'realm_add_emoji_by_admins_only', trueFor: new Set([2]) },
  },
  {
    key: 'realm_delete_own_message_policy',
    since: FEATURES.DELETE_OWN_MESSAGE_POLICY,
    until: FEATURES.DELETE_OWN_MESSAGE_GROUP,
    setting: 'can_delete_own_message_group',
    defaultGroup: 'role:everyone',
    table: WITH_EVERYONE,
    previous: { key: 'realm_allow_message_deleting', trueFor: new Set([1, 5]) },
  },
  // Kept, deprecated, after `can_manage_all_groups` (299) replaced it.
  { key: 'realm_user_group_edit_policy', since: null, setting: 'can_manage_all_groups', defaultGroup: 'role:members', table: COMMON_POLICY },
];

/** Adds each legacy policy (or the boolean before it) present at the emulated level. */
export function addLegacyPolicyFields(world: World, fields: Fields): void {
  for (const policy of POLICIES) {
    if (policy.until && world.has(policy.until)) continue;
    const value = legacyPolicy(world, realmSetting(world, policy.setting, policy.defaultGroup), policy.table, 1);
    if (policy.since === null || world.has(policy.since)) fields.set(policy.key, value);
    else if (policy.previous) fields.set(policy.previous.key, policy.previous.trueFor.has(value));
  }
}
