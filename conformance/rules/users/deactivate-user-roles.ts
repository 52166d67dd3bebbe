/**
 * `DELETE /users/{user_id}` by every role where rights differ (sections 3.2, 4.15, 5.5): owners
 * deactivate users, guests may not, a user acting on itself is refused unless it is an
 * administrator, and bots are no target of this endpoint (the real server looks targets up
 * without bots) nor may a bot deactivate anyone. Only users and bots the run created are touched;
 * each is restored (reactivated, demoted, bot deactivated) afterwards.
 */
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { expectUnauthorizedWith } from '../conventions/auth-endpoint-table.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import { isActive, reactivatedThrowaway } from '../support/throwaway-support.js';
import type { Rule } from '../types.js';

/** Level 8: `PATCH /users/{user_id}` takes `role`. */
const ROLE_PARAMETER_LEVEL = 8;
const deactivated = 'Account is deactivated';

const guestRefused: Rule = {
  id: 'deactivate-user/guest-refused',
  title: 'a guest cannot deactivate a user: 400 BAD_REQUEST, and the user stays active',
  endpoint: 'DELETE /users/{user_id}',
  section: '4.15; 5.5',
  writes: true,
  needs: ['admin', 'guest', 'throwaway-user'],
  async run(ctx) {
    const { identity } = await reactivatedThrowaway(ctx);
    expectError(await ctx.as('guest').delete(`/users/${identity.userId}`), { status: 400, code: 'BAD_REQUEST' });
    expectEqual(await isActive(ctx, identity.userId), true, 'the user is still active');
  },
};

const ownerDeactivates: Rule = {
  id: 'deactivate-user/owner-deactivates',
  title: "an organization owner deactivates a user (empty success); the user is inactive and its key gets 401 UNAUTHORIZED",
  endpoint: 'DELETE /users/{user_id}',
  section: '3.2; 4.15; 5.4',
  writes: true,
  needs: ['admin', 'owner', 'throwaway-user'],
  async run(ctx) {
    const { identity, client } = await reactivatedThrowaway(ctx);
    expectPlainSuccess(await ctx.as('owner').delete(`/users/${identity.userId}`));
    expectEqual(await isActive(ctx, identity.userId), false, 'the user is active after the owner deactivated it');
    expectUnauthorizedWith(await client.get('/users/me'), deactivated, "the deactivated user's key");
  },
};

const onItself: Rule = {
  id: 'deactivate-user/acting-on-itself',
  title: 'a member cannot deactivate itself through DELETE /users/{own id} (400 BAD_REQUEST); an administrator can, and its key then gets 401 UNAUTHORIZED',
  endpoint: 'DELETE /users/{user_id}',
  section: '3.2; 4.15; 5.5',
  levels: { min: ROLE_PARAMETER_LEVEL },
  writes: true,
  needs: ['admin', 'throwaway-user'],
  async run(ctx) {
    const { identity, client } = await reactivatedThrowaway(ctx);
    const self = `/users/${identity.userId}`;
    expectError(await client.delete(self), { status: 400, code: 'BAD_REQUEST' });
    expectEqual(await isActive(ctx, identity.userId), true, 'the member is still active after trying to deactivate itself');
    expectSuccess(await ctx.as('admin').patch(self, { role: 200 }));
    ctx.cleanup(`make ${identity.email} a member again`, async (c) => {
      const back = await c.as('admin').patch(self, { role: 400 });
      if (back.status !== 200) throw new Error(`${identity.email} stays an administrator: HTTP ${back.status} ${back.text.slice(0, 200)}`);
    });
    expectPlainSuccess(await client.delete(self));
    expectEqual(await isActive(ctx, identity.userId), false, 'the administrator is active after deactivating itself');
    expectUnauthorizedWith(await client.get('/users/me'), deactivated, "the self-deactivated administrator's key");
  },
};

const botShape = v.object({ user_id: v.int({ min: 1 }), api_key: v.string({ nonEmpty: true }) });

const bots: Rule = {
  id: 'deactivate-user/bots-neither-target-nor-actor',
  title: "DELETE /users/{bot id} is refused with 400 BAD_REQUEST (bots are no target) and the bot stays active; a bot cannot deactivate a user; the bot's fields name its owner",
  endpoint: 'DELETE /users/{user_id}',
  section: '4.15; 2.3; 5.1',
  writes: true,
  needs: ['admin', 'member', 'throwaway-user'],
  async run(ctx) {
    const member = ctx.identity('member');
    const name = ctx.name('bot');
    const created = await ctx.as('member').post('/bots', { full_name: name, short_name: name });
    if (created.status !== 200) ctx.skip(`a member may not create a bot here (POST /bots answered HTTP ${created.status} ${String(created.body?.msg ?? '')})`);
    const bot = expectShape(expectSuccess(created), botShape, 'body', created);
    ctx.cleanup(`deactivate bot ${name} (${bot.user_id})`, async (c) => {
      const gone = await c.as('admin').delete(`/bots/${bot.user_id}`);
      if (gone.status !== 200) throw new Error(`bot ${bot.user_id} stays active: HTTP ${gone.status} ${gone.text.slice(0, 200)}`);
    });
    const fetched = await ctx.as('admin').get(`/users/${bot.user_id}`, { include_custom_profile_fields: true });
    const user = expectShape(expectSuccess(fetched), v.object({ user: v.object({ email: v.string(), delivery_email: v.optional(v.nullable(v.string())), is_bot: v.bool(), bot_type: v.optional(v.nullable(v.int())), bot_owner_id: v.optional(v.nullable(v.int())), profile_data: v.optional(v.record(v.object({}))) }) }), 'body', fetched).user;
    expectEqual([user.is_bot, user.bot_type, user.bot_owner_id], [true, 1, member.userId], 'is_bot, bot_type (generic), bot_owner_id (its creator)', fetched);
    check(user.profile_data === undefined, 'a bot has no profile_data, even when custom profile fields are asked for', fetched);
    // The bot authenticates with its own address and key, as itself.
    const botClient = ctx.anonymous.withCredentials(user.delivery_email ?? user.email, bot.api_key);
    const me = await botClient.get('/users/me');
    expectEqual(expectSuccess(me).user_id, bot.user_id, "user_id of GET /users/me with the bot's key", me);

    expectError(await ctx.as('admin').delete(`/users/${bot.user_id}`), { status: 400, code: 'BAD_REQUEST' });
    expectEqual(await isActive(ctx, bot.user_id), true, 'the bot is still active after DELETE /users/{bot id}');
    const { identity } = await reactivatedThrowaway(ctx);
    expectError(await botClient.delete(`/users/${identity.userId}`), { status: 400, code: 'BAD_REQUEST' });
    expectEqual(await isActive(ctx, identity.userId), true, 'the user is still active after a bot tried to deactivate it');
  },
};

export const rules: readonly Rule[] = [guestRefused, ownerDeactivates, onItself, bots];
