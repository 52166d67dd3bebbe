/** Messages, their per-user flags and their stored edit history (section 2.5). */

export type Recipient =
  | { readonly kind: 'stream'; streamId: number; topic: string }
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

/** One user's emoji reaction to a message; `reactionType` is `unicode_emoji`, `realm_emoji` or `zulip_extra_emoji`. */
export interface Reaction {
  readonly userId: number;
  readonly emojiName: string;
  readonly emojiCode: string;
  readonly reactionType: string;
}

export interface Message {
  readonly id: number;
  readonly senderId: number;
  recipient: Recipient;
  content: string;
  renderedContent: string;
  /** Milliseconds since the epoch. */
  readonly sentAt: number;
  readonly editHistory: EditEvent[];
  lastEditAt: number | null;
  lastMovedAt: number | null;
  /** User ID to that user's flags (`read`, `starred`, ...); a user without an entry never received it. */
  readonly flags: Map<number, Set<string>>;
  readonly client: string;
  /** Reactions in the order they were added. */
  readonly reactions: Reaction[];
}
