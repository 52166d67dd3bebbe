/**
 * What the invitation rules share. Invitations send email on a real server, so every address is
 * `<run tag>-inviteeN@<domain>` at the email domain the operator named for throwaway users
 * (`--throwaway-email-domain`, which is what the `throwaway-user` need asks for): the domain is
 * learnt once per run from a throwaway user's address. Each invitation expires within an hour
 * (a day before level 126) and is revoked when its rule ends.
 */
import type { ApiClient, Reply } from '../../client/api-client.js';
import type { CleanupContext } from '../../cleanup.js';
import type { IdentityName } from '../../credentials/types.js';
import { expectShape, expectSuccess } from '../../expect/assert.js';
import { type Infer, v } from '../../expect/shape.js';
import { realmState } from '../support/realm-permissions.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';

export const INVITE_LEVELS = {
  /** `invite_expires_in_minutes` (was `invite_expires_in_days`). */
  MINUTES: 126,
  /** Non-administrators create and revoke reusable links (`create_multiuse_invite_group`); `invites_changed` reaches the referrer too. */
  MULTIUSE_GROUP: 209,
  /** The realm's `can_invite_users_group`. */
  INVITE_GROUP: 321,
} as const;

/** The real server's `PreregistrationUser.INVITE_AS`. */
export const INVITE_AS = { OWNER: 100, ADMIN: 200, MODERATOR: 300, MEMBER: 400, GUEST: 600 } as const;

const inviteShape = v.object({
  id: v.int({ min: 1 }),
  invited_by_user_id: v.int({ min: 1 }),
  invited: v.int(),
  expiry_date: v.nullable(v.int()),
  invited_as: v.int(),
  is_multiuse: v.bool(),
  email: v.optional(v.string()),
  link_url: v.optional(v.string()),
});
export type ApiInvite = Infer<typeof inviteShape>;

/** `GET /invites` as `client`, shape-checked. */
export async function listInvites(client: ApiClient): Promise<ApiInvite[]> {
  const reply = await client.get('/invites');
  return expectShape(expectSuccess(reply), v.object({ invites: v.array(inviteShape) }), 'body', reply).invites;
}

/** The expiry parameter of a short-lived invitation at the level. */
export const shortExpiry = (level: number): readonly [string, number] => (level >= INVITE_LEVELS.MINUTES ? ['invite_expires_in_minutes', 60] : ['invite_expires_in_days', 1]);

/** The email domain of the run's throwaway users (the operator's choice), learnt once per run. */
export function inviteDomain(ctx: RuleContext): Promise<string> {
  return ctx.runShared('invitation email domain', async () => {
    const user = await ctx.throwawayUser();
    return user.identity.email.slice(user.identity.email.lastIndexOf('@') + 1);
  });
}

/**
 * Invitations a rule sent; every one still listed is revoked when the rule ends, by its inviter
 * (who may always revoke their own), so the cleanup spends no one identity's request budget.
 */
export class RuleInvites {
  /** Address or link, by inviter. */
  private readonly sent = new Map<IdentityName, Set<string>>();

  constructor(private readonly ctx: RuleContext, private readonly domain: string) {
    ctx.cleanup('revoke the rule\'s invitations', (c) => revokeAll(c, this.sent));
  }

  /** A fresh address at the run's domain. */
  address(): string {
    return `${this.ctx.name('invitee')}@${this.domain}`;
  }

  private record(who: IdentityName, key: string): void {
    const keys = this.sent.get(who) ?? new Set<string>();
    keys.add(key);
    this.sent.set(who, keys);
  }

  /** `POST /invites` as `who` for `emails` (joined by commas), no channels, expiring soon, with `extra` parameters. */
  async send(who: IdentityName, emails: readonly string[], extra: ReadonlyArray<readonly [string, unknown]> = []): Promise<Reply> {
    const reply = await this.ctx.as(who).post('/invites', [['invitee_emails', emails.join(',')], ['stream_ids', []], shortExpiry(this.ctx.featureLevel), ...extra]);
    // A refusal should send nothing; if a target sent some anyway, the administrator (who sees every
    // invitation) revokes them. A guest, refused, could not even list them.
    const sender = reply.status === 200 || reply.body?.sent_invitations === true ? who : 'admin';
    for (const email of emails) if (email.includes('@')) this.record(sender, email);
    return reply;
  }

  /** `POST /invites/multiuse` as `who`; the link is recorded for the cleanup. */
  async link(who: IdentityName, extra: ReadonlyArray<readonly [string, unknown]> = []): Promise<Reply> {
    const reply = await this.ctx.as(who).post('/invites/multiuse', [shortExpiry(this.ctx.featureLevel), ...extra]);
    if (typeof reply.body?.invite_link === 'string') this.record(who, reply.body.invite_link);
    return reply;
  }
}

/** The listed email invitation for `email`, as `client` sees the listing. */
export const invitationFor = async (client: ApiClient, email: string): Promise<ApiInvite | undefined> => (await listInvites(client)).find((invite) => !invite.is_multiuse && invite.email === email);

/** The listed reusable link `url`, as `client` sees the listing. */
export const linkFor = async (client: ApiClient, url: string): Promise<ApiInvite | undefined> => (await listInvites(client)).find((invite) => invite.is_multiuse && invite.link_url === url);

async function revokeAll(c: CleanupContext, sent: ReadonlyMap<IdentityName, ReadonlySet<string>>): Promise<void> {
  const left: string[] = [];
  for (const [who, keys] of sent) {
    const client = c.as(who);
    for (const invite of await listInvites(client)) {
      const key = invite.is_multiuse ? invite.link_url : invite.email;
      if (key === undefined || !keys.has(key)) continue;
      const path = invite.is_multiuse ? `/invites/multiuse/${invite.id}` : `/invites/${invite.id}`;
      if ((await client.delete(path)).status !== 200) left.push(key);
    }
  }
  if (left.length > 0) throw new Error(`invitations left unrevoked (they expire within a day): ${left.join(', ')}`);
}

/**
 * Whether a refusal of `who`'s invitation as "too new" is possible: in a realm that does not
 * require invitations, the real server refuses invitations from non-administrators who joined
 * less than `INVITES_MIN_USER_AGE_DAYS` (3 by default, configurable) days ago. A week is allowed.
 */
export async function mayBeTooNew(ctx: RuleContext, who: IdentityName): Promise<boolean> {
  const client = ctx.as(who);
  if ((await realmState(client)).realm_invite_required === true) return false;
  const reply = await client.get('/users/me');
  const joined = Date.parse(String(expectSuccess(reply).date_joined ?? ''));
  return !Number.isFinite(joined) || Date.now() - joined < 7 * 24 * 3600 * 1000;
}

/** The invitation refusal of the real server: 400 `INVITATION_FAILED` with per-address errors. */
export const invitationFailedShape = v.object({
  code: v.literal('INVITATION_FAILED'),
  errors: v.array(v.array(v.unknown())),
  sent_invitations: v.bool(),
});

/**
 * A rule that sends invitations (by default `POST /invites`): it needs the throwaway-user opt-in
 * (for the email domain) and gets the rule's invitations, revoked at its end.
 */
export function inviteRule(header: RuleHeader, body: (ctx: RuleContext, invites: RuleInvites) => Promise<void>): Rule {
  const defaults = { endpoint: 'POST /invites', writes: true, needs: ['admin', 'throwaway-user'] } as const;
  return fixtureRule(header, defaults, async (ctx) => new RuleInvites(ctx, await inviteDomain(ctx)), body);
}
