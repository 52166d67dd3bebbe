/**
 * What the bot rules share: creating a bot the run owns (and deactivating it when the rule ends),
 * reading bots back (`GET /bots`, `GET /users/{id}`, `realm_bots`), and who may create which bot
 * type, as the target's realm settings say.
 *
 * Creating a bot adds an account every member of the realm sees (a `realm_user` `add` to
 * everyone; deactivated bots stay listed), like creating a user: every rule that creates one
 * needs `throwaway-user`, the user-creation opt-in, and each bot is deactivated at the end.
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import type { CleanupContext } from '../../cleanup.js';
import type { IdentityName } from '../../credentials/types.js';
import { check, expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { holdersByRole, NON_GUEST_ROLES, realmState } from '../support/realm-permissions.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';

/** `bot_type` values (generic, incoming webhook, outgoing webhook, embedded). */
export const BOT_TYPE = { GENERIC: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3, EMBEDDED: 4 } as const;

/** Level 30: `POST /bots` answers the new bot's `user_id`. */
export const BOT_USER_ID_LEVEL = 30;
/** Level 130: `PATCH /bots/{bot_id}` takes `role`. */
export const BOT_ROLE_LEVEL = 130;
/** Level 222: deactivating a bot sends `realm_bot` `update` `is_active: false` (a `remove` before). */
export const BOT_DEACTIVATION_UPDATE_LEVEL = 222;
/** Level 344: `can_create_bots_group` and `can_create_write_only_bots_group` decide (the `bot_creation_policy` enum before). */
export const BOT_GROUPS_LEVEL = 344;

/** The longest full name (`UserProfile.MAX_NAME_LENGTH`). */
export const MAX_NAME_LENGTH = 100;

/** A full name of exactly `length` code points: the run-tagged name, then letters, accents, CJK and an astral emoji. */
export function nameOfLength(base: string, length: number): string {
  const filler = ['é', 'x', '中', '😀', 'y'];
  const chars = [...`${base} `];
  for (let i = 0; chars.length < length; i++) chars.push(filler[i % filler.length]!);
  return chars.slice(0, length).join('');
}

/** A bot the run created: its ID, address and key, and a client acting as it. */
export interface CreatedBot {
  readonly userId: number;
  readonly email: string;
  readonly apiKey: string;
  readonly fullName: string;
  readonly shortName: string;
  readonly client: ApiClient;
}

const createdShape = v.object({
  user_id: v.int({ min: 1 }),
  api_key: v.string({ pattern: /^[A-Za-z0-9]{32}$/ }),
  avatar_url: v.string(),
  default_sending_stream: v.nullable(v.string()),
  default_events_register_stream: v.nullable(v.string()),
  default_all_public_streams: v.bool(),
});

export const BOT_CREATED_SHAPE = createdShape;

/** The admin's view of a user: `GET /users/{id}`. */
const userShape = v.object({
  user: v.object({
    user_id: v.int(),
    email: v.string(),
    delivery_email: v.optional(v.nullable(v.string())),
    full_name: v.string(),
    is_active: v.bool(),
    is_bot: v.bool(),
    role: v.optional(v.int()),
    bot_type: v.optional(v.nullable(v.int())),
    bot_owner_id: v.optional(v.nullable(v.int())),
  }),
});

export interface AdminUserView {
  readonly user_id: number;
  readonly email: string;
  readonly delivery_email?: string | null;
  readonly full_name: string;
  readonly is_active: boolean;
  readonly is_bot: boolean;
  readonly role?: number;
  readonly bot_type?: number | null;
  readonly bot_owner_id?: number | null;
}

/** `GET /users/{id}` as `client`, shape-checked. */
export async function userView(client: ApiClient, userId: number): Promise<{ user: AdminUserView; reply: Reply }> {
  const reply = await client.get(`/users/${userId}`);
  return { user: expectShape(expectSuccess(reply), userShape, 'body', reply).user, reply };
}

/**
 * Deactivates the bot when the rule ends: as `who` (its creator, sparing the administrator's
 * request budget), else as the administrator unless it already is inactive; throws when the bot
 * stays active.
 */
