/**
 * Feature-level gates used by the channel, subscription and typing code that `lib/features.ts`
 * does not list yet (to be merged there). Levels come from the OpenAPI "Changes" notes.
 */
import type { Feature } from './features.js';

const f = (level: number, what: string): Feature => ({ level, what });

export const CHANNEL_FEATURES = {
  MESSAGE_RETENTION_DAYS: f(17, 'channels: message_retention_days'),
  DATE_CREATED: f(30, 'channels: date_created'),
  BOT_OWNER_UNSUBSCRIBE: f(145, 'users may unsubscribe the bots they own'),
  GUEST_CREATE_EVENT_ON_SUBSCRIBE: f(192, 'guests subscribed to a public channel get stream/create'),
  GUEST_PEER_AND_CREATE_EVENTS: f(220, 'guests get peer events for web-public and subscribed public channels, and web-public stream/create'),
  SUBSCRIPTION_EMAIL_ADDRESS_REMOVED: f(226, 'subscription objects lose email_address'),
  CREATOR_ID: f(254, 'channels: creator_id'),
  IS_ARCHIVED: f(315, 'channels: is_archived'),
  IS_RECENTLY_ACTIVE: f(323, 'channels: is_recently_active'),
  DEFAULT_STREAMS_EVENT_IDS: f(330, 'default_streams event carries IDs (was channel objects)'),
  STREAM_DELETE_EVENT_IDS: f(343, 'stream/delete event carries stream_ids; streams hold only stream_id'),
  SUBSCRIBER_COUNT: f(394, 'channels: subscriber_count'),
  CAN_RESOLVE_TOPICS_GROUP: f(402, 'channels: can_resolve_topics_group'),
} as const satisfies Record<string, Feature>;
