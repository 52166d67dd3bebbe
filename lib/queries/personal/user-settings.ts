/**
 * Read-only helpers of `PATCH /settings` (a user's own settings; the real server's
 * `json_change_settings`): which settings exist, time zone names, languages, and who may see a
 * user's delivery email under a given `email_address_visibility`.
 */
import { LANGUAGE_NAMES } from '../../data/languages.js';
import { TIME_ZONE_LINKS, TIME_ZONE_NAMES } from '../../data/time-zones.js';
import type { User } from '../../entities/user.js';
import type { World } from '../../state/world.js';
import { userIdsWhoCanAccess } from '../users/users-admin.js';
import { canSeeDeliveryEmail } from '../users/users.js';

/** Whether `zoneinfo` would load the name (the real server's `check_timezone`); `""` is not a name. */
export function isKnownTimeZone(name: string): boolean {
  return TIME_ZONE_NAMES.has(name);
}

/** The stored form of a time zone: a link becomes the zone it points to (`canonicalize_timezone`). */
export function canonicalTimeZone(name: string): string {
  return TIME_ZONE_LINKS.get(name) ?? name;
}

/** Whether `default_language` accepts the code (`get_available_language_codes`). */
export function isAvailableLanguage(code: string): boolean {
  return LANGUAGE_NAMES.has(code);
}

/** The `language_name` of a code, as settings events carry it. */
export function languageName(code: string): string {
  return LANGUAGE_NAMES.get(code) ?? code;
}

/**
 * For each active user who can access `target`, whether they can see its delivery email now
 * (`can_access_delivery_email`; the user always sees their own). Called before and after an
 * `email_address_visibility` change to find whose view flips.
 */
export function deliveryEmailViewers(world: World, target: User): Map<number, boolean> {
  const seen = new Map<number, boolean>();
  for (const id of userIdsWhoCanAccess(world, target)) {
    const viewer = world.users.get(id);
    if (viewer) seen.set(id, canSeeDeliveryEmail(viewer, target));
  }
  return seen;
}
