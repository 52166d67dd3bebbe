/**
 * `GET /bots` and `POST /bots` (the real server's bot views; not in the description): what a
 * created bot is and where it shows, who is refused before any parameter, and the checks on
 * names and types. Every bot created is deactivated when the rule ends; creating bots needs the
 * user-creation opt-in (see bots-support.ts).
 */
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import { attemptBot, BOT_TYPE, BOT_USER_ID_LEVEL, botName, genericBotCreator, listedBot, MAX_NAME_LENGTH, nameOfLength, ownedBotRule, realmBot, userView } from './bots-support.js';
import type { IdentityName } from '../../credentials/types.js';
import type { Rule, RuleContext } from '../types.js';

const SECTION = 'api/add-bot; api/get-bots';

const created = ownedBotRule({
  id: 'bots/created-bot-listed-and-authenticates',
  title: "a created generic bot answers with its key and no default channels, authenticates as itself, is listed by its owner's GET /bots and realm_bots (not another member's) and GET /users/{id} names its type and owner",
  endpoint: 'POST, GET /bots',
  section: SECTION,
  needs: ['second-member'],
}, async (ctx, { owner, bot }) => {
  const me = await bot.client.get('/users/me');
  const self = expectShape(expectSuccess(me), v.object({ user_id: v.int(), is_bot: v.bool() }), 'body', me);
  expectEqual([self.user_id, self.is_bot], [bot.userId, true], "GET /users/me with the bot's key: user_id, is_bot", me);
  const { user, reply } = await userView(ctx.as('admin'), bot.userId);
  expectEqual([user.is_bot, user.bot_type, user.bot_owner_id, user.full_name, user.is_active], [true, BOT_TYPE.GENERIC, ctx.identity(owner).userId, bot.fullName, true], 'is_bot, bot_type, bot_owner_id, full_name, is_active', reply);
  check(bot.email.toLowerCase().startsWith(`${bot.shortName.toLowerCase()}-bot@`), `the bot's address ${bot.email} should be <short_name>-bot@<bot domain>`, reply);
  const listed = await listedBot(ctx.as(owner), bot.email);
  check(listed.bot !== undefined, `the owner's GET /bots does not list ${bot.email}`, listed.reply);
  expectEqual(
    [listed.bot.full_name, listed.bot.api_key, listed.bot.default_sending_stream, listed.bot.default_events_register_stream, listed.bot.default_all_public_streams],
    [bot.fullName, bot.apiKey, null, null, false],
    'GET /bots entry: full_name, api_key, default channels',
    listed.reply,
  );
  const other = await listedBot(ctx.as('second-member'), bot.email);
  check(other.bot === undefined, "another member's GET /bots lists a bot it does not own", other.reply);
  const state = await realmBot(ctx.as(owner), bot.userId);
  check(state !== undefined, `realm_bots of the owner lacks bot ${bot.userId}`);
  expectEqual([state.bot_type, state.is_active, state.api_key, state.full_name], [BOT_TYPE.GENERIC, true, bot.apiKey, bot.fullName], 'realm_bots entry: bot_type, is_active, api_key, full_name');
  if (state.owner_id !== undefined) expectEqual(state.owner_id, ctx.identity(owner).userId, 'realm_bots entry: owner_id');
});

const refusedCallers = ownedBotRule({
  id: 'bots/guests-and-bots-refused',
  title: 'GET /bots and POST /bots answer 400 BAD_REQUEST to a guest and to a bot (before any parameter), and nothing is created',
  endpoint: 'GET /bots',
  section: SECTION,
  needs: ['guest'],
}, async (ctx, { bot }) => {
  for (const [who, client] of [['the guest', ctx.as('guest')], ['a bot', bot.client]] as const) {
    expectError(await client.get('/bots'), { status: 400, code: 'BAD_REQUEST' });
    expectError(await client.get('/bots', { unknown_parameter: 'x' }), { status: 400, code: 'BAD_REQUEST' });
    const name = botName(ctx);
    const reply = await attemptBot(ctx, client, { full_name: name, short_name: name });
    expectError(reply, { status: 400, code: 'BAD_REQUEST' });
    check(reply.body?.user_id === undefined, `POST /bots by ${who} answered a user_id`, reply);
  }
});

