/**
 * Who may create and who may manage bots: every role creates each bot type exactly when the
 * realm's settings (as `POST /register` publishes them) allow it, guests never; only a bot's
 * owner and administrators edit, deactivate or re-key it. Bots created here are deactivated
 * when the rule ends.
 */
import { check, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { ROLES_AND_GUEST } from '../support/realm-permissions.js';
import { attemptBot, BOT_TYPE, BOT_USER_ID_LEVEL, botCreationRights, botName, creationRefusalCode, ownedBotRule, userView } from './bots-support.js';
import type { Rule } from '../types.js';

const SECTION = 'api/add-bot; help/restrict-bot-creation';

const creationByRole: Rule = {
  id: 'bots/creation-by-role',
  title: 'each role creates a generic and an incoming webhook bot exactly when the realm settings allow that type (400 with the level\'s refusal code otherwise); a guest is always refused with 400 BAD_REQUEST',
  endpoint: 'POST /bots',
  section: SECTION,
  levels: { min: BOT_USER_ID_LEVEL },
  writes: true,
  needs: ['owner', 'admin', 'moderator', 'member', 'guest', 'throwaway-user'],
  async run(ctx) {
    const rights = await botCreationRights(ctx);
    if (!rights) return ctx.skip('the target publishes neither the bot creation groups nor realm_bot_creation_policy');
    const refusal = creationRefusalCode(ctx.featureLevel);
    for (const who of ROLES_AND_GUEST) {
      for (const [type, label] of [[BOT_TYPE.GENERIC, 'generic'], [BOT_TYPE.INCOMING_WEBHOOK, 'incoming webhook']] as const) {
        const allowed = who !== 'guest' && (type === BOT_TYPE.GENERIC ? rights.get(who)?.generic : rights.get(who)?.incomingWebhook) === true;
        const name = botName(ctx);
        const reply = await attemptBot(ctx, who, { full_name: name, short_name: name, bot_type: type });
        if (allowed) check(reply.status === 200, `${who} may create a ${label} bot here; answered HTTP ${reply.status} ${String(reply.body?.code ?? '')}`, reply);
        else expectError(reply, { status: 400, code: who === 'guest' ? 'BAD_REQUEST' : refusal });
      }
    }
  },
};

/** A bot ID nobody has. */
const ABSENT_BOT = 2_147_483_000;

const manageByOthers = ownedBotRule({
  id: 'bots/only-owner-and-administrators-manage',
  title: "another member, a moderator and a guest get 400 BAD_REQUEST editing, re-keying or deactivating someone else's bot, which stays unchanged and active; an administrator may edit it; unknown IDs and a person's ID are no bot (400 BAD_REQUEST)",
  endpoint: 'PATCH /bots/{bot_id}',
  section: 'api/update-bot; api/delete-bot',
  needs: ['second-member', 'moderator', 'guest'],
}, async (ctx, { owner, bot }) => {
  const outsiders = (['second-member', 'moderator', 'guest'] as const).filter((who) => ctx.identity(who).userId !== ctx.identity(owner).userId && ctx.identity(who).role !== 'admin' && ctx.identity(who).role !== 'owner');
  for (const who of outsiders) {
    const client = ctx.as(who);
    expectError(await client.patch(`/bots/${bot.userId}`, { full_name: botName(ctx) }), { status: 400, code: 'BAD_REQUEST' });
    expectError(await client.post(`/bots/${bot.userId}/api_key/regenerate`), { status: 400, code: 'BAD_REQUEST' });
    expectError(await client.delete(`/bots/${bot.userId}`), { status: 400, code: 'BAD_REQUEST' });
  }
  const admin = ctx.as('admin');
  const { user, reply } = await userView(admin, bot.userId);
  expectEqual([user.full_name, user.is_active], [bot.fullName, true], 'the bot after the refused requests: full_name, is_active', reply);
  expectSuccess(await bot.client.get('/users/me'));
  const renamed = botName(ctx);
  expectEqual(expectSuccess(await admin.patch(`/bots/${bot.userId}`, { full_name: renamed })).full_name, renamed, 'full_name answered to the administrator');
  const person = ctx.identity('second-member').userId;
  const ownerClient = ctx.as(owner);
  for (const [what, id] of [['an unknown ID', ABSENT_BOT], ["a person's ID", person]] as const) {
    for (const [method, path] of [['PATCH', `/bots/${id}`], ['DELETE', `/bots/${id}`], ['POST', `/bots/${id}/api_key/regenerate`]] as const) {
      const attempt = await ownerClient.call(method, path, method === 'PATCH' ? { full_name: botName(ctx) } : undefined);
      check(attempt.status === 400 && attempt.body?.code === 'BAD_REQUEST', `${method} ${path.replace(String(id), '{id}')} for ${what} should answer 400 BAD_REQUEST; got HTTP ${attempt.status}`, attempt);
    }
  }
  expectEqual((await userView(ownerClient, person)).user.is_active, true, 'the person is still active after DELETE /bots/{their id}');
});

export const rules: readonly Rule[] = [creationByRole, manageByOthers];
