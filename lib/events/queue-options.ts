/**
 * What a client chose when it created an event queue (`POST /register`, or `GET /events`
 * without `queue_id`): the event-type filter, the message narrow, payload options and the
 * client capabilities (lib/entities/client-capabilities.ts).
 */
import type { ClientCapabilities } from '../entities/client-capabilities.js';
import { isGuest, type User } from '../entities/user.js';
import { badRequest } from '../errors.js';
import type { NarrowTerm } from './narrow.js';

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
