/**
 * `PATCH /bots/{bot_id}` (the real server's `patch_bot_backend`): name, default channels, owner,
 * role and an outgoing webhook's service, each read back after the change. The real server
 * applies the parameters of one request in turn, so rules never send a refused value together
 * with a valid one. The bots are the run's and are deactivated when the rule ends.
 */
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { runChannel } from '../support/message-fixtures.js';
import type { ApiClient } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { type RuleHeader } from '../support/rule-factory.js';
import { BOT_ROLE_LEVEL, BOT_TYPE, type BotFixture, botName, listedBot, MAX_NAME_LENGTH, nameOfLength, ownedBotRule, realmBot, userView } from './bots-support.js';
import type { Rule, RuleContext } from '../types.js';

const SECTION = 'api/update-bot';

const answerShape = v.object({
  full_name: v.string(),
  avatar_url: v.string(),
  default_sending_stream: v.nullable(v.string()),
  default_events_register_stream: v.nullable(v.string()),
  default_all_public_streams: v.bool(),
});

/** What a `PATCH /bots/{bot_id}` rule starts from: the bot, its creator's client and the bot's path. */
interface PatchFixture extends BotFixture {
  readonly client: ApiClient;
  readonly path: string;
}

/** A `PATCH /bots/{bot_id}` rule on a bot the run created (see `ownedBotRule`). */
function patchBotRule(header: RuleHeader & { readonly creators?: readonly IdentityName[] }, body: (ctx: RuleContext, fixture: PatchFixture) => Promise<void>, extra: Readonly<Record<string, unknown>> = {}): Rule {
  return ownedBotRule({ endpoint: 'PATCH /bots/{bot_id}', ...header }, (ctx, fixture) => body(ctx, { ...fixture, client: ctx.as(fixture.owner), path: `/bots/${fixture.bot.userId}` }), extra);
}

const fullName = patchBotRule({
  id: 'bots/update-full-name',
  creators: ['second-member', 'admin'],
  title: "the owner renames a bot (100 characters accepted, answered and listed by GET /bots); 101 characters and another active account's name answer 400 BAD_REQUEST and leave the name; the unchanged name is accepted",
  section: SECTION,
}, async (ctx, { owner, bot, client, path }) => {
  const longest = nameOfLength(botName(ctx), MAX_NAME_LENGTH);
  const reply = await client.patch(path, { full_name: longest });
  expectEqual(expectShape(expectSuccess(reply), answerShape, 'body', reply).full_name, longest, 'full_name answered', reply);
  const listed = await listedBot(client, bot.email);
  expectEqual(listed.bot?.full_name, longest, 'full_name listed by GET /bots', listed.reply);
  for (const [what, name] of [['101 characters', nameOfLength(botName(ctx), MAX_NAME_LENGTH + 1)], ["the owner's name", ctx.identity(owner).fullName]] as const) {
    const refused = await client.patch(path, { full_name: name });
    check(refused.status === 400 && refused.body?.code === 'BAD_REQUEST', `renaming to ${what} should answer 400 BAD_REQUEST; got HTTP ${refused.status}`, refused);
  }
  expectSuccess(await client.patch(path, { full_name: longest }));
  const { user, reply: read } = await userView(ctx.as('admin'), bot.userId);
  expectEqual(user.full_name, longest, 'full_name after the refused renames', read);
});

const defaultChannels = patchBotRule({
  id: 'bots/update-default-channels',
  creators: ['second-member', 'admin'],
  title: 'the default sending and events channels take a readable channel by name and "" clears them, default_all_public_streams takes a JSON boolean, each answered and listed by GET /bots; an unknown channel name or a non-boolean answers 400 BAD_REQUEST',
  section: SECTION,
}, async (ctx, { owner, bot, client, path }) => {
  const channel = await runChannel(ctx);
  const rounds: ReadonlyArray<readonly [Record<string, unknown>, string | null, boolean]> = [
    [{ default_sending_stream: channel.name, default_events_register_stream: channel.name, default_all_public_streams: true }, channel.name, true],
    [{ default_sending_stream: '', default_events_register_stream: '', default_all_public_streams: false }, null, false],
  ];
  for (const [params, stream, allPublic] of rounds) {
    const reply = await client.patch(path, params);
    const body = expectShape(expectSuccess(reply), answerShape, 'body', reply);
    expectEqual([body.default_sending_stream, body.default_events_register_stream, body.default_all_public_streams], [stream, stream, allPublic], 'default channels answered', reply);
    const listed = await listedBot(client, bot.email);
    check(listed.bot !== undefined, 'GET /bots no longer lists the bot', listed.reply);
    expectEqual([listed.bot.default_sending_stream, listed.bot.default_events_register_stream, listed.bot.default_all_public_streams], [stream, stream, allPublic], 'default channels listed by GET /bots', listed.reply);
  }
  for (const params of [{ default_sending_stream: ctx.name('no-such-channel') }, { default_events_register_stream: ctx.name('no-such-channel') }, { default_all_public_streams: 'yes' }]) {
    expectError(await client.patch(path, params), { status: 400, code: 'BAD_REQUEST' });
  }
});

