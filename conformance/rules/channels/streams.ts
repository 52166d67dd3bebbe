/**
 * Every channel rule beyond subscribing (subscriptions.ts), from its files: listing
 * (streams-list.ts), reading one channel (streams-get.ts), changing it (streams-update*.ts) and
 * its events (streams-events.ts), who administers and archiving (streams-archive.ts), personal
 * channel settings (stream-preferences*.ts), default channels (default-streams.ts) and topics
 * (topics.ts).
 */
import type { Rule } from '../types.js';
import { rules as defaultStreams } from './default-streams.js';
import { rules as preferences } from './stream-preferences.js';
import { rules as mutedTopics } from './stream-preferences-muted-topics.js';
import { rules as archive } from './streams-archive.js';
import { rules as events } from './streams-events.js';
import { rules as get } from './streams-get.js';
import { rules as list } from './streams-list.js';
import { rules as update } from './streams-update.js';
import { rules as updateGroups } from './streams-update-groups.js';
import { rules as updateSettings } from './streams-update-settings.js';
import { rules as topics } from './topics.js';

export const rules: readonly Rule[] = [
  ...list,
  ...get,
  ...update,
  ...updateSettings,
  ...updateGroups,
  ...events,
  ...archive,
  ...preferences,
  ...mutedTopics,
  ...defaultStreams,
  ...topics,
];
