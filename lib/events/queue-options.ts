/**
 * What a client chose when it created an event queue (`POST /register`, or `GET /events`
 * without `queue_id`): the event-type filter, the message narrow, payload options and the
 * client capabilities of real-server notes on http-register-events 3.2. Every capability defaults to false
 * except `pronouns_field_type_supported`, as on the real server.
 */
import { isGuest, type User } from '../entities/user.js';
import { badRequest } from '../errors.js';
import type { NarrowTerm } from './narrow.js';

export interface ClientCapabilities {
  readonly notificationSettingsNull: boolean;
  readonly bulkMessageDeletion: boolean;
  readonly userAvatarUrlFieldOptional: boolean;
  readonly streamTypingNotifications: boolean;
  readonly userSettingsObject: boolean;
  readonly pronounsFieldTypeSupported: boolean;
  readonly linkifierUrlTemplate: boolean;
  readonly userListIncomplete: boolean;
  readonly includeDeactivatedGroups: boolean;
  readonly archivedChannels: boolean;
  readonly emptyTopicName: boolean;
  /** FL 419 on the real server; honoured at every emulated level (see the events README notes). */
  readonly simplifiedPresenceEvents: boolean;
}

/** Capability names as clients send them, mapped to the fields above. */
export const CAPABILITY_NAMES: ReadonlyArray<readonly [string, keyof ClientCapabilities]> = [
  ['notification_settings_null', 'notificationSettingsNull'],
  ['bulk_message_deletion', 'bulkMessageDeletion'],
  ['user_avatar_url_field_optional', 'userAvatarUrlFieldOptional'],
  ['stream_typing_notifications', 'streamTypingNotifications'],
  ['user_settings_object', 'userSettingsObject'],
  ['pronouns_field_type_supported', 'pronounsFieldTypeSupported'],
  ['linkifier_url_template', 'linkifierUrlTemplate'],
  ['user_list_incomplete', 'userListIncomplete'],
  ['include_deactivated_groups', 'includeDeactivatedGroups'],
  ['archived_channels', 'archivedChannels'],
  ['empty_topic_name', 'emptyTopicName'],
  ['simplified_presence_events', 'simplifiedPresenceEvents'],
];

export const DEFAULT_CAPABILITIES: ClientCapabilities = {
  notificationSettingsNull: false,
  bulkMessageDeletion: false,
  userAvatarUrlFieldOptional: false,
  streamTypingNotifications: false,
  userSettingsObject: false,
  pronounsFieldTypeSupported: true,
  linkifierUrlTemplate: false,
  userListIncomplete: false,
  includeDeactivatedGroups: false,
  archivedChannels: false,
  emptyTopicName: false,
  simplifiedPresenceEvents: false,
};

/** Builds capabilities from `name -> bool` pairs; unknown names are ignored. */
export function capabilitiesFrom(values: ReadonlyMap<string, boolean>): ClientCapabilities {
  const out: Record<keyof ClientCapabilities, boolean> = { ...DEFAULT_CAPABILITIES };
  for (const [wire, field] of CAPABILITY_NAMES) {
    const value = values.get(wire);
    if (value !== undefined) out[field] = value;
  }
  return out;
}

export interface QueueOptions {
  /** Event types the queue accepts; null accepts every type. Heartbeats always pass. */
  readonly eventTypes: readonly string[] | null;
  readonly narrow: readonly NarrowTerm[];
  readonly applyMarkdown: boolean;
  readonly clientGravatar: boolean;
  readonly slimPresence: boolean;
  readonly allPublicStreams: boolean;
  readonly capabilities: ClientCapabilities;
  /** Idle lifetime in seconds; 0 means the server default. Capped at 7 days. */
  readonly lifespanSecs: number;
}

export const DEFAULT_QUEUE_TIMEOUT_SECS = 600;
export const MAX_QUEUE_TIMEOUT_SECS = 7 * 24 * 60 * 60;
/**
 * Queues one user may hold at once. The real server sets no such number (abandoned queues only
 * expire); this server bounds them so that a client registering in a loop cannot grow memory
 * and the cost of every send to that user without limit.
 */
export const DEFAULT_MAX_QUEUES_PER_USER = 100;

/**
 * The effective idle timeout, as `ClientDescriptor` computes it: 0 means the default, anything
 * else is capped at 7 days (a negative value therefore expires at the next sweep).
 */
export function queueTimeoutSecs(requested: number, defaultSecs: number = DEFAULT_QUEUE_TIMEOUT_SECS): number {
  return Math.min(requested === 0 ? defaultSecs : requested, MAX_QUEUE_TIMEOUT_SECS);
}

/** Guests may not ask for every public channel's messages (`can_access_public_streams`). */
export function checkAllPublicStreams(user: User, allPublicStreams: boolean): void {
  if (allPublicStreams && isGuest(user)) throw badRequest('User not authorized for this query');
}
