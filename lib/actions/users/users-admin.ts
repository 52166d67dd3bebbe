/**
 * Creating, deactivating and reactivating users (sections 3.2 and 4.15; the real server's
 * `create_user_backend`, `deactivate_user_backend`, `reactivate_user_backend`).
 */
import { markCreationSteps } from '../personal/onboarding-steps.js';
import { generateApiKey } from '../../state/api-key.js';
import { isValidEmail } from '../../input/email.js';
import { badRequest, mustBeOwner } from '../../errors.js';
import type { Stream } from '../../entities/stream.js';
import { isOwner, ROLE, type SettingValue, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { realmAudience } from '../../queries/users/access.js';
import { realmEmailRefusal } from '../../queries/realm/realm-domains.js';
import { botAudienceIds } from '../../queries/users/bots.js';
import { accessUserById, toApiUser } from '../../queries/users/users.js';
import { canAdminUser, checkFullName, isLastHumanOwner, userIdsWhoCanAccess } from '../../queries/users/users-admin.js';
import { render } from '../../rendering/render.js';
import type { World } from '../../state/world.js';
import { syncRoleGroupsWithEvents } from '../groups/role-group-events.js';
import { sendSubscriptionsAddedEvents, storeSubscriptions } from '../channels/subscription-changes.js';
import { sendPeerEventsForUser } from '../channels/subscription-events.js';
import { sendExportConsent } from '../realm/export-consent.js';

/** Finds a target for an administrative operation (`access_user_by_id(..., for_admin=True)`). */
export function accessUserForAdmin(world: World, actor: User, userId: number, options: { allowDeactivated: boolean; allowBots: boolean }): User {
  const target = accessUserById(world, actor, userId, options);
  if (!canAdminUser(actor, target)) throw badRequest('Insufficient permission');
  return target;
}

/** `create_user_backend`'s texts for `email_allowed_for_realm`'s refusals. */
function checkEmailAllowed(world: World, email: string): void {
  const refusal = realmEmailRefusal(world, email);
  if (refusal === 'outside-domains') throw badRequest(`Email '${email}' not allowed in this organization`);
  if (refusal === 'disposable') throw badRequest('Disposable email addresses are not allowed in this organization');
  if (refusal === 'plus') throw badRequest('Email addresses containing + are not allowed.');
}

export interface NewUser {
  readonly email: string;
  readonly password: string;
  readonly fullName: string;
}

/** `POST /users`: checks in the real server's order, then creates a member with the realm's defaults. */
export function createUser(world: World, input: NewUser): User {
  if (world.has(FEATURES.CREATE_USERS_PERMISSION) && !world.realm.canCreateUsers) throw badRequest('User not authorized to create users');
  const fullName = checkFullName(input.fullName, { world, exceptUserId: null });
  if (!isValidEmail(input.email)) throw badRequest('Bad name or username');
  checkEmailAllowed(world, input.email);
  if (world.usersByEmail.has(input.email.toLowerCase())) throw badRequest(`Email '${input.email}' already in use`);
  const id = world.ids.next('user');
  const user: User = {
    id,
    deliveryEmail: input.email,
    fullName,
    role: ROLE.MEMBER,
    isActive: true,
    isBot: false,
    botType: null,
    botOwnerId: null,
    apiKey: generateApiKey(),
    password: input.password === '' ? null : input.password,
    timezone: '',
    dateJoined: world.now(),
    avatarSource: 'G',
    avatarVersion: 1,
    settings: new Map<string, SettingValue>(world.userSettingsDefaults),
    profileData: new Map(),
    isSystemBot: false,
  };
  world.addUser(user);
  markCreationSteps(world, user.id);
  // Subscribed before the announcement (who may access the user depends on shared channels),
  // announced to the channels' peers after it, as `do_create_user` does.
  const defaults = [...world.defaultStreamIds]
    .sort((a, b) => a - b)
    .map((streamId) => world.streams.get(streamId))
    .filter((stream): stream is Stream => stream !== undefined && !stream.isArchived);
  const subscribed = storeSubscriptions(world, defaults, [user], new Map());
  announceNewUser(world, user);
  sendExportConsent(world, user);
  syncRoleGroupsWithEvents(world, [user]);
  sendSubscriptionsAddedEvents(world, subscribed);
  return user;
}

/** `realm_user` `add` to everyone who can access the new user, each seeing the email they may see. */
export function announceNewUser(world: World, user: User): void {
  const variants = new Map<string, { person: Record<string, unknown>; recipients: number[] }>();
  for (const recipientId of userIdsWhoCanAccess(world, user)) {
    const recipient = world.users.get(recipientId) as User;
    const person = toApiUser(world, user, recipient, { clientGravatar: false, includeCustomProfileFields: true, renderMarkdown: (text) => render(world, text) });
    const key = JSON.stringify(person);
    const entry = variants.get(key) ?? { person, recipients: [] };
    entry.recipients.push(recipientId);
    variants.set(key, entry);
  }
  for (const { person, recipients } of variants.values()) world.events.send({ type: 'realm_user', op: 'add', person }, recipients);
}

/**
 * Deactivates one account and tells the realm (`do_deactivate_user`). Since level 222 that is a
 * `realm_user` update with `is_active: false`; before, a `remove` event.
 */
export function doDeactivate(world: World, user: User): void {
  const audience = userIdsWhoCanAccess(world, user).filter((id) => id !== user.id);
  user.isActive = false;
  const modern = world.has(FEATURES.NO_REMOVE_EVENT_ON_DEACTIVATION);
  const person = modern ? { user_id: user.id, is_active: false } : { user_id: user.id, full_name: user.fullName };
  world.events.send({ type: 'realm_user', op: modern ? 'update' : 'remove', person }, audience);
  if (user.isBot) {
    const bot = modern ? { user_id: user.id, is_active: false } : { user_id: user.id, full_name: user.fullName };
    world.events.send({ type: 'realm_bot', op: modern ? 'update' : 'remove', bot }, botAudienceIds(world, user));
  }
  sendPeerEventsForUser(world, user.id, 'peer_remove');
}

/**
 * `DELETE /users/{user_id}`: target lookup (no bots, no deactivated users, administrators
 * only), owner-only for owners, never the last owner. Bots the user owns are deactivated first.
 * A non-null comment queues the deactivation notice in the world's outbox.
 */
export function deactivateUser(world: World, actor: User, userId: number, comment: string | undefined): void {
  const target = accessUserForAdmin(world, actor, userId, { allowDeactivated: false, allowBots: false });
  if (isOwner(target) && !isOwner(actor)) throw mustBeOwner();
  if (isLastHumanOwner(world, target)) throw badRequest('Cannot deactivate the only organization owner');
  for (const bot of world.users.values()) {
    if (bot.isBot && bot.isActive && bot.botOwnerId === target.id) doDeactivate(world, bot);
  }
  doDeactivate(world, target);
  if (comment !== undefined) {
    world.outbox.push({
      template: 'deactivate',
      toUserIds: [target.id],
      to: [target.deliveryEmail],
      subject: `Notification of account deactivation on ${world.realm.name}`,
      context: { deactivation_notification_comment: comment.trim(), realm_name: world.realm.name },
      sentAt: world.now(),
    });
  }
}

/** `POST /users/{user_id}/reactivate`: deactivated users and bots allowed; bot names must be free. */
export function reactivateUser(world: World, actor: User, userId: number): void {
  const target = accessUserForAdmin(world, actor, userId, { allowDeactivated: true, allowBots: true });
  if (target.isBot) {
    const name = target.fullName.trim().toLowerCase();
    const taken = [...world.users.values()].some((u) => u.id !== target.id && u.isActive && !u.isSystemBot && u.fullName.trim().toLowerCase() === name);
    if (taken) {
      throw badRequest(
        `There is already an active bot named "${target.fullName}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`,
      );
    }
  }
  target.isActive = true;
  if (target.isBot) {
    const owner = target.botOwnerId === null ? undefined : world.users.get(target.botOwnerId);
    if (!owner || !owner.isActive) target.botOwnerId = actor.id;
  }
  const audience = userIdsWhoCanAccess(world, target).filter((id) => id !== target.id);
  if (world.has(FEATURES.NO_REMOVE_EVENT_ON_DEACTIVATION)) {
    world.events.send({ type: 'realm_user', op: 'update', person: { user_id: target.id, is_active: true } }, audience);
  } else {
    // Before level 222 a reactivated user was announced like a new one.
    announceNewUser(world, target);
  }
  sendExportConsent(world, target);
  if (target.isBot && target.botOwnerId !== null) {
    world.events.send({ type: 'realm_bot', op: 'update', bot: { user_id: target.id, is_active: true } }, botAudienceIds(world, target));
  }
  sendPeerEventsForUser(world, target.id, 'peer_add');
  const everyone = realmAudience(world).without(new Set([target.id]));
  for (const group of world.groups.values()) {
    if (group.members.has(target.id) && !group.deactivated) {
      world.events.send({ type: 'user_group', op: 'add_members', group_id: group.id, user_ids: [target.id] }, everyone);
    }
  }
}
