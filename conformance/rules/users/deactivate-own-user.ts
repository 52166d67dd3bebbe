/**
 * `DELETE /users/me` (the real server's `deactivate_user_own_backend`; OpenAPI
 * deactivate-own-user): a user leaves the organization, except the only owner
 * (`CANNOT_DEACTIVATE_LAST_USER` with `is_last_owner`). The leaving user is always a throwaway
 * one (reactivated afterwards for the run's own cleanup); the owner check is a request a
 * conforming server refuses, and should one succeed anyway the cleanup reactivates the owner, so
 * it never runs when the administrator identity (the one cleanups use) is that owner.
 */
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { openStreamAs } from '../support/event-stream.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import { isActive, reactivatedThrowaway, reactivateIfNeeded } from '../support/throwaway-support.js';
import type { Rule } from '../types.js';

const SECTION = 'api/deactivate-own-user';
/** Level 222: deactivation is a `realm_user` `update` of `is_active` (a `remove` before). */
const UPDATE_EVENT_LEVEL = 222;

const leaves: Rule = {
  id: 'deactivate-own-user/user-leaves',
  title: 'a user deactivates itself (empty success): it reads back inactive, its key gets 401 UNAUTHORIZED, and another member gets realm_user update is_active false (remove before level 222)',
  endpoint: 'DELETE /users/me',
  section: SECTION,
  writes: true,
  needs: ['admin', 'second-member', 'throwaway-user'],
  async run(ctx) {
    const { identity, client } = await reactivatedThrowaway(ctx);
    const watcher = await openStreamAs(ctx, 'second-member', ['realm_user']);
    expectPlainSuccess(await client.delete('/users/me'));
    expectEqual(await isActive(ctx, identity.userId), false, 'is_active after leaving');
    expectError(await client.get('/users/me'), { status: 401, code: 'UNAUTHORIZED' });
    const about = (person: unknown) => (person as { user_id?: unknown } | undefined)?.user_id === identity.userId;
    if (ctx.featureLevel >= UPDATE_EVENT_LEVEL) {
      const { event } = await watcher.next((e) => e.type === 'realm_user' && e.op === 'update' && about(e.person) && (e.person as { is_active?: unknown }).is_active !== undefined, 'realm_user update of is_active');
      expectEqual((event.person as { is_active?: unknown }).is_active, false, 'is_active of the realm_user update');
    } else {
      await watcher.next((e) => e.type === 'realm_user' && e.op === 'remove' && about(e.person), 'realm_user remove');
    }
  },
};

const ownersShape = v.object({ members: v.array(v.object({ user_id: v.int(), role: v.optional(v.int()), is_owner: v.optional(v.bool()), is_bot: v.bool(), is_active: v.bool() })) });

const soleOwner: Rule = {
  id: 'deactivate-own-user/sole-owner-refused',
  title: 'the only organization owner cannot leave: 400 CANNOT_DEACTIVATE_LAST_USER with is_last_owner true, and the owner stays active',
  endpoint: 'DELETE /users/me',
  section: SECTION,
  writes: true,
  needs: ['admin', 'owner'],
  async run(ctx) {
    const owner = ctx.identity('owner');
    if (ctx.identity('admin').userId === owner.userId) {
      return ctx.skip('needs an administrator other than the owner: cleanups run as the administrator, which must never be the user this rule tries to deactivate', 'admin');
    }
    const listing = await ctx.as('admin').get('/users');
    const owners = expectShape(expectSuccess(listing), ownersShape, 'body', listing).members.filter((user) => !user.is_bot && user.is_active && (user.role === 100 || user.is_owner === true));
    if (owners.length !== 1 || owners[0]!.user_id !== owner.userId) return ctx.skip(`the realm has ${owners.length} active owners: the owner leaving would succeed, so the request is not sent`);
    ctx.cleanup(`make sure owner ${owner.email} is active`, (c) => reactivateIfNeeded(c, owner.userId));
    const reply = await ctx.as('owner').delete('/users/me');
    const body = expectError(reply, { status: 400, code: 'CANNOT_DEACTIVATE_LAST_USER' });
    check(body.is_last_owner === true, `is_last_owner should be true, got ${JSON.stringify(body.is_last_owner)}`, reply);
    expectEqual(await isActive(ctx, owner.userId), true, 'the owner is active');
  },
};

export const rules: readonly Rule[] = [leaves, soleOwner];