const humanOnly = ownedBotRule({
  id: 'bots/human-only-endpoints-refuse-bots',
  title: "a bot's own settings, presence and legacy push tokens are for people: PATCH /settings, POST /users/me/presence, POST /users/me/apns_device_token and POST /users/me/android_gcm_reg_id answer a bot 400 BAD_REQUEST",
  endpoint: 'PATCH /settings, POST /users/me/presence, POST /users/me/apns_device_token, POST /users/me/android_gcm_reg_id',
  section: 'api/update-settings; api/update-presence; api/add-apns-token',
}, async (_ctx, { bot }) => {
  const requests: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
    ['/settings', { enter_sends: true }],
    ['/users/me/presence', { status: 'active' }],
    ['/users/me/apns_device_token', { token: 'abcd'.repeat(16), appid: 'org.zulip.Zulip' }],
    ['/users/me/android_gcm_reg_id', { token: 'conformance-bot-token' }],
  ];
  for (const [path, params] of requests) {
    const reply = await (path === '/settings' ? bot.client.patch(path, params) : bot.client.post(path, params));
    check(reply.status === 400 && reply.body?.code === 'BAD_REQUEST', `${path} as a bot should answer 400 BAD_REQUEST; got HTTP ${reply.status} ${String(reply.body?.code ?? '')}`, reply);
  }
});

/** Who the rules about what a creator may send create as: the owner (else the administrator), whose budget is idle otherwise. */
const CREATION_CHECKERS: readonly IdentityName[] = ['owner', 'admin'];

/** Rules about what the creator may send: run as the first identity that may create generic bots. */
function creationRule(header: { id: string; title: string; section?: string }, body: (ctx: RuleContext, creator: IdentityName) => Promise<void>): Rule {
  return {
    id: header.id,
    title: header.title,
    endpoint: 'POST /bots',
    section: header.section ?? SECTION,
    levels: { min: BOT_USER_ID_LEVEL },
    writes: true,
    needs: ['owner', 'admin', 'member', 'throwaway-user'],
    async run(ctx) {
      const creator = await genericBotCreator(ctx, CREATION_CHECKERS);
      if (!creator) return ctx.skip('no identity of the run may create a generic bot in this realm');
      await body(ctx, creator);
    },
  };
}

const fullNameLimits = creationRule({
  id: 'bots/full-name-limits',
  title: 'a bot full name of 100 characters after stripping is accepted and stored stripped; 101 characters, a blank name, a forbidden character (* ` > " @) and a name ending in |<digits> answer 400 BAD_REQUEST',
}, async (ctx, creator) => {
  const longest = nameOfLength(botName(ctx), MAX_NAME_LENGTH);
  const short = botName(ctx);
  const reply = await attemptBot(ctx, creator, { full_name: `  ${longest} `, short_name: short });
  const { user_id: id } = expectShape(expectSuccess(reply), v.object({ user_id: v.int() }), 'body', reply);
  const { user, reply: read } = await userView(ctx.as('admin'), id);
  expectEqual(user.full_name, longest, 'full_name of the bot (stripped, 100 characters)', read);
  const refused: ReadonlyArray<readonly [string, string]> = [
    ['101 characters', nameOfLength(botName(ctx), MAX_NAME_LENGTH + 1)],
    ['blank', '   '],
    ...['*', '`', '>', '"', '@'].map((char) => [`with ${char}`, `${botName(ctx)} ${char}x`] as const),
    ['ending in |<digits>', `${botName(ctx)}|42`],
  ];
  for (const [what, fullName] of refused) {
    const attempt = await attemptBot(ctx, creator, { full_name: fullName, short_name: botName(ctx) });
    check(attempt.status === 400 && attempt.body?.code === 'BAD_REQUEST', `a full name ${what} should answer 400 BAD_REQUEST; got HTTP ${attempt.status} ${String(attempt.body?.code ?? '')}`, attempt);
  }
});

