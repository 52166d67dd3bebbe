/**
 * Invitations as an administrator sends them: `POST /invites`, `GET /invites`,
 * `POST /invites/{id}/resend`, `DELETE /invites/{id}`, reusable links (`POST /invites/multiuse`,
 * `DELETE /invites/multiuse/{id}`), the `INVITATION_FAILED` errors, and `invites_changed`
 * events. Every address is at the operator's throwaway domain (see invites-support.ts).
 */
import type { JsonObject } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { awaitEvent, draftSentinel, expectNoEventBefore, settleQueue } from '../support/org-checks.js';
import { openStreamAs } from '../support/event-stream.js';
import type { Rule } from '../types.js';
import { INVITE_AS, INVITE_LEVELS, invitationFailedShape, invitationFor, inviteRule, linkFor, listInvites } from './invites-support.js';

const SECTION = 'api/send-invites';

/** `expiry_date - invited` of an invitation expiring in `seconds`, with a minute of slack. */
function expectExpiresIn(invite: { invited: number; expiry_date: number | null }, seconds: number | null, what: string): void {
  if (seconds === null) return expectEqual(invite.expiry_date, null, `expiry_date of ${what}`);
  check(invite.expiry_date !== null && Math.abs(invite.expiry_date - invite.invited - seconds) <= 60, `expiry_date of ${what} should be ${seconds} s after invited (${invite.invited}); got ${String(invite.expiry_date)}`);
}

const lifecycle = inviteRule({
  id: 'invites/send-list-resend-revoke',
  title: 'an invitation is listed with its address, inviter, role and expiry (minutes from level 126, null for never); it can be resent and revoked; once revoked it is no longer listed, and revoking or resending it again answers 400 BAD_REQUEST',
  endpoint: 'POST, GET /invites, POST /invites/{invite_id}/resend, DELETE /invites/{invite_id}',
  section: `${SECTION}; api/get-invites; api/resend-email-invite; api/revoke-email-invite`,
}, async (ctx, invites) => {
  const admin = ctx.as('admin');
  const email = invites.address();
  expectSuccess(await invites.send('admin', [email]));
  const invite = await invitationFor(admin, email);
  check(invite !== undefined, `the invitation of ${email} is not listed by GET /invites`);
  expectEqual([invite.invited_by_user_id, invite.invited_as, invite.is_multiuse], [ctx.identity('admin').userId, INVITE_AS.MEMBER, false], 'inviter, role and is_multiuse of the invitation');
  expectExpiresIn(invite, ctx.featureLevel >= INVITE_LEVELS.MINUTES ? 3600 : 86_400, 'the invitation');
  if (ctx.featureLevel >= INVITE_LEVELS.MINUTES) {
    const forever = invites.address();
    expectSuccess(await invites.send('admin', [forever], [['invite_expires_in_minutes', null]]));
    const never = await invitationFor(admin, forever);
    check(never !== undefined, `the invitation of ${forever} is not listed`);
    expectExpiresIn(never, null, 'an invitation sent with invite_expires_in_minutes null');
  }
  expectSuccess(await admin.post(`/invites/${invite.id}/resend`));
  expectSuccess(await admin.delete(`/invites/${invite.id}`));
  check((await invitationFor(admin, email)) === undefined, `the revoked invitation of ${email} is still listed`);
  expectError(await admin.delete(`/invites/${invite.id}`), { status: 400, code: 'BAD_REQUEST' });
  expectError(await admin.post(`/invites/${invite.id}/resend`), { status: 400, code: 'BAD_REQUEST' });
});

/** The `INVITATION_FAILED` refusal: its errors name exactly `addresses`, and whether others were invited. */
function expectInvitationFailed(reply: Parameters<typeof expectError>[0], addresses: readonly string[], sent: boolean, what: string): void {
  const body = expectShape(expectError(reply, { status: 400, code: 'INVITATION_FAILED' }), invitationFailedShape, 'body', reply);
  expectEqual(body.errors.map((entry) => String(entry[0]).toLowerCase()).sort(), addresses.map((address) => address.toLowerCase()).sort(), `the addresses in errors of ${what}`);
  check(body.errors.every((entry) => entry.length === 3 && typeof entry[1] === 'string' && typeof entry[2] === 'boolean'), `each error of ${what} is [address, message, deactivated]`, reply);
  expectEqual(body.sent_invitations, sent, `sent_invitations of ${what}`);
}