export function deactivateLater(ctx: RuleContext, botId: number, label: string, who: IdentityName = 'admin'): void {
  ctx.cleanup(`deactivate bot ${label} (${botId})`, async (c: CleanupContext) => {
    if ((await c.as(who).delete(`/bots/${botId}`)).status === 200) return;
    const admin = c.as('admin');
    const read = await admin.get(`/users/${botId}`);
    if ((read.body?.user as { is_active?: unknown } | undefined)?.is_active === false) return;
    const gone = await admin.delete(`/bots/${botId}`);
    if (gone.status !== 200) throw new Error(`bot ${botId} stays active: DELETE /bots/${botId} answered HTTP ${gone.status} ${gone.text.slice(0, 200)}`);
  });
}

/**
 * `POST /bots` as `who` with `params`; when a bot was created (whether or not the rule expected
 * it), its deactivation is registered at once.
 */
export async function attemptBot(ctx: RuleContext, who: IdentityName | ApiClient, params: ReadonlyArray<readonly [string, unknown]> | Readonly<Record<string, unknown>>): Promise<Reply> {
  const client = typeof who === 'string' ? ctx.as(who) : who;
  const reply = await client.post('/bots', params);
  const id = reply.body?.user_id;
  if (reply.status === 200 && typeof id === 'number') deactivateLater(ctx, id, 'created by POST /bots', typeof who === 'string' ? who : 'admin');
  return reply;
}

/** A fresh run-tagged short name (also used as the full name). */
export const botName = (ctx: RuleContext, label = 'bot'): string => ctx.name(label);

/**
 * Creates a bot owned by `who` (a generic one unless `extra` says otherwise), expects success with
 * the documented answer, and returns it with a client acting as the bot.
 */
export async function createBot(ctx: RuleContext, who: IdentityName, extra: Readonly<Record<string, unknown>> = {}): Promise<CreatedBot> {
  const name = botName(ctx);
  const reply = await attemptBot(ctx, who, { full_name: name, short_name: name, ...extra });
  if (reply.status !== 200) fail(`POST /bots as ${who} should create a bot`, reply);
  const created = expectShape(expectSuccess(reply), createdShape, 'body', reply);
  const { user } = await userView(ctx.as(who), created.user_id);
  const email = user.delivery_email ?? user.email;
  return { userId: created.user_id, email, apiKey: created.api_key, fullName: name, shortName: name, client: ctx.anonymous.withCredentials(email, created.api_key) };
}

const listedShape = v.object({
  bots: v.array(
    v.object({
      username: v.string(),
      full_name: v.string(),
      api_key: v.string(),
      avatar_url: v.string(),
      default_sending_stream: v.nullable(v.string()),
      default_events_register_stream: v.nullable(v.string()),
      default_all_public_streams: v.bool(),
    }),
  ),
});

export type ListedBot = { username: string; full_name: string; api_key: string; avatar_url: string; default_sending_stream: string | null; default_events_register_stream: string | null; default_all_public_streams: boolean };

/** `GET /bots` as `client`: the caller's active bots. */
export async function listBots(client: ApiClient): Promise<{ bots: ListedBot[]; reply: Reply }> {
  const reply = await client.get('/bots');
  return { bots: expectShape(expectSuccess(reply), listedShape, 'body', reply).bots, reply };
}

/** The entry of `GET /bots` for the bot with this address (case-insensitive), if listed. */
export async function listedBot(client: ApiClient, email: string): Promise<{ bot: ListedBot | undefined; reply: Reply }> {
  const { bots, reply } = await listBots(client);
  return { bot: bots.find((entry) => entry.username.toLowerCase() === email.toLowerCase()), reply };
}

/** The bot dictionary of `realm_bots` in `POST /register` as `client` sees it, if there. */
export async function realmBot(client: ApiClient, botId: number): Promise<JsonObject | undefined> {
  const reply = await client.post('/register', { fetch_event_types: ['realm_bot'], event_types: ['realm_bot'] });
  const body = expectSuccess(reply);
  if (typeof body.queue_id === 'string') await client.delete('/events', { queue_id: body.queue_id });
  check(Array.isArray(body.realm_bots), 'POST /register with realm_bot gave no realm_bots list', reply);
  return (body.realm_bots as JsonObject[]).find((bot) => bot.user_id === botId);
}

/** Which bot types a role may create. */
export interface BotRights {
  readonly generic: boolean;
  readonly incomingWebhook: boolean;
}

