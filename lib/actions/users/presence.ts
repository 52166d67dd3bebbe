/**
 * Presence writes (sections 3.3 and 4.5; the real server's `zerver/actions/presence.py`): one row
 * per user, stamped with the realm's presence sequence whenever a field changes, and a presence
 * event when a user comes online.
 */
import type { Presence } from '../../entities/personal.js';
import { boolSetting, type User } from '../../entities/user.js';
import { legacyClientPresence, OFFLINE_THRESHOLD_SECONDS, PING_INTERVAL_SECONDS, UPDATE_MIN_FREQ_SECONDS, USER_LIMIT_FOR_PRESENCE_EVENTS } from '../../queries/users/presence.js';
import { apiEmail } from '../../queries/users/users.js';
import { userIdsWhoCanAccess } from '../../queries/users/users-admin.js';
import type { World } from '../../state/world.js';

export type PresenceStatus = 'active' | 'idle';

/** "Became online": the previous activity is older than OFFLINE - PING - 10 seconds (130 s). */
const BECAME_ONLINE_AFTER_MS = (OFFLINE_THRESHOLD_SECONDS - PING_INTERVAL_SECONDS - 10) * 1000;
const MIN_FREQ_MS = UPDATE_MIN_FREQ_SECONDS * 1000;
/** How far back a user who turns invisible is placed: OFFLINE + 55 + 10 seconds. */
const INVISIBLE_BACKDATE_MS = (OFFLINE_THRESHOLD_SECONDS + UPDATE_MIN_FREQ_SECONDS + 10) * 1000;

/**
 * The legacy presence event, to users who can access the user; skipped when the realm has
 * presence disabled or there would be more than 100 recipients, unless forced.
 */
export function sendPresenceChanged(world: World, user: User, row: Presence, force = false): void {
  if (world.realm.presenceDisabled && !force) return;
  const recipients = userIdsWhoCanAccess(world, user);
  if (recipients.length > USER_LIMIT_FOR_PRESENCE_EVENTS && !force) return;
  const website = legacyClientPresence(user, row);
  world.events.send(
    { type: 'presence', user_id: user.id, email: apiEmail(world, user), server_timestamp: world.now() / 1000, presence: { website } },
    recipients,
  );
}

/**
 * Records a client's report (`do_update_user_presence`). Invisible users (`presence_enabled`
 * false) write nothing. A new row, or an active report after 130 s without activity, sends
 * a presence event.
 */
export function reportPresence(world: World, user: User, status: PresenceStatus): void {
  if (!boolSetting(user, 'presence_enabled')) return;
  const now = world.now();
  const row = world.presence.get(user.id);
  if (!row) {
    const created: Presence = {
      userId: user.id,
      lastActiveTime: status === 'active' ? now : null,
      lastConnectedTime: now,
      lastUpdateId: ++world.presenceSequence,
    };
    world.presence.set(user.id, created);
    sendPresenceChanged(world, user, created);
    return;
  }
  const previousActive = row.lastActiveTime;
  const becameOnline = status === 'active' && (previousActive === null || now - previousActive > BECAME_ONLINE_AFTER_MS);
  let changed = false;
  if (row.lastConnectedTime === null || now - row.lastConnectedTime > MIN_FREQ_MS) {
    row.lastConnectedTime = now;
    changed = true;
  }
  if (status === 'active' && (previousActive === null || now - previousActive > MIN_FREQ_MS)) {
    row.lastActiveTime = now;
    if (row.lastConnectedTime === null || row.lastConnectedTime < now) row.lastConnectedTime = now;
    changed = true;
  }
  if (changed) row.lastUpdateId = ++world.presenceSequence;
  if (becameOnline) sendPresenceChanged(world, user, row);
}

/**
 * Presence side of toggling `presence_enabled` (invisible mode): turning it on writes a current
 * active presence; turning it off moves recent times back to now - 265 s so the user looks
 * offline. Either change is announced with a forced event.
 */
export function applyPresenceEnabled(world: World, user: User, enabled: boolean): void {
  const now = world.now();
  const row = world.presence.get(user.id);
  if (enabled) {
    const updated: Presence = row ?? { userId: user.id, lastActiveTime: now, lastConnectedTime: now, lastUpdateId: 0 };
    updated.lastActiveTime = now;
    updated.lastConnectedTime = now;
    updated.lastUpdateId = ++world.presenceSequence;
    world.presence.set(user.id, updated);
    sendPresenceChanged(world, user, updated, true);
    return;
  }
  if (!row) return;
  const backdated = now - INVISIBLE_BACKDATE_MS;
  let changed = false;
  if (row.lastConnectedTime === null || row.lastConnectedTime > backdated) {
    row.lastConnectedTime = backdated;
    changed = true;
  }
  if (row.lastActiveTime !== null && row.lastActiveTime > backdated) {
    row.lastActiveTime = backdated;
    changed = true;
  }
  if (!changed) return;
  row.lastUpdateId = ++world.presenceSequence;
  sendPresenceChanged(world, user, row, true);
}
