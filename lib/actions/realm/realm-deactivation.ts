/**
 * `POST /realm/deactivate`: the organization is closed. Everyone gets a `realm`/`deactivated`
 * event, the owners are notified by email (recorded in the outbox), and from then on every
 * authenticated request is refused with the real server's "This organization has been deactivated".
 */
import { badRequest } from '../../errors.js';
import { isOwner, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { activeRealmUserIds } from '../../queries/users/access.js';
import type { World } from '../../state/world.js';

/** The server's `MIN_DEACTIVATED_REALM_DELETION_DAYS` (register's `server_min_deactivated_realm_deletion_days`). */
const MIN_DELETION_DAYS = 14;

export function deactivateRealm(world: World, actor: User, deletionDelayDays: number | null): void {
  if (deletionDelayDays !== null && deletionDelayDays < MIN_DELETION_DAYS) {
    throw badRequest(`Data deletion time must be at least ${MIN_DELETION_DAYS} days in the future.`);
  }
  const recipients = activeRealmUserIds(world);
  world.realm.deactivated = true;
  world.events.send({ type: 'realm', op: 'deactivated', realm_id: world.realm.id }, recipients);
  const owners = [...world.users.values()].filter((u) => u.isActive && !u.isBot && isOwner(u));
  world.outbox.push({
    template: 'realm_deactivated',
    toUserIds: owners.map((u) => u.id),
    to: owners.map((u) => u.deliveryEmail),
    subject: `Your Zulip organization ${world.realm.name} has been deactivated`,
    context: {
      acting_user_name: actor.fullName,
      realm_name: world.realm.name,
      ...(world.has(FEATURES.REALM_DELETION_DAYS) && deletionDelayDays !== null ? { deletion_delay_days: String(deletionDelayDays) } : {}),
    },
    sentAt: world.now(),
  });
}
