/** Users and bots of the realm. */

export const ROLE = { OWNER: 100, ADMINISTRATOR: 200, MODERATOR: 300, MEMBER: 400, GUEST: 600 } as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];
export const ROLES: readonly Role[] = [100, 200, 300, 400, 600];

export const BOT_TYPE = { GENERIC: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3, EMBEDDED: 4 } as const;
export type BotType = (typeof BOT_TYPE)[keyof typeof BOT_TYPE];

/** `email_address_visibility` values (section 4.3). */
export const EMAIL_VISIBILITY = { EVERYONE: 1, MEMBERS: 2, ADMINS: 3, NOBODY: 4, MODERATORS: 5 } as const;

export type SettingValue = boolean | number | string;

export interface User {
  readonly id: number;
  deliveryEmail: string;
  fullName: string;
  role: Role;
  isActive: boolean;
  readonly isBot: boolean;
  readonly botType: BotType | null;
  botOwnerId: number | null;
  apiKey: string;
  /** Null when the account has no usable password (bots, or users created without one). */
  password: string | null;
  timezone: string;
  /** Milliseconds since the epoch, on the world's clock. */
  readonly dateJoined: number;
  avatarSource: 'G' | 'U';
  avatarVersion: number;
  /** Personal settings (the names of section 4.3), copied from the realm defaults at creation. */
  readonly settings: Map<string, SettingValue>;
  /** Custom profile field ID to value. */
  readonly profileData: Map<number, string>;
  /** Cross-realm system bots (Notification Bot and friends) are not members of the realm. */
  readonly isSystemBot: boolean;
}

export const isAdministrator = (user: User): boolean => user.role === ROLE.OWNER || user.role === ROLE.ADMINISTRATOR;
export const isOwner = (user: User): boolean => user.role === ROLE.OWNER;
export const isModeratorOrAbove = (user: User): boolean => user.role <= ROLE.MODERATOR;
export const isGuest = (user: User): boolean => user.role === ROLE.GUEST;

export function boolSetting(user: User, name: string): boolean {
  return user.settings.get(name) === true;
}

export function emailVisibility(user: User): number {
  if (user.isBot) return EMAIL_VISIBILITY.EVERYONE;
  const value = user.settings.get('email_address_visibility');
  return typeof value === 'number' ? value : EMAIL_VISIBILITY.EVERYONE;
}
