/**
 * The `realm_bot` events that keep a bot owner's client in step: `add` on creation to the owner
 * and the administrators (with the whole bot dictionary), `update` per changed field, and on
 * deactivation an `update` of `is_active` (level 222; a `remove` before), while members who do
 * not own the bot hear only the `realm_user` side. Delivery is awaited (a production server
 * sends events after answering); the negative check stops at a later event of the same queue.
 */
import type { JsonObject } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { check, expectEqual, expectShape } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { type EventStream, openStreamAs } from '../support/event-stream.js';
import { BOT_DEACTIVATION_UPDATE_LEVEL, BOT_TYPE, BOT_USER_ID_LEVEL, botName, createBot, genericBotCreator } from './bots-support.js';
import type { Rule, RuleContext } from '../types.js';

const botOf = (event: JsonObject): JsonObject => (event.bot ?? {}) as JsonObject;
const personOf = (event: JsonObject): JsonObject => (event.person ?? {}) as JsonObject;

const addedBot = v.object({
  user_id: v.int(),
  email: v.string(),
  full_name: v.string(),
  bot_type: v.int(),
  is_active: v.bool(),
  api_key: v.string(),
  default_sending_stream: v.nullable(v.string()),
  default_events_register_stream: v.nullable(v.string()),
  default_all_public_streams: v.bool(),
  avatar_url: v.string(),
  services: v.array(v.unknown()),
  owner_id: v.optional(v.int()),
});

const events: Rule = {
  id: 'bots/realm-bot-events',
  title: "creating, renaming and deactivating a bot send realm_bot add (the whole bot), update (full_name) and update is_active false (remove before level 222) to its owner and the administrators; another member gets realm_user add, update and deactivation but no realm_bot event",
  endpoint: 'POST /bots, PATCH, DELETE /bots/{bot_id}',
  section: 'api/get-events#realm_bot-add; changelog 222',
  levels: { min: BOT_USER_ID_LEVEL },
  writes: true,
  needs: ['admin', 'member', 'second-member', 'throwaway-user'],
  async run(ctx) {
    const owner = await genericBotCreator(ctx);
    if (!owner) return ctx.skip('no identity of the run may create a generic bot in this realm');
    const watchers = [...new Set<IdentityName>([owner, 'admin'])];
    const botQueues: EventStream[] = [];
    for (const who of watchers) botQueues.push(await openStreamAs(ctx, who, ['realm_bot']));
    const other = await openStreamAs(ctx, 'second-member', ['realm_bot', 'realm_user']);
    const bot = await createBot(ctx, owner);
    const isThisBot = (event: JsonObject) => event.type === 'realm_bot' && botOf(event).user_id === bot.userId;

    for (const [index, queue] of botQueues.entries()) {
      const { event } = await queue.next((e) => isThisBot(e) && e.op === 'add', `realm_bot add to ${watchers[index]}`);
      const dict = expectShape(event.bot, addedBot, `realm_bot add bot (to ${watchers[index]})`);
      expectEqual([dict.full_name, dict.bot_type, dict.is_active, dict.api_key, dict.default_sending_stream, dict.default_all_public_streams], [bot.fullName, BOT_TYPE.GENERIC, true, bot.apiKey, null, false], `realm_bot add fields (to ${watchers[index]})`);
      if (dict.owner_id !== undefined) expectEqual(dict.owner_id, ctx.identity(owner).userId, 'realm_bot add owner_id');
    }
    const added = await other.next((e) => e.type === 'realm_user' && e.op === 'add' && personOf(e).user_id === bot.userId, 'realm_user add of the bot to another member');
    expectEqual(personOf(added.event).is_bot, true, 'is_bot of the realm_user add person');

    const renamed = botName(ctx);
    check((await ctx.as(owner).patch(`/bots/${bot.userId}`, { full_name: renamed })).status === 200, 'renaming the bot failed');
    for (const [index, queue] of botQueues.entries()) {
      const { event } = await queue.next((e) => isThisBot(e) && e.op === 'update' && botOf(e).full_name !== undefined, `realm_bot update full_name to ${watchers[index]}`);
      expectEqual(botOf(event).full_name, renamed, `realm_bot update full_name (to ${watchers[index]})`);
    }
    const sentinel = await other.next((e) => e.type === 'realm_user' && e.op === 'update' && personOf(e).user_id === bot.userId && personOf(e).full_name === renamed, 'realm_user update full_name to another member');
    const leaked = [...added.before, ...sentinel.before].filter(isThisBot);
    check(leaked.length === 0, `a member who does not own the bot received realm_bot events: ${JSON.stringify(leaked)}`);

    check((await ctx.as(owner).delete(`/bots/${bot.userId}`)).status === 200, 'deactivating the bot failed');
    const modern = ctx.featureLevel >= BOT_DEACTIVATION_UPDATE_LEVEL;
    for (const [index, queue] of botQueues.entries()) {
      const what = modern ? 'realm_bot update is_active false' : 'realm_bot remove';
      await queue.next((e) => isThisBot(e) && (modern ? e.op === 'update' && botOf(e).is_active === false : e.op === 'remove'), `${what} to ${watchers[index]}`);
    }
    const person = (e: JsonObject) => e.type === 'realm_user' && personOf(e).user_id === bot.userId;
    await other.next((e) => person(e) && (modern ? e.op === 'update' && personOf(e).is_active === false : e.op === 'remove'), modern ? 'realm_user update is_active false' : 'realm_user remove');
  },
};

export const rules: readonly Rule[] = [events];
