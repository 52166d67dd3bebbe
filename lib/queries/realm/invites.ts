/**
 * Invitations a user controls (`GET /invites`): administrators see every one in the realm,
 * others their own. Expired and revoked invitations are left out.
 */
import type { EmailInvite, InviteTerms, MultiuseInvite } from '../../entities/invite.js';
import { isAdministrator, type User } from '../../entities/user.js';
import { FEATURES } from '../../features/feature-levels.js';
import type { World } from '../../state/world.js';

const seconds = (ms: number): number => Math.floor(ms / 1000);

export const isLive = (world: World, invite: InviteTerms & { readonly revoked: boolean }): boolean =>
  !invite.revoked && (invite.expiresAt === null || invite.expiresAt >= world.now());

const controls = (user: User, invite: InviteTerms): boolean => isAdministrator(user) || invite.referrerId === user.id;

function emailInviteToApi(world: World, invite: EmailInvite): Record<string, unknown> {
  const out: Record<string, unknown> = {
    email: invite.email,
    invited_by_user_id: invite.referrerId,
    invited: seconds(invite.createdAt),
    expiry_date: invite.expiresAt === null ? null : seconds(invite.expiresAt),
    id: invite.id,
    invited_as: invite.invitedAs,
    is_multiuse: false,
  };
  if (world.has(FEATURES.INVITE_NOTIFY_REFERRER)) out.notify_referrer_on_join = invite.notifyReferrerOnJoin;
  return out;
}

const multiuseToApi = (invite: MultiuseInvite): Record<string, unknown> => ({
  invited_by_user_id: invite.referrerId,
  invited: seconds(invite.createdAt),
  expiry_date: invite.expiresAt === null ? null : seconds(invite.expiresAt),
  id: invite.id,
  link_url: invite.linkUrl,
  invited_as: invite.invitedAs,
  is_multiuse: true,
});

/** Email invitations first, then reusable links, each by ID. */
export function invitesControlledBy(world: World, user: User): Record<string, unknown>[] {
  const byId = <T extends { readonly id: number }>(items: Iterable<T>) => [...items].sort((a, b) => a.id - b.id);
  const email = byId(world.invites.values()).filter((i) => isLive(world, i) && controls(user, i));
  const links = byId(world.multiuseInvites.values()).filter((i) => isLive(world, i) && controls(user, i));
  return [...email.map((i) => emailInviteToApi(world, i)), ...links.map(multiuseToApi)];
}
