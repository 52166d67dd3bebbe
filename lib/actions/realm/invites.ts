/**
 * Email invitations and reusable invitation links, with the real server's order of checks and
 * its `INVITATION_FAILED` errors. No email is sent: each invitation (and each resend) is
 * recorded in `World.outbox`. Every change sends `invites_changed` to the realm's
 * administrators and to the invitation's referrer.
 */
import { MAX_LIST_ITEMS, tooManyItems } from '../../input/limits.js';
import { ApiError, badRequest, insufficientPermission, mustBeAdministrator, mustBeOwner } from '../../errors.js';
import { isValidEmail } from '../../input/email.js';
import type { EmailInvite, InviteTerms, MultiuseInvite } from '../../entities/invite.js';
import { isAdministrator, isOwner, ROLE, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import { adminUserIds, hasChannelContentAccess } from '../../queries/channels/channel-access.js';
import { hasGroupSetting } from '../../queries/groups/groups.js';
import { realmSetting } from '../../queries/register/realm-permission-state.js';
import { EMAIL_REFUSAL_TEXT, realmEmailRefusal } from '../../queries/realm/realm-domains.js';
import { accessUserGroupForUpdate } from '../../queries/groups/user-group-permissions.js';
import type { World } from '../../state/world.js';
import { realmProperty } from '../../settings/realm-properties.js';
import { canAddSubscribers } from '../channels/subscriptions.js';

/** What the acting user asks for; `expiresInMinutes` null never expires. */
export interface InviteRequest {
  readonly invitedAs: number;
  readonly expiresInMinutes: number | null;
  readonly streamIds: readonly number[];
  readonly groupIds: readonly number[];
  readonly includeRealmDefaultSubscriptions: boolean;
}

/** Accounts younger than this may not invite when the realm does not require invitations. */
const MIN_INVITER_AGE_MS = 3 * 24 * 3600 * 1000;

/** The real server's `InvitationError`: 400 `INVITATION_FAILED` with per-address errors. */
const invitationError = (msg: string, errors: ReadonlyArray<readonly [string, string, boolean]>, sent: boolean): ApiError =>
  new ApiError('INVITATION_FAILED', 400, msg, {
    errors: errors.map((e) => [...e]),
    sent_invitations: sent,
    license_limit_reached: false,
    daily_limit_reached: false,
  });

/** Owners only invite owners; administrators, moderators (and owners) need an administrator. */
function checkRoleToGrant(actor: User, invitedAs: number, requireAdministrator: boolean): void {
  if (invitedAs === ROLE.OWNER && !isOwner(actor)) throw mustBeOwner();
  if (requireAdministrator && !isAdministrator(actor)) throw mustBeAdministrator();
}

const grantsStaffRole = (invitedAs: number): boolean => invitedAs === ROLE.OWNER || invitedAs === ROLE.ADMINISTRATOR || invitedAs === ROLE.MODERATOR;

/** Channels the invitees will join: readable by the actor, and ones the actor may add others to. */
function checkStreams(world: World, actor: User, streamIds: readonly number[]): void {
  const streams = streamIds.map((id) => {
    const stream = world.streams.get(id);
    if (!stream || stream.isArchived || !hasChannelContentAccess(world, actor, stream)) {
      throw badRequest(`Invalid channel ID ${id}. No invites were sent.`);
    }
    return stream;
  });
  const defaultsAllowed = world.has(FEATURES.INVITE_DEFAULT_CHANNELS_ALWAYS);
  if (streams.some((s) => !(defaultsAllowed && world.defaultStreamIds.has(s.id)) && !canAddSubscribers(world, actor, s))) {
    throw badRequest('You do not have permission to subscribe other users to channels.');
  }
}

function checkTerms(actor: User, request: InviteRequest): void {
  checkRoleToGrant(actor, request.invitedAs, grantsStaffRole(request.invitedAs));
}

function notifyInvitesChanged(world: World, referrerId: number): void {
  const recipients = adminUserIds(world);
  recipients.add(referrerId);
  world.events.send({ type: 'invites_changed' }, [...recipients]);
}

function terms(world: World, actor: User, request: InviteRequest): InviteTerms {
  const now = world.now();
  return {
    referrerId: actor.id,
    invitedAs: request.invitedAs,
    streamIds: [...request.streamIds],
    groupIds: [...request.groupIds],
    includeRealmDefaultSubscriptions: request.includeRealmDefaultSubscriptions,
    createdAt: now,
    expiresAt: request.expiresInMinutes === null ? null : now + request.expiresInMinutes * 60_000,
  };
}

function recordInvitationEmail(world: World, invite: EmailInvite): void {
  const referrer = world.users.get(invite.referrerId);
  world.outbox.push({
    template: 'invitation',
    toUserIds: [],
    to: [invite.email],
    subject: `${referrer?.fullName ?? ''} invited you to join ${world.realm.name}`,
    context: { referrer_full_name: referrer?.fullName ?? '', referrer_realm_name: world.realm.name, invite_id: String(invite.id) },
    sentAt: world.now(),
  });
}

/** `validate_email_is_valid`, then the existing-account check of `get_existing_user_errors`. */
function addressError(world: World, email: string): [string, boolean] | undefined {
  if (!isValidEmail(email)) return ['Invalid address.', false];
  const refusal = realmEmailRefusal(world, email);
  return refusal === undefined ? undefined : [EMAIL_REFUSAL_TEXT[refusal], false];
}

/** The addresses in `invitee_emails`: split at commas and newlines, `Name <address>` reduced to the address, stripped, distinct. */
export function inviteeEmails(raw: string): string[] {
  const out = new Set<string>();
  for (const part of raw.split(/[,\n]/)) {
    const open = part.indexOf('<');
    const close = part.lastIndexOf('>');
    out.add((open >= 0 && close > open ? part.slice(open + 1, close) : part).trim());
  }
  return [...out];
}

/**
 * Invites every address of `rawEmails` with the given terms. Addresses that
 * already have an account are skipped: when some were skipped the others are still invited and
 * the answer is an `INVITATION_FAILED` error with `sent_invitations: true`.
 */
export function inviteUsers(world: World, actor: User, rawEmails: string, request: InviteRequest & { readonly notifyReferrerOnJoin: boolean }): void {
  if (!hasGroupSetting(world, actor, realmSetting(world, 'can_invite_users_group', 'role:members'), { allowEveryone: false })) throw insufficientPermission();
  checkTerms(actor, request);
  if (rawEmails === '') throw badRequest('You must specify at least one email address.');
  const emails = inviteeEmails(rawEmails);
  if (emails.length > MAX_LIST_ITEMS) throw tooManyItems('invitee_emails', MAX_LIST_ITEMS);
  checkStreams(world, actor, request.streamIds);
  for (const id of request.groupIds) accessUserGroupForUpdate(world, actor, id, ['add_members']);
  if (realmProperty(world, 'invite_required') !== true && !isAdministrator(actor) && actor.dateJoined > world.now() - MIN_INVITER_AGE_MS) {
    throw invitationError('Your account is too new to send invites for this organization. Ask an organization admin, or a more experienced user.', [], false);
  }
  const invalid: Array<[string, string, boolean]> = [];
  const skipped: Array<[string, string, boolean]> = [];
  const good: string[] = [];
  for (const email of emails) {
    const error = addressError(world, email);
    if (error) invalid.push([email, ...error]);
    else good.push(email);
  }
  for (const email of [...good]) {
    const existing = world.usersByEmail.get(email.toLowerCase());
    if (!existing) continue;
    skipped.push(existing.isActive ? [email, 'Already has an account.', false] : [email, 'Account has been deactivated.', true]);
    good.splice(good.indexOf(email), 1);
  }
  if (invalid.length > 0) throw invitationError("Some emails did not validate, so we didn't send any invitations.", [...invalid, ...skipped], false);
  if (skipped.length > 0 && skipped.length === emails.length) throw invitationError("We weren't able to invite anyone.", skipped, false);

  for (const email of good) {
    const invite: EmailInvite = { id: world.ids.next('invite'), email, notifyReferrerOnJoin: request.notifyReferrerOnJoin, revoked: false, ...terms(world, actor, request) };
    world.invites.set(invite.id, invite);
    recordInvitationEmail(world, invite);
  }
  notifyInvitesChanged(world, actor.id);
  if (skipped.length > 0) {
    throw invitationError(
      "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      skipped,
      true,
    );
  }
}

/** Creates a reusable link and returns it. Below FL 209 only administrators get here. */
export function createMultiuseInvite(world: World, actor: User, request: InviteRequest, realmUrl: string): string {
  if (world.has(FEATURES.MULTIUSE_INVITE_GROUP)) {
    const setting = realmSetting(world, 'create_multiuse_invite_group', 'role:administrators');
    if (!hasGroupSetting(world, actor, setting, { allowEveryone: false })) throw insufficientPermission();
    checkTerms(actor, request);
  } else checkRoleToGrant(actor, request.invitedAs, false);
  checkStreams(world, actor, request.streamIds);
  for (const id of request.groupIds) accessUserGroupForUpdate(world, actor, id, ['add_members']);
  const id = world.ids.next('multiuseInvite');
  const key = `${id.toString(36)}${Math.floor(world.now() / 1000).toString(36)}`.padStart(24, 'k');
  const invite: MultiuseInvite = { id, linkUrl: `${realmUrl}/join/${key}/`, revoked: false, ...terms(world, actor, request) };
  world.multiuseInvites.set(id, invite);
  notifyInvitesChanged(world, actor.id);
  return invite.linkUrl;
}

/**
 * `access_invite_by_id`: another user's invitation needs an administrator (an owner for owners).
 * Like the real server it finds expired invitations too, but not revoked ones (the real server
 * deletes an email invitation when it is revoked).
 */
function accessInvite(world: World, actor: User, id: number): EmailInvite {
  const invite = world.invites.get(id);
  if (!invite || invite.revoked) throw badRequest('No such invitation');
  if (invite.referrerId !== actor.id) checkRoleToGrant(actor, invite.invitedAs, true);
  return invite;
}

export function revokeInvite(world: World, actor: User, id: number): void {
  const invite = accessInvite(world, actor, id);
  invite.revoked = true;
  notifyInvitesChanged(world, invite.referrerId);
}

/** Sends the invitation email again (recorded in the outbox); nothing else changes. */
export function resendInvite(world: World, actor: User, id: number): void {
  recordInvitationEmail(world, accessInvite(world, actor, id));
}

export function revokeMultiuseInvite(world: World, actor: User, id: number): void {
  const invite = world.multiuseInvites.get(id);
  if (!invite) throw badRequest('No such invitation');
  if (!world.has(FEATURES.MULTIUSE_INVITE_GROUP)) checkRoleToGrant(actor, invite.invitedAs, false);
  else if (invite.referrerId !== actor.id) checkRoleToGrant(actor, invite.invitedAs, true);
  if (invite.revoked) throw badRequest('Invitation has already been revoked');
  invite.revoked = true;
  notifyInvitesChanged(world, invite.referrerId);
}
