/**
 * The `realm_export_consent` event (level 312): a human user's consent to private data export,
 * as administrators see it in `GET /export/realm/consents`. The real server sends it to the
 * realm's active human administrators and owners (`get_human_admin_users`) when the user changes
 * `allow_private_data_export`, and when a human user is created or reactivated, since the user
 * events of those carry no consent. Register holds no consent state, so clients apply nothing.
 */
import { isAdministrator, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';

/** Active human administrators and owners. */
export function humanAdministratorIds(world: World): number[] {
  return [...world.users.values()].filter((u) => u.isActive && !u.isBot && isAdministrator(u)).map((u) => u.id);
}

/** Tells the administrators the user's current consent; nothing for bots or before level 312. */
export function sendExportConsent(world: World, user: User): void {
  if (user.isBot || !world.has(FEATURES.REALM_EXPORT_CONSENT_EVENT)) return;
  const consented = user.settings.get('allow_private_data_export') === true;
  world.events.send({ type: 'realm_export_consent', user_id: user.id, consented }, humanAdministratorIds(world));
}
