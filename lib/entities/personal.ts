/** Per-user records: drafts, topic preferences, presence, status, navigation views, push devices. */

export type DraftType = '' | 'stream' | 'private';

export interface Draft {
  readonly id: number;
  readonly userId: number;
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  /** Seconds since the epoch, possibly fractional (rounded to microseconds). */
  lastEditTime: number;
}

export const VISIBILITY_POLICY = { NONE: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;

export interface UserTopic {
  readonly userId: number;
  readonly streamId: number;
  /** The topic as the user last sent it; matched case-insensitively. */
  topicName: string;
  visibilityPolicy: number;
  /** Seconds since the epoch. */
  lastUpdated: number;
}

export interface Presence {
  readonly userId: number;
  /** Milliseconds since the epoch; null means never. */
  lastActiveTime: number | null;
  lastConnectedTime: number | null;
  lastUpdateId: number;
}

export interface UserStatus {
  statusText: string;
  emojiName: string;
  emojiCode: string;
  reactionType: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
  /** The status's own "away" flag, used only below feature level 148 (later it mirrors `presence_enabled`). */
  away?: boolean;
}

export interface NavigationView {
  readonly fragment: string;
  isPinned: boolean;
  name: string | null;
}

export interface PushRegistration {
  readonly userId: number;
  readonly pushAccountId: number;
  tokenKind: 'fcm' | 'apns';
  pushPublicKey: string;
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
  status: 'pending' | 'active' | 'failed';
  /** Set when `status` is `failed`: the relay's error code (`INVALID_BOUNCER_PUBLIC_KEY`, ...). */
  errorCode?: string | null;
}

/** A user's reusable message text (`/saved_snippets`, level 297). */
export interface SavedSnippet {
  readonly id: number;
  readonly userId: number;
  title: string;
  content: string;
  /** Seconds since the epoch. */
  readonly dateCreated: number;
}

/** A mobile device token registered the legacy way: APNs (with its app ID) or Android (FCM). */
export interface LegacyPushToken {
  readonly userId: number;
  readonly kind: 'apns' | 'fcm';
  readonly token: string;
  appId: string | null;
}
