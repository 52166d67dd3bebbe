/**
 * Invitations: `GET|POST /invites`, `DELETE /invites/{invite_id}`, `POST /invites/{invite_id}/resend`,
 * `POST /invites/multiuse` (a reusable link) and `DELETE /invites/multiuse/{invite_id}`. Guests
 * and bots are refused before any parameter is read, as by the real server's
 * `require_member_or_admin`; reusable links were for administrators only before FL 209.
 */
import {
  createMultiuseInvite,
  type InviteRequest,
  inviteUsers,
  resendInvite,
  revokeInvite,
  revokeMultiuseInvite,
} from '../../../lib/actions/realm/invites.js';
import { mustBeAdministrator, notForBots, notForGuests } from '../../../lib/errors.js';
import { isAdministrator, isGuest, ROLE } from '../../../lib/entities/user.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { invitesControlledBy } from '../../../lib/queries/realm/invites.js';
import { bool, int, list, nullable, oneOf } from '../../../lib/input/schema.js';
import { type AuthedContext, authed, type RouteDef } from '../../app/endpoint.js';
import { json, str } from '../../app/params.js';
import { MAX_CHANNELS, MAX_USER_IDS } from '../../../lib/input/limits.js';

/** The real server's `INVITATION_LINK_VALIDITY_DAYS` default. */
const DEFAULT_VALIDITY_DAYS = 10;

const membersOnly = ({ user }: AuthedContext): void => {
  if (isGuest(user)) throw notForGuests();
  if (user.isBot) throw notForBots();
};

/** Reusable links: administrators only before FL 209, then members with the realm permission. */
const multiuseGate = (ctx: AuthedContext): void => {
  if (ctx.world.has(FEATURES.MULTIUSE_INVITE_GROUP)) membersOnly(ctx);
  else if (!isAdministrator(ctx.user)) throw mustBeAdministrator();
};

/** Parameters both invitation kinds share, in the real server's (alphabetical) order. */
const termParams = {
  group_ids: json(nullable(list(int, MAX_USER_IDS))).availableFrom(FEATURES.INVITE_GROUP_IDS),
  include_realm_default_subscriptions: json(bool).default(false).availableFrom(FEATURES.INVITE_DEFAULT_SUBSCRIPTIONS, { otherwise: false }),
  invite_as: json(oneOf(int, [ROLE.OWNER, ROLE.ADMINISTRATOR, ROLE.MODERATOR, ROLE.MEMBER, ROLE.GUEST])).default(ROLE.MEMBER),
  invite_expires_in_days: json(nullable(int)).default(DEFAULT_VALIDITY_DAYS).availableBefore(FEATURES.INVITE_EXPIRES_IN_MINUTES),
  invite_expires_in_minutes: json(nullable(int)).default(DEFAULT_VALIDITY_DAYS * 24 * 60).availableFrom(FEATURES.INVITE_EXPIRES_IN_MINUTES),
};

interface TermArgs {
  readonly group_ids: number[] | null | undefined;
  readonly include_realm_default_subscriptions: boolean;
  readonly invite_as: number;
  readonly invite_expires_in_days: number | null | undefined;
  readonly invite_expires_in_minutes: number | null | undefined;
}

function inviteRequest(args: TermArgs, streamIds: readonly number[]): InviteRequest {
  const days = args.invite_expires_in_days;
  const minutes = args.invite_expires_in_minutes !== undefined ? args.invite_expires_in_minutes : days === undefined || days === null ? null : days * 24 * 60;
  return {
    invitedAs: args.invite_as,
    expiresInMinutes: minutes,
    streamIds,
    groupIds: args.group_ids ?? [],
    includeRealmDefaultSubscriptions: args.include_realm_default_subscriptions,
  };
}

const listInvites = authed({
  gate: membersOnly,
  reportsIgnored: false,
  params: {},
  run: ({ world, user }) => ({ invites: invitesControlledBy(world, user) }),
});

const sendInvites = authed({
  gate: membersOnly,
  params: {
    ...termParams,
    invitee_emails: str().required(),
    notify_referrer_on_join: json(bool).default(true).availableFrom(FEATURES.INVITE_NOTIFY_REFERRER, { otherwise: true }),
    stream_ids: json(list(int, MAX_CHANNELS)).required(),
  },
  run({ world, user }, args) {
    inviteUsers(world, user, args.invitee_emails, { ...inviteRequest(args, args.stream_ids), notifyReferrerOnJoin: args.notify_referrer_on_join });
    return {};
  },
});

const createLink = authed({
  gate: multiuseGate,
  params: { ...termParams, stream_ids: json(nullable(list(int, MAX_CHANNELS))) },
  run: ({ world, user, app, request }, args) => ({
    invite_link: createMultiuseInvite(world, user, inviteRequest(args, args.stream_ids ?? []), app.realmUrl(request)),
  }),
});

const inviteId = (ctx: AuthedContext): number => Number(ctx.path.get('invite_id'));

const revoke = authed({
  gate: membersOnly,
  params: {},
  run(ctx) {
    revokeInvite(ctx.world, ctx.user, inviteId(ctx));
    return {};
  },
});

const resend = authed({
  gate: membersOnly,
  params: {},
  run(ctx) {
    resendInvite(ctx.world, ctx.user, inviteId(ctx));
    return {};
  },
});

const revokeLink = authed({
  gate: multiuseGate,
  params: {},
  run(ctx) {
    revokeMultiuseInvite(ctx.world, ctx.user, inviteId(ctx));
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/invites', methods: { GET: listInvites, POST: sendInvites } },
  { path: '/invites/multiuse', methods: { POST: createLink } },
  { path: '/invites/multiuse/{invite_id:int}', methods: { DELETE: revokeLink } },
  { path: '/invites/{invite_id:int}', methods: { DELETE: revoke } },
  { path: '/invites/{invite_id:int}/resend', methods: { POST: resend } },
];