const namesTaken = ownedBotRule({
  id: 'bots/names-taken-or-blank-refused',
  creators: ['second-member', 'admin'],
  title: "a blank short name, another bot's short name and the full name of an active account (a bot's or a person's) answer 400 BAD_REQUEST",
  endpoint: 'POST /bots',
  section: SECTION,
}, async (ctx, { owner, bot }) => {
  const cases: ReadonlyArray<readonly [string, string, string]> = [
    ['a blank short name', botName(ctx), '  '],
    ["the bot's short name", botName(ctx), bot.shortName],
    ["the bot's full name", bot.fullName, botName(ctx)],
    ["the owner's full name", ctx.identity(owner).fullName, botName(ctx)],
  ];
  for (const [what, fullName, shortName] of cases) {
    const reply = await attemptBot(ctx, owner, { full_name: fullName, short_name: shortName });
    check(reply.status === 400 && reply.body?.code === 'BAD_REQUEST', `a bot with ${what} should answer 400 BAD_REQUEST; got HTTP ${reply.status} ${String(reply.body?.code ?? '')}`, reply);
  }
});

const PAYLOAD_URL = 'https://example.com/conformance-hook';

const typesAndServices = creationRule({
  id: 'bots/types-and-services',
  title: 'an incoming webhook bot (type 2) has no services; an outgoing webhook bot (type 3) keeps its payload URL and interface with a token; bot types outside 1-4, a non-integer type, an interface other than 1 or 2 and a payload URL that is not a URL answer 400 BAD_REQUEST',
}, async (ctx, creator) => {
  const admin = ctx.as('admin');
  const incoming = await attemptBot(ctx, creator, { full_name: botName(ctx), short_name: botName(ctx), bot_type: BOT_TYPE.INCOMING_WEBHOOK });
  const incomingId = expectShape(expectSuccess(incoming), v.object({ user_id: v.int() }), 'body', incoming).user_id;
  expectEqual((await userView(admin, incomingId)).user.bot_type, BOT_TYPE.INCOMING_WEBHOOK, 'bot_type of the incoming webhook bot');
  expectEqual((await realmBot(ctx.as(creator), incomingId))?.services, [], 'services of the incoming webhook bot in realm_bots');
  const outgoingParams = { full_name: botName(ctx), short_name: botName(ctx), bot_type: BOT_TYPE.OUTGOING_WEBHOOK, payload_url: JSON.stringify(PAYLOAD_URL), interface_type: 1 };
  const outgoing = await attemptBot(ctx, creator, outgoingParams);
  const outgoingId = expectShape(expectSuccess(outgoing), v.object({ user_id: v.int() }), 'body', outgoing).user_id;
  const entry = await realmBot(ctx.as(creator), outgoingId);
  const services = expectShape(entry?.services, v.array(v.object({ base_url: v.string(), interface: v.int(), token: v.string({ nonEmpty: true }) }), { minLength: 1 }), 'realm_bots services of the outgoing webhook bot');
  expectEqual([services[0]!.base_url, services[0]!.interface], [PAYLOAD_URL, 1], 'base_url and interface of the outgoing webhook service');
  const refused: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
    ...[0, 5, -1, 100].map((type) => [`bot_type ${type}`, { bot_type: type }] as const),
    ['bot_type "generic"', { bot_type: 'generic' }],
    ['interface_type 3', { bot_type: BOT_TYPE.OUTGOING_WEBHOOK, payload_url: JSON.stringify(PAYLOAD_URL), interface_type: 3 }],
    ['a payload_url that is no URL', { bot_type: BOT_TYPE.OUTGOING_WEBHOOK, payload_url: JSON.stringify('not a url') }],
  ];
  for (const [what, extra] of refused) {
    const reply = await attemptBot(ctx, creator, { full_name: botName(ctx), short_name: botName(ctx), ...extra });
    check(reply.status === 400 && reply.body?.code === 'BAD_REQUEST', `${what} should answer 400 BAD_REQUEST; got HTTP ${reply.status} ${String(reply.body?.code ?? '')}`, reply);
  }
});

const noCredentials = credentialsRequired({
  id: 'bots/requires-credentials',
  endpoint: 'POST /bots',
  section: SECTION,
  requests: [
    ['GET', '/bots'],
    ['POST', '/bots', { full_name: 'x', short_name: 'x' }],
    ['PATCH', '/bots/2147483000', { full_name: 'x' }],
    ['DELETE', '/bots/2147483000'],
    ['POST', '/bots/2147483000/api_key/regenerate'],
    ['POST', '/users/me/api_key/regenerate'],
  ],
});

export const rules: readonly Rule[] = [created, refusedCallers, humanOnly, fullNameLimits, namesTaken, typesAndServices, noCredentials];
