/**
 * An administrator changes another user's email (`new_email` on `PATCH /users/{user_id}` and
 * `PATCH /users/{email}`, level 313), with the effects of the real server's
 * `do_change_user_delivery_email`.
 */
import { badRequest } from '../../errors.js';
import { EMAIL_VISIBILITY, emailVisibility, isAdministrator, type User } from '../../entities/user.js';
import { deliveryEmailViewers } from '../../queries/personal/user-settings.js';
import { realmAudience } from '../../queries/users/access.js';
import { checkNewEmailAddress } from '../../queries/users/users-admin.js';
import type { World } from '../../state/world.js';
import { notifyAvatarUrlChange } from './avatar-events.js';

/**
 * The requester must be an administrator with the `can_change_user_emails` permission (here the
 * realm-wide `canChangeUserEmails` option). The text is believed, not confirmed, to be the real one.
 */
export function checkMayChangeUserEmails(world: World, actor: User): void {
  if (!isAdministrator(actor) || world.realm.canChangeUserEmails !== true) throw badRequest('User not authorized to change user emails');
}

/** The address to store, or undefined when it is the current one (nothing to do). */
export function planEmailChange(world: World, target: User, requested: string): string | undefined {
  if (requested === target.deliveryEmail) return undefined;
  checkNewEmailAddress(world, requested);
  return requested;
}

/**
 * Stores the new delivery email (and with it the API email when the address is visible to
 * everyone), keeps the by-email index right, and sends: `delivery_email` to each user who may see
 * it, the avatar change when the avatar is a Gravatar, and `new_email` when the API email changed.
 */
export function changeDeliveryEmail(world: World, target: User, newEmail: string): void {
  world.usersByEmail.delete(target.deliveryEmail.toLowerCase());
  target.deliveryEmail = newEmail;
  world.usersByEmail.set(newEmail.toLowerCase(), target);
  const viewers = [...deliveryEmailViewers(world, target)].filter(([, sees]) => sees).map(([id]) => id);
  world.events.send({ type: 'realm_user', op: 'update', person: { user_id: target.id, delivery_email: newEmail } }, viewers);
  if (target.avatarSource === 'G') notifyAvatarUrlChange(world, target);
  if (emailVisibility(target) === EMAIL_VISIBILITY.EVERYONE) {
    world.events.send({ type: 'realm_user', op: 'update', person: { user_id: target.id, new_email: newEmail } }, realmAudience(world));
  }
}
