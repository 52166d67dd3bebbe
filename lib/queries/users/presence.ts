/**
 * Presence reads (sections 2.4, 3.3, 4.5; the real server's `zerver/lib/presence.py`): modern and
 * legacy entries, the realm-wide fetch with its time window and `last_update_id` filter.
 */
import { badRequest } from '../../errors.js';
import type { Presence } from '../../entities/personal.js';
import type { User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';
import { apiEmail } from './users.js';

/** `OFFLINE_THRESHOLD_SECS`: older timestamps count as offline. */
export const OFFLINE_THRESHOLD_SECONDS = 200;
/** `PRESENCE_PING_INTERVAL_SECS`: how often clients report. */
export const PING_INTERVAL_SECONDS = 60;
/** `PRESENCE_UPDATE_MIN_FREQ_SECONDS`: stored times only move forward by more than this. */
export const UPDATE_MIN_FREQ_SECONDS = 55;
/** `PRESENCE_LEGACY_EVENT_OFFSET_FOR_ACTIVITY_SECONDS`: legacy `active` when active within this of connected. */
export const LEGACY_ACTIVE_OFFSET_SECONDS = 70;
/** Presence events are skipped when they would reach more users than this. */
export const USER_LIMIT_FOR_PRESENCE_EVENTS = 100;
/** The default window of the realm-wide fetch. */
export const DEFAULT_HISTORY_LIMIT_DAYS = 14;

const toSeconds = (ms: number): number => Math.floor(ms / 1000);

/** Stored times with the real server's fallback: a null time is the user's `date_joined`. */
function times(user: User, row: Presence): { active: number; connected: number } {
  return { active: row.lastActiveTime ?? user.dateJoined, connected: row.lastConnectedTime ?? user.dateJoined };
}

export interface ModernPresence {
  readonly active_timestamp: number;
  readonly idle_timestamp: number;
}

export function modernPresence(user: User, row: Presence): ModernPresence {
  const { active, connected } = times(user, row);
  return { active_timestamp: toSeconds(active), idle_timestamp: toSeconds(connected) };
}

export interface LegacyClientPresence {
  readonly client: 'website';
  readonly status: 'active' | 'idle';
  readonly timestamp: number;
  readonly pushable: false;
}

/** `format_legacy_presence_dict`: active when last active within 70 s of last connected. */
export function legacyClientPresence(user: User, row: Presence): LegacyClientPresence {
  const { active, connected } = times(user, row);
  const isActive = active + LEGACY_ACTIVE_OFFSET_SECONDS * 1000 >= connected;
  return { client: 'website', status: isActive ? 'active' : 'idle', timestamp: toSeconds(isActive ? active : connected), pushable: false };
}

/** The legacy entry: `website` and `aggregated` (the same data, without `pushable`). */
export function legacyPresence(user: User, row: Presence): Record<string, unknown> {
  const website = legacyClientPresence(user, row);
  return { aggregated: { client: website.client, status: website.status, timestamp: website.timestamp }, website };
}

export interface PresenceQuery {
  /** Modern format (keyed by user ID) instead of legacy (keyed by API email). */
  readonly slim: boolean;
  /** Only rows written after this sequence number; also turns the window off when positive. */
  readonly lastUpdateId?: number;
  /** Window in days (default 14); 0 returns nothing. */
  readonly historyLimitDays?: number;
}

export interface PresenceState {
  readonly presences: Record<string, unknown>;
  readonly server_timestamp: number;
  readonly presence_last_update_id: number;
}

/**
 * The realm's presence as `viewer` fetches it (`get_presence_response`): active human users,
 * rows newer than `lastUpdateId`, inside the window unless `lastUpdateId` > 0. A realm with
 * presence disabled returns nothing and -1.
 */
export function presenceState(world: World, viewer: User, query: PresenceQuery): PresenceState {
  void viewer; // Access limiting (CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE) is off, as by default.
  const now = world.now();
  const server_timestamp = now / 1000;
  if (world.realm.presenceDisabled) return { presences: {}, server_timestamp, presence_last_update_id: -1 };
  const days = query.historyLimitDays ?? DEFAULT_HISTORY_LIMIT_DAYS;
  const windowApplies = query.lastUpdateId === undefined || query.lastUpdateId <= 0;
  const since = now - days * 86_400_000;
  const entries: Array<[string, unknown]> = [];
  let maxId: number | undefined;
  if (query.historyLimitDays !== 0) {
    for (const row of world.presence.values()) {
      const user = world.users.get(row.userId);
      if (!user || !user.isActive || user.isBot) continue;
      if (query.lastUpdateId !== undefined && row.lastUpdateId <= query.lastUpdateId) continue;
      if (windowApplies && (row.lastConnectedTime === null || row.lastConnectedTime < since)) continue;
      entries.push(query.slim ? [String(user.id), modernPresence(user, row)] : [apiEmail(world, user), legacyPresence(user, row)]);
      if (maxId === undefined || row.lastUpdateId > maxId) maxId = row.lastUpdateId;
    }
  }
  return { presences: Object.fromEntries(entries), server_timestamp, presence_last_update_id: maxId ?? query.lastUpdateId ?? -1 };
}

/**
 * `GET /users/{user_id_or_email}/presence`: a digit segment is a user ID, anything else an API
 * email (case-insensitive). No window applies; `aggregated.status` becomes `offline` after 200 s.
 */
export function singleUserPresence(world: World, segment: string): Record<string, unknown> {
  let target: User | undefined;
  if (/^\d+$/.test(segment) && world.has(FEATURES.PRESENCE_BY_USER_ID)) {
    target = world.users.get(Number(segment));
  } else {
    const lower = segment.toLowerCase();
    target = [...world.users.values()].find((u) => !u.isSystemBot && apiEmail(world, u).toLowerCase() === lower);
  }
  if (!target || !target.isActive || target.isSystemBot) throw badRequest('No such user');
  if (target.isBot) throw badRequest('Presence is not supported for bot users.');
  const row = world.presence.get(target.id);
  if (!row) throw badRequest(`No presence data for ${segment}`);
  const website = legacyClientPresence(target, row);
  const offline = toSeconds(world.now()) - website.timestamp > OFFLINE_THRESHOLD_SECONDS;
  return {
    aggregated: { status: offline ? 'offline' : website.status, timestamp: website.timestamp },
    website: { status: website.status, timestamp: website.timestamp },
  };
}
