/**
 * What the personal family changes and must put back at the end of each sequence: settings,
 * statuses, alert words, mutes, drafts, saved snippets and topic visibility policies of the run's
 * identities. Restoring inside the sequence (before the queues are drained) makes the restores
 * part of what converges, and leaves each run as it found the identities.
 */
import type { IdentityName } from '../../credentials/types.js';
import type { RunChannel } from '../../rules/support/message-fixtures.js';
import type { State } from '../types.js';

/** Display settings that reach nobody else, each a boolean (all exist from level 89). */
export const SETTINGS = ['twenty_four_hour_time', 'left_side_userlist', 'translate_emoticons', 'starred_message_counts', 'fluid_layout_width', 'high_contrast_mode'] as const;
export const STATUS_TEXTS = ['in a meeting', 'commuting', 'on vacation'] as const;
export const STATUS_EMOJI = ['smile', 'tada', 'rocket'] as const;
export const TOPICS = ['alpha', 'beta', 'gamma'] as const;

export interface PersonalFixture {
  readonly observers: readonly IdentityName[];
  /** The channel whose topics get visibility policies (every identity is subscribed). */
  readonly channel: RunChannel;
  /** Each identity's settings (of SETTINGS) and status before the rule. */
  readonly settings: Map<IdentityName, State>;
  readonly statuses: Map<IdentityName, State>;
  /** What the current sequence changed (emptied by the restore). */
  readonly changedSettings: Map<IdentityName, Map<string, boolean>>;
  readonly statusChanged: Set<IdentityName>;
  readonly alertWords: Map<IdentityName, Set<string>>;
  readonly mutes: Map<IdentityName, Set<IdentityName>>;
  readonly drafts: Map<IdentityName, number[]>;
  readonly snippets: Map<IdentityName, number[]>;
  readonly topics: Map<IdentityName, Set<string>>;
  /** User IDs of the observers. */
  readonly userIds: ReadonlyMap<IdentityName, number>;
  /** Counts edits, so that each edit's content is new. */
  edits: number;
  /** Alert words are the run tag plus a number, so nothing else has them. */
  readonly wordPrefix: string;
}

/** The set (or list) kept for `who` in `map`, created empty. */
export function entryOf<K, V>(map: Map<K, V>, key: K, empty: () => V): V {
  const found = map.get(key);
  if (found !== undefined) return found;
  const made = empty();
  map.set(key, made);
  return made;
}
