/**
 * The three wire formats of `presence` events (real-server notes on http-register-events 4.5), chosen per queue
 * as the real server's `process_presence_event` does:
 *
 * - `simplified_presence_events`: `{type, presences: {"<user_id>": {active_timestamp, idle_timestamp}}}`;
 * - else `slim_presence`: the legacy event without `email`;
 * - else legacy: `{type, user_id, email, server_timestamp, presence: {website: {...}}}`.
 *
 * Emitters send the legacy shape. The conversion rule to the modern shape, owned here:
 * 1. a `presences` map on the emitted event is used as it is (and stripped from legacy shapes);
 * 2. otherwise the subject's stored presence row gives `active_timestamp` / `idle_timestamp`
 *    (last active / last connected, in whole seconds; a null time falls back to `date_joined`,
 *    as the modern presence endpoint does);
 * 3. otherwise (no row) both come from the newest legacy record's `timestamp`, and an `idle`
 *    record leaves `active_timestamp` at `date_joined`.
 */
import { seconds } from '../state/clock.js';
import { type ModernPresence, modernPresence } from '../queries/users/presence.js';
import type { World } from '../state/world.js';
import type { ChatEvent } from '../state/event-hub.js';

function legacyRecord(event: ChatEvent): { status: string; timestamp: number } | undefined {
  const presence = event.presence;
  if (typeof presence !== 'object' || presence === null) return undefined;
  let newest: { status: string; timestamp: number } | undefined;
  for (const record of Object.values(presence as Record<string, unknown>)) {
    if (typeof record !== 'object' || record === null) continue;
    const { status, timestamp } = record as { status?: unknown; timestamp?: unknown };
    if (typeof status !== 'string' || typeof timestamp !== 'number') continue;
    if (!newest || timestamp > newest.timestamp) newest = { status, timestamp };
  }
  return newest;
}

/** The modern entry for the event's subject, by the rule above. */
export function modernPresenceOf(world: World, event: ChatEvent): ModernPresence | undefined {
  const userId = event.user_id;
  if (typeof userId !== 'number') return undefined;
  const user = world.users.get(userId);
  const row = world.presence.get(userId);
  if (user && row) return modernPresence(user, row);
  const joined = seconds(user?.dateJoined ?? 0);
  const record = legacyRecord(event);
  if (!record) return undefined;
  const at = Math.floor(record.timestamp);
  return { active_timestamp: record.status === 'active' ? at : joined, idle_timestamp: at };
}

/** The event as one queue receives it; undefined when nothing can be sent. */
export function presenceForQueue(
  world: World,
  event: ChatEvent,
  format: { readonly simplified: boolean; readonly slim: boolean },
): ChatEvent | undefined {
  const { presences, ...legacy } = event;
  if (format.simplified) {
    if (typeof presences === 'object' && presences !== null) return { type: 'presence', presences };
    const modern = modernPresenceOf(world, event);
    if (!modern) return undefined;
    return { type: 'presence', presences: Object.fromEntries([[String(event.user_id), modern]]) };
  }
  if (format.slim) {
    const { email: _email, ...slim } = legacy;
    return slim as ChatEvent;
  }
  return legacy as ChatEvent;
}