const refusals = inviteRule({
  id: 'invites/refused-requests',
  title: 'no address, an unknown channel or role answer 400 BAD_REQUEST; an invalid address or only existing users answer INVITATION_FAILED naming them with sent_invitations false; existing users among new addresses answer INVITATION_FAILED with sent_invitations true and the new ones invited',
  section: SECTION,
  // Sent by the owner (an administrator too), sparing the administrator's request budget.
  needs: ['owner', 'member'],
}, async (ctx, invites) => {
  const admin = ctx.as('owner');
  const before = (await listInvites(admin)).length;
  expectError(await invites.send('owner', ['']), { status: 400, code: 'BAD_REQUEST' });
  expectError(await invites.send('owner', [invites.address()], [['stream_ids', [2_000_000_000]]]), { status: 400, code: 'BAD_REQUEST' });
  expectError(await invites.send('owner', [invites.address()], [['invite_as', 999]]), { status: 400, code: 'BAD_REQUEST' });
  const invalid = `${ctx.name('not-an-address')}`;
  expectInvitationFailed(await invites.send('owner', [invalid, invites.address()]), [invalid], false, 'an invalid address beside a valid one');
  const existing = ctx.identity('member').email;
  expectInvitationFailed(await invites.send('owner', [existing]), [existing], false, 'the address of an existing user');
  expectEqual((await listInvites(admin)).length, before, 'the number of listed invitations after the refusals');
  const fresh = invites.address();
  expectInvitationFailed(await invites.send('owner', [existing, fresh]), [existing], true, 'an existing user beside a new address');
  check((await invitationFor(admin, fresh)) !== undefined, `${fresh} was not invited beside the existing user`);
});

const linkShape = v.object({ invite_link: v.string({ pattern: /\/join\/[^/]+\/?$/ }) });

const reusableLink = inviteRule({
  id: 'invites/multiuse-create-list-revoke',
  title: 'a reusable link is returned as invite_link (…/join/<key>/) and listed with is_multiuse, link_url, inviter and role; revoking it unlists it; revoking it again or an unknown link answers 400 BAD_REQUEST',
  endpoint: 'POST /invites/multiuse, GET /invites, DELETE /invites/multiuse/{invite_id}',
  section: 'api/create-invite-link; api/revoke-invite-link',
}, async (ctx, invites) => {
  const admin = ctx.as('admin');
  const reply = await invites.link('admin', [['invite_as', INVITE_AS.GUEST]]);
  const url = expectShape(expectSuccess(reply), linkShape, 'body', reply).invite_link;
  const link = await linkFor(admin, url);
  check(link !== undefined, `the link ${url} is not listed by GET /invites`);
  expectEqual([link.invited_by_user_id, link.invited_as], [ctx.identity('admin').userId, INVITE_AS.GUEST], 'inviter and role of the link');
  expectSuccess(await admin.delete(`/invites/multiuse/${link.id}`));
  check((await linkFor(admin, url)) === undefined, `the revoked link ${url} is still listed`);
  expectError(await admin.delete(`/invites/multiuse/${link.id}`), { status: 400, code: 'BAD_REQUEST' });
  expectError(await admin.delete(`/invites/multiuse/${link.id + 1_000_000}`), { status: 400, code: 'BAD_REQUEST' });
});

const isChange = (event: JsonObject): boolean => event.type === 'invites_changed';

const changedEvent = inviteRule({
  id: 'invites/changed-event-to-administrators-and-inviter',
  title: 'sending and revoking an invitation send invites_changed to the administrators and, from level 209, to the inviter, never to other members',
  section: `${SECTION}; api/get-events`,
  // The member's sentinel is a draft (level 87).
  levels: { min: 87 },
  needs: ['owner', 'member'],
}, async (ctx, invites) => {
  const admin = ctx.as('admin');
  const ownerQueue = await openStreamAs(ctx, 'owner', ['invites_changed', 'drafts']);
  const memberQueue = await openStreamAs(ctx, 'member', ['invites_changed', 'drafts']);
  // Late invites_changed events of earlier rules would be taken for this rule's.
  await settleQueue(ownerQueue, ctx.as('owner'), 'invitations');
  await settleQueue(memberQueue, ctx.as('member'), 'invitations');
  const email = invites.address();
  expectSuccess(await invites.send('admin', [email]));
  await awaitEvent(ownerQueue, isChange, 'the invitation (to another administrator)');
  const invite = await invitationFor(admin, email);
  check(invite !== undefined, `the invitation of ${email} is not listed`);
  expectSuccess(await admin.delete(`/invites/${invite.id}`));
  await awaitEvent(ownerQueue, isChange, 'the revocation (to another administrator)');
  const sentinel = draftSentinel(ctx.as('member'), 'invitations');
  await expectNoEventBefore(memberQueue, isChange, sentinel, 'an administrator\'s invitation and its revocation (the member is neither an administrator nor the inviter)');
  await sentinel.remove();
  if (ctx.featureLevel < INVITE_LEVELS.MULTIUSE_GROUP) return;
  // From level 209 the inviter hears of its own invitations, administrator or not.
  const own = invites.address();
  const reply = await invites.send('member', [own]);
  if (reply.status !== 200) return ctx.note(`the member may not invite on this target (HTTP ${reply.status}): the inviter's own invites_changed was not checked`);
  await awaitEvent(memberQueue, isChange, 'the member\'s own invitation (to the inviter)');
});

export const rules: readonly Rule[] = [lifecycle, refusals, reusableLink, changedEvent];
