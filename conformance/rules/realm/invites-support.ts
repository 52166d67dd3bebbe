/**
 * What the invitation rules share. Invitations send email on a real server, so every address is
 * `<run tag>-inviteeN@<domain>` at the email domain the operator named for throwaway users
 * (`--throwaway-email-domain`, which is what the `throwaway-user` need asks for): the domain is
 * learnt once per run from a throwaway user's address. Each invitation expires within an hour
 * (a day before level 126) and is revoked when its rule ends.
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import type { CleanupContext } from '../../cleanup.js';
import type { IdentityName } from '../../credentials/types.js';
import { expectShape, expectSuccess } from '../../expect/assert.js';
import { type Infer, v } from '../../expect/shape.js';
import { realmState } from '../support/realm-permissions.js';
import type { RuleContext } from '../types.js';

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

/** Invitations a rule sent; every one still listed is revoked when the rule ends. */
export class RuleInvites {
  private readonly emails = new Set<string>();
  private readonly links = new Set<string>();

  constructor(private readonly ctx: RuleContext, private readonly domain: string) {
    ctx.cleanup('revoke the rule\'s invitations', (c) => revokeAll(c, this.emails, this.links));
  }

  /** A fresh address at the run's domain. */
  address(): string {
    const email = `${this.ctx.name('invitee')}@${this.domain}`;
    this.emails.add(email);
    return email;
  }

  /** `POST /invites` as `client` for `emails` (joined by commas), no channels, expiring soon, with `extra` parameters. */
  send(client: ApiClient, emails: readonly string[], extra: ReadonlyArray<readonly [string, unknown]> = []): Promise<Reply> {
    for (const email of emails) if (email.includes('@')) this.emails.add(email);
    return client.post('/invites', [['invitee_emails', emails.join(',')], ['stream_ids', []], shortExpiry(this.ctx.featureLevel), ...extra]);
  }

  /** `POST /invites/multiuse` as `client`; the link is recorded for the cleanup. */
  async link(client: ApiClient, extra: ReadonlyArray<readonly [string, unknown]> = []): Promise<Reply> {
    const reply = await client.post('/invites/multiuse', [shortExpiry(this.ctx.featureLevel), ...extra]);
    if (typeof reply.body?.invite_link === 'string') this.links.add(reply.body.invite_link);
    return reply;
  }
}

/** The listed email invitation for `email`, as `client` sees the listing. */
export const invitationFor = async (client: ApiClient, email: string): Promise<ApiInvite | undefined> => (await listInvites(client)).find((invite) => !invite.is_multiuse && invite.email === email);

/** The listed reusable link `url`, as `client` sees the listing. */
export const linkFor = async (client: ApiClient, url: string): Promise<ApiInvite | undefined> => (await listInvites(client)).find((invite) => invite.is_multiuse && invite.link_url === url);

async function revokeAll(c: CleanupContext, emails: ReadonlySet<string>, links: ReadonlySet<string>): Promise<void> {
  if (emails.size === 0 && links.size === 0) return;
  const clients: ApiClient[] = [];
  for (const who of ['admin', 'owner'] as const) {
    try {
      clients.push(c.as(who));
    } catch {
      // The run lacks this identity.
    }
  }
  const admin = clients[0];
  if (!admin) return;
  const left: string[] = [];
  for (const invite of await listInvites(admin)) {
    const ours = invite.is_multiuse ? links.has(invite.link_url ?? '') : emails.has(invite.email ?? '');
    if (!ours) continue;
    const path = invite.is_multiuse ? `/invites/multiuse/${invite.id}` : `/invites/${invite.id}`;
    let done = false;
    for (const client of clients) if ((done = (await client.delete(path)).status === 200)) break;
    if (!done) left.push(invite.email ?? invite.link_url ?? String(invite.id));
  }
  if (left.length > 0) throw new Error(`invitations left unrevoked (they expire within a day): ${left.join(', ')}`);
}

/**
 * Whether a refusal of `who`'s invitation as "too new" is possible: in a realm that does not
 * require invitations, the real server refuses invitations from non-administrators who joined
 * less than `INVITES_MIN_USER_AGE_DAYS` (3 by default, configurable) days ago. A week is allowed.
 */
export async function mayBeTooNew(ctx: RuleContext, who: IdentityName): Promise<boolean> {
  const admin = ctx.as('admin');
  const state = await realmState(admin);
  if (state.realm_invite_required === true) return false;
  const reply = await admin.get(`/users/${ctx.identity(who).userId}`);
  const joined = Date.parse(String((expectSuccess(reply).user as JsonObject | undefined)?.date_joined ?? ''));
  return !Number.isFinite(joined) || Date.now() - joined < 7 * 24 * 3600 * 1000;
}

/** The invitation refusal of the real server: 400 `INVITATION_FAILED` with per-address errors. */
export const invitationFailedShape = v.object({
  code: v.literal('INVITATION_FAILED'),
  errors: v.array(v.array(v.unknown())),
  sent_invitations: v.bool(),
});
