/** Messages, their per-user flags and their stored edit history (section 2.5). */

export type Recipient =
  | { readonly kind: 'stream'; readonly streamId: number; topic: string }
  | { readonly kind: 'direct'; readonly userIds: readonly number[] };

/** One stored edit, newest first in `Message.editHistory`, as the real server stores them. */
export interface EditEvent {
  readonly userId: number | null;
  /** Milliseconds since the epoch. */
  readonly timestamp: number;
  readonly prevContent?: string;
  readonly prevRenderedContent?: string;
  readonly prevTopic?: string;
  readonly topic?: string;
  readonly prevStream?: number;
  readonly stream?: number;
}

/** Every flag the API knows, in the real server's bit order (`UserMessage.flags`), internal ones left out. */
export const API_FLAGS: readonly string[] = [
  'read',
  'starred',
  'collapsed',
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'group_mentioned',
  'force_expand',
  'force_collapse',
  'has_alert_word',
  'historical',
];

/** One user's emoji reaction to a message; `reactionType` is `unicode_emoji`, `realm_emoji` or `zulip_extra_emoji`. */
export interface Reaction {
  readonly userId: number;
  readonly emojiName: string;
  readonly emojiCode: string;
  readonly reactionType: string;
}

/** One user's flags on a message, read and written as a set of flag names (`read`, `starred`, ...). */
export type FlagRow = Set<string>;

/**
 * The per-user rows of a message (the real server's `UserMessage`s): user ID to that user's flags.
 * A stored message keeps them compactly and indexes them (lib/state/history/message-rows.ts); a
 * message being built may use a plain `Map` of `Set`s, which storing it converts.
 */
export interface MessageFlags extends Iterable<[number, FlagRow]> {
  readonly size: number;
  get(userId: number): FlagRow | undefined;
  has(userId: number): boolean;
  set(userId: number, flags: Iterable<string>): this;
  delete(userId: number): boolean;
  keys(): IterableIterator<number>;
  values(): IterableIterator<FlagRow>;
  entries(): IterableIterator<[number, FlagRow]>;
}

export interface Message {
  readonly id: number;
  readonly senderId: number;
  /** Changed only through `world.messages.relocate`, which keeps the per-channel counts. */
  readonly recipient: Recipient;
  content: string;
  renderedContent: string;
  /** Milliseconds since the epoch. */
  readonly sentAt: number;
  readonly editHistory: EditEvent[];
  lastEditAt: number | null;
  lastMovedAt: number | null;
  /** User ID to that user's flags (`read`, `starred`, ...); a user without an entry never received it. */
  readonly flags: MessageFlags;
  readonly client: string;
  /** Reactions in the order they were added. */
  readonly reactions: Reaction[];
}