const owner = patchBotRule({
  id: 'bots/update-owner',
  title: "bot_owner_id hands a bot to another member: GET /users/{id} names the new owner, whose GET /bots lists it while the previous owner's does not; an unknown user and a bot as owner answer 400 BAD_REQUEST",
  section: SECTION,
  needs: ['second-member'],
}, async (ctx, { owner: previous, bot, path }) => {
  const admin = ctx.as('admin');
  for (const ownerId of [2_147_483_000, bot.userId]) expectError(await admin.patch(path, { bot_owner_id: ownerId }), { status: 400, code: 'BAD_REQUEST' });
  const next = ctx.identity('second-member');
  expectSuccess(await ctx.as(previous).patch(path, { bot_owner_id: next.userId }));
  const { user, reply } = await userView(admin, bot.userId);
  expectEqual(user.bot_owner_id, next.userId, 'bot_owner_id after the change', reply);
  const mine = await listedBot(ctx.as('second-member'), bot.email);
  check(mine.bot !== undefined, "the new owner's GET /bots does not list the bot", mine.reply);
  const theirs = await listedBot(ctx.as(previous), bot.email);
  check(theirs.bot === undefined, "the previous owner's GET /bots still lists the bot", theirs.reply);
});

const role = patchBotRule({
  id: 'bots/update-role',
  title: "an administrator changes a bot's role (read back in GET /users/{id}); the owning member is refused with 400 UNAUTHORIZED_PRINCIPAL, an administrator who is not an owner gets the same for the owner role, and a role outside 100/200/300/400/600 (150) is 400 BAD_REQUEST (level 130)",
  section: `${SECTION}; changelog 130`,
  levels: { min: BOT_ROLE_LEVEL },
}, async (ctx, { owner: creator, bot, client, path }) => {
  const admin = ctx.as('admin');
  const readRole = async () => {
    const me = await bot.client.get('/users/me');
    return expectShape(expectSuccess(me), v.object({ role: v.optional(v.int()) }), 'body', me).role;
  };
  if (ctx.identity(creator).role === 'member') expectError(await client.patch(path, { role: 300 }), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL' });
  if (ctx.identity('admin').role !== 'owner') expectError(await admin.patch(path, { role: 100 }), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL' });
  expectError(await admin.patch(path, { role: 150 }), { status: 400, code: 'BAD_REQUEST' });
  expectEqual(await readRole(), 400, 'role of the bot after the refused changes');
  for (const value of [300, 400]) {
    expectSuccess(await admin.patch(path, { role: value }));
    expectEqual(await readRole(), value, `role of the bot after setting ${value}`);
  }
});

const PAYLOAD_URL = 'https://example.com/conformance-hook';
const NEW_URL = 'https://example.org/conformance-hook/v2';

const service = patchBotRule({
  id: 'bots/update-outgoing-webhook-service',
  creators: ['second-member', 'admin'],
  title: "service_payload_url (a JSON-encoded URL) and service_interface change an outgoing webhook bot's service, answered and read back in realm_bots; a URL that is not one and an interface other than 1 or 2 answer 400 BAD_REQUEST",
  section: SECTION,
}, async (ctx, { bot, client, path }) => {
  const reply = await client.patch(path, { service_payload_url: JSON.stringify(NEW_URL), service_interface: 2 });
  const body = expectShape(expectSuccess(reply), v.object({ service_payload_url: v.string(), service_interface: v.int() }), 'body', reply);
  expectEqual([body.service_payload_url, body.service_interface], [NEW_URL, 2], 'service_payload_url and service_interface answered', reply);
  const services = expectShape((await realmBot(client, bot.userId))?.services, v.array(v.object({ base_url: v.string(), interface: v.int() }), { minLength: 1 }), 'realm_bots services');
  expectEqual([services[0]!.base_url, services[0]!.interface], [NEW_URL, 2], 'the outgoing webhook service in realm_bots');
  expectError(await client.patch(path, { service_payload_url: JSON.stringify('not a url') }), { status: 400, code: 'BAD_REQUEST' });
  expectError(await client.patch(path, { service_payload_url: JSON.stringify(PAYLOAD_URL), service_interface: 9 }), { status: 400, code: 'BAD_REQUEST' });
}, { bot_type: BOT_TYPE.OUTGOING_WEBHOOK, payload_url: JSON.stringify(PAYLOAD_URL), interface_type: 1 });

export const rules: readonly Rule[] = [fullName, defaultChannels, owner, role, service];
