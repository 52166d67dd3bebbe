/**
 * Who may invite, as whom, and who controls an invitation (the real server's
 * `invite_users_backend`, `generate_multiuse_invite_backend` and `check_role_based_permissions`):
 * inviting needs the realm's `can_invite_users_group` (level 321) and reusable links its
 * `create_multiuse_invite_group` (level 209); inviting as owner needs an owner, as administrator
 * or moderator an administrator; guests never. Another user's invitation is listed, resent and
 * revoked only by administrators (owners for owner invitations).
 */
import type { Reply } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { check, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { expectPrivileged, expectPrivilegeRefused } from '../support/org-checks.js';
import { holdersByRole, mayAct, NON_GUEST_ROLES, realmState } from '../support/realm-permissions.js';
import type { Rule, RuleContext } from '../types.js';
import { type ApiInvite, INVITE_AS, INVITE_LEVELS, invitationFor, inviteRule, linkFor, listInvites, mayBeTooNew, type RuleInvites } from './invites-support.js';

/** Which roles an inviter may give: owners any, administrators all but owner, others member and guest. */
function mayInviteAs(who: IdentityName, role: number): boolean {
  if (role === INVITE_AS.OWNER) return who === 'owner';
  if (role === INVITE_AS.ADMIN || role === INVITE_AS.MODERATOR) return who === 'owner' || who === 'admin';
  return true;
}

/** Checks a reply against `allowed`, accepting the "account too new" refusal where the target may give it. */
function expectInviteOutcome(ctx: RuleContext, reply: Reply, allowed: boolean, tooNew: boolean, what: string): boolean {
  if (allowed && tooNew && reply.status === 400 && reply.body?.code === 'INVITATION_FAILED') {
    ctx.note(`${what} was refused as INVITATION_FAILED: the inviter's account may be too new to invite on this target`);
    return false;
  }
  expectPrivileged(reply, allowed, what);
  return allowed;
}

const inviteAsByRole = inviteRule({
  id: 'invites/invite-as-by-role',
  title: 'each role invites exactly when it holds can_invite_users_group, as owner only if an owner, as administrator or moderator only if an administrator; a guest never; refused invitations are not listed',
  section: 'api/send-invites',
  levels: { min: INVITE_LEVELS.INVITE_GROUP },
  needs: ['owner', 'moderator', 'member', 'guest'],
}, async (ctx, invites) => {
  const admin = ctx.as('admin');
  const may = await holdersByRole(ctx, await realmState(admin), 'realm_can_invite_users_group');
  const expected = new Map<string, { by: number; as: number }>();
  const refused: string[] = [];
  for (const who of NON_GUEST_ROLES) {
    const tooNew = who !== 'owner' && who !== 'admin' && (await mayBeTooNew(ctx, who));
    for (const role of Object.values(INVITE_AS)) {
      const email = invites.address();
      const allowed = mayAct(may, who) && mayInviteAs(who, role);
      const sent = expectInviteOutcome(ctx, await invites.send(who, [email], [['invite_as', role]]), allowed, tooNew, `the ${who} inviting as role ${role}`);
      if (sent) expected.set(email, { by: ctx.identity(who).userId, as: role });
      else refused.push(email);
    }
  }
  const email = invites.address();
  expectError(await invites.send('guest', [email]), { status: 400, code: 'BAD_REQUEST' });
  refused.push(email);
  const listed = new Map((await listInvites(admin)).filter((invite) => !invite.is_multiuse).map((invite) => [invite.email ?? '', invite]));
  for (const [address, want] of expected) expectEqual([listed.get(address)?.invited_by_user_id, listed.get(address)?.invited_as], [want.by, want.as], `inviter and role of ${address}`);
  expectEqual(refused.filter((address) => listed.has(address)), [], 'refused invitations that are listed');
});

const linksByRole = inviteRule({
  id: 'invites/multiuse-by-role',
  title: 'each role creates a reusable link exactly when it holds create_multiuse_invite_group (an administrator link only as an administrator); a guest never; the creator may revoke its own link',
  endpoint: 'POST /invites/multiuse, DELETE /invites/multiuse/{invite_id}',
  section: 'api/create-invite-link; api/revoke-invite-link',
  levels: { min: INVITE_LEVELS.MULTIUSE_GROUP },
  needs: ['owner', 'moderator', 'member', 'guest'],
}, async (ctx, invites) => {
  const admin = ctx.as('admin');
  const may = await holdersByRole(ctx, await realmState(admin), 'realm_create_multiuse_invite_group');
  for (const who of NON_GUEST_ROLES) {
    for (const role of [INVITE_AS.MEMBER, INVITE_AS.ADMIN]) {
      const client = ctx.as(who);
      const allowed = mayAct(may, who) && mayInviteAs(who, role);
      const reply = await invites.link(who, [['invite_as', role]]);
      expectPrivileged(reply, allowed, `the ${who} creating a link for role ${role}`);
      if (!allowed) continue;
      const link = await linkFor(client, String(reply.body?.invite_link));
      check(link !== undefined && link.invited_by_user_id === ctx.identity(who).userId, `the ${who}'s link is not listed with the ${who} as inviter`);
      expectSuccess(await client.delete(`/invites/multiuse/${link.id}`));
    }
  }
  expectError(await invites.link('guest'), { status: 400, code: 'BAD_REQUEST' });
});

/** An invitation by `who` as `role` (undefined when the target refuses it). */
async function invitationBy(ctx: RuleContext, invites: RuleInvites, who: IdentityName, role: number): Promise<ApiInvite | undefined> {
  const email = invites.address();
  const reply = await invites.send(who, [email], [['invite_as', role]]);
  if (reply.status !== 200) return undefined;
  return invitationFor(ctx.as('admin'), email);
}

const controlByRole = inviteRule({
  id: 'invites/control-by-role',
  title: 'administrators list every invitation and resend or revoke those of others (owner invitations only owners); members list only their own and may not touch others\' (400); guests may not list (400)',
  endpoint: 'GET /invites, POST /invites/{invite_id}/resend, DELETE /invites/{invite_id}',
  section: 'api/get-invites; api/revoke-email-invite; api/resend-email-invite',
  needs: ['owner', 'moderator', 'member', 'second-member', 'guest'],
}, async (ctx, invites) => {
  const admin = ctx.as('admin');
  const byAdmin = await invitationBy(ctx, invites, 'admin', INVITE_AS.MEMBER);
  const byOwner = await invitationBy(ctx, invites, 'owner', INVITE_AS.OWNER);
  check(byAdmin !== undefined && byOwner !== undefined, 'the administrator\'s or the owner\'s invitation was refused');
  for (const who of ['member', 'moderator'] as const) {
    const client = ctx.as(who);
    check(!(await listInvites(client)).some((invite) => invite.id === byAdmin.id), `the ${who} lists the administrator's invitation`);
    expectPrivilegeRefused(await client.post(`/invites/${byAdmin.id}/resend`), `the ${who} resending the administrator's invitation`);
    expectPrivilegeRefused(await client.delete(`/invites/${byAdmin.id}`), `the ${who} revoking the administrator's invitation`);
  }
  expectError(await ctx.as('guest').get('/invites'), { status: 400, code: 'BAD_REQUEST' });
  check((await listInvites(admin)).some((invite) => invite.id === byOwner.id), 'the administrator does not list the owner\'s invitation');
  expectPrivilegeRefused(await admin.post(`/invites/${byOwner.id}/resend`), 'the administrator resending an owner invitation');
  expectPrivilegeRefused(await admin.delete(`/invites/${byOwner.id}`), 'the administrator revoking an owner invitation');
  expectSuccess(await ctx.as('owner').delete(`/invites/${byOwner.id}`));
  expectSuccess(await ctx.as('owner').post(`/invites/${byAdmin.id}/resend`));
  const byMember = await invitationBy(ctx, invites, 'member', INVITE_AS.MEMBER);
  if (byMember === undefined) return ctx.note('the member may not invite on this target: its control of its own invitation was not checked');
  check((await listInvites(ctx.as('member'))).some((invite) => invite.id === byMember.id), 'the member does not list its own invitation');
  check(!(await listInvites(ctx.as('second-member'))).some((invite) => invite.id === byMember.id), 'the second member lists the member\'s invitation');
  expectPrivilegeRefused(await ctx.as('second-member').delete(`/invites/${byMember.id}`), 'the second member revoking the member\'s invitation');
  expectSuccess(await ctx.as('member').delete(`/invites/${byMember.id}`));
  check((await invitationFor(admin, byMember.email ?? '')) === undefined, 'the member\'s revoked invitation is still listed');
});

export const rules: readonly Rule[] = [inviteAsByRole, linksByRole, controlByRole];