const ALL: BotRights = { generic: true, incomingWebhook: true };
const NONE: BotRights = { generic: false, incomingWebhook: false };

/**
 * What each non-guest role may create, from the realm's settings: from level 344 the holders of
 * `can_create_bots_group` (every type) and `can_create_write_only_bots_group` (incoming webhooks);
 * before, `realm_bot_creation_policy` (1 everyone, 2 generic bots for administrators only, 3
 * administrators only; administrators always may). Undefined when the target does not publish
 * the setting.
 */
export async function botCreationRights(ctx: RuleContext, roles: readonly IdentityName[] = NON_GUEST_ROLES): Promise<Map<IdentityName, BotRights> | undefined> {
  // Any member reads the realm's settings; the administrator's request budget is spared.
  const state = await realmState(ctx.as(roles.includes('member') ? 'member' : 'admin'));
  const rights = new Map<IdentityName, BotRights>();
  if (ctx.featureLevel >= BOT_GROUPS_LEVEL) {
    const all = await holdersByRole(ctx, state, 'realm_can_create_bots_group', roles);
    const writeOnly = await holdersByRole(ctx, state, 'realm_can_create_write_only_bots_group', roles);
    for (const role of roles) rights.set(role, { generic: all.get(role) === true, incomingWebhook: all.get(role) === true || writeOnly.get(role) === true });
    return rights;
  }
  const policy = state.realm_bot_creation_policy;
  if (typeof policy !== 'number') return undefined;
  for (const role of roles) {
    const admin = ctx.identity(role).role === 'owner' || ctx.identity(role).role === 'admin';
    rights.set(role, admin || policy === 1 ? ALL : policy === 2 ? { generic: false, incomingWebhook: true } : NONE);
  }
  return rights;
}

/** The refusal of a bot type the caller may not create: `Insufficient permission` from level 344, `Must be an organization administrator` before. */
export const creationRefusalCode = (level: number): string => (level >= BOT_GROUPS_LEVEL ? 'BAD_REQUEST' : 'UNAUTHORIZED_PRINCIPAL');

/** The identities that create the bots of most rules, in order of preference (the administrator last). */
export const DEFAULT_CREATORS: readonly IdentityName[] = ['member', 'admin'];

/**
 * The first of `candidates` that may create generic bots (administrators always may before
 * level 344), or undefined; worked out once per run and list of candidates, which the rule
 * must list in `needs` with the member. Rules share the creating out between identities, each
 * of which has its own request budget on a real server.
 */
export async function genericBotCreator(ctx: RuleContext, candidates: readonly IdentityName[] = DEFAULT_CREATORS): Promise<IdentityName | undefined> {
  const found = await ctx.runShared(`generic-bot-creator:${candidates.join(',')}`, async () => {
    const rights = await botCreationRights(ctx, [...new Set<IdentityName>(['member', ...candidates])]);
    if (!rights) return { creator: ctx.featureLevel < BOT_GROUPS_LEVEL ? candidates.find((role) => role === 'admin' || role === 'owner') : undefined };
    return { creator: candidates.find((role) => rights.get(role)?.generic === true) };
  });
  return found.creator;
}

/** What a bot rule's body gets: the identity that created the bot, and the bot. */
export interface BotFixture {
  readonly owner: IdentityName;
  readonly bot: CreatedBot;
}

/**
 * A rule that starts from a generic bot created by the first of `creators` (the member, else
 * the administrator, unless the header names others) that may create one; skipped when none may.
 */
export function ownedBotRule(header: RuleHeader & { readonly endpoint: string; readonly creators?: readonly IdentityName[] }, body: (ctx: RuleContext, fixture: BotFixture) => Promise<void>, extra: Readonly<Record<string, unknown>> = {}): Rule {
  const creators = header.creators ?? DEFAULT_CREATORS;
  const defaults = { endpoint: header.endpoint, levels: { min: BOT_USER_ID_LEVEL }, writes: true, needs: ['admin', 'member', ...creators, 'throwaway-user'] as const };
  return fixtureRule(header, defaults, async (ctx) => {
    const owner = await genericBotCreator(ctx, creators);
    if (!owner) return ctx.skip('no identity of the run may create a generic bot in this realm');
    return { owner, bot: await createBot(ctx, owner, extra) };
  }, body);
}
