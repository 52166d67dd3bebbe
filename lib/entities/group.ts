/** User groups, system groups and group-setting values (sections 1 and 4.9). */

export const SYSTEM_GROUP_NAMES = [
  'role:internet',
  'role:everyone',
  'role:members',
  'role:fullmembers',
  'role:moderators',
  'role:administrators',
  'role:owners',
  'role:nobody',
] as const;
export type SystemGroupName = (typeof SYSTEM_GROUP_NAMES)[number];

/**
 * A permission setting: a named group, or an anonymous group of direct members and subgroups.
 * Inputs with no members and one subgroup collapse to that group; empty ones to `role:nobody`.
 */
export type GroupSetting =
  | { readonly kind: 'group'; readonly groupId: number }
  | { readonly kind: 'anonymous'; readonly members: ReadonlySet<number>; readonly subgroups: ReadonlySet<number> };

export const GROUP_PERMISSION_SETTINGS = [
  'can_add_members_group',
  'can_join_group',
  'can_leave_group',
  'can_manage_group',
  'can_mention_group',
  'can_remove_members_group',
] as const;
export type GroupPermissionSetting = (typeof GROUP_PERMISSION_SETTINGS)[number];

export interface UserGroup {
  readonly id: number;
  name: string;
  description: string;
  readonly members: Set<number>;
  readonly subgroups: Set<number>;
  readonly isSystemGroup: boolean;
  readonly creatorId: number | null;
  /** Milliseconds since the epoch, or null for groups predating the record. */
  readonly dateCreated: number | null;
  deactivated: boolean;
  readonly settings: Map<GroupPermissionSetting, GroupSetting>;
}

export const namedGroup = (groupId: number): GroupSetting => ({ kind: 'group', groupId });
