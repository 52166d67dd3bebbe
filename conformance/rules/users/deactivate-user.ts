/**
 * `DELETE /users/{user_id}` (sections 3.2 and 4.15): administrators deactivate users, who then
 * fail authentication; `deactivation_notification_comment` (level 135); nobody else may; the only
 * organization owner is never deactivated. Only users the run created are ever deactivated, and
 * each is reactivated afterwards (the run deactivates its throwaway users itself at the end).
 * The owner checks are requests a conforming server must refuse; should one succeed anyway, the
 * cleanup reactivates the owner. That rule never runs when the administrator identity (the one
 * cleanups use) is the owner itself.
 */
import fc from 'fast-check';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { expectDocumentedError } from '../../expect/deviation.js';
import { v } from '../../expect/shape.js';
import { printableText } from '../support/arbitraries.js';
import { highestUserId, userDirectory } from '../support/channel-fixtures.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import { isActive, reactivatedThrowaway, reactivateIfNeeded } from '../support/throwaway-support.js';
import type { Rule } from '../types.js';

/** Level 135: deactivation_notification_comment. */
const COMMENT_LEVEL = 135;

const deactivates: Rule = {
  id: 'deactivate-user/deactivated-user-unauthorized',
  title: 'an administrator deactivates a user (empty success), who is then inactive and gets 401 UNAUTHORIZED on its next request; deactivating again is 400 BAD_REQUEST',
  endpoint: 'DELETE /users/{user_id}',
  section: '3.2; 4.15; 5.4',
  writes: true,
  needs: ['admin', 'throwaway-user'],
  async run(ctx) {
    const { identity, client } = await reactivatedThrowaway(ctx);
    expectSuccess(await client.get('/users/me'));
    const reply = await ctx.as('admin').delete(`/users/${identity.userId}`);
    expectPlainSuccess(reply);
    expectError(await client.get('/users/me'), { status: 401, code: 'UNAUTHORIZED' });
    check(!(await isActive(ctx, identity.userId)), 'the deactivated user is still is_active');
    expectError(await ctx.as('admin').delete(`/users/${identity.userId}`), { status: 400, code: 'BAD_REQUEST' });
  },
};

const comment: Rule = {
  id: 'deactivate-user/notification-comment-accepted',
  title: 'deactivation_notification_comment (empty or any text) is accepted with the deactivation (feature level 135)',
  endpoint: 'DELETE /users/{user_id}',
  section: '3.2; 4.15',
  levels: { min: COMMENT_LEVEL },
  writes: true,
  needs: ['admin', 'throwaway-user'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const { identity } = await reactivatedThrowaway(ctx);
    await ctx.property('comments', [fc.oneof(fc.constant(''), printableText(200))], async (text) => {
      expectSuccess(await admin.delete(`/users/${identity.userId}`, { deactivation_notification_comment: text }), { ignored: [] });
      check(!(await isActive(ctx, identity.userId)), 'the user is still active');
      expectSuccess(await admin.post(`/users/${identity.userId}/reactivate`));
    }, { maxRuns: 3 });
  },
};

const nonAdministrators: Rule = {
  id: 'deactivate-user/non-administrators-refused',
  title: 'members and moderators cannot deactivate a user: 400 BAD_REQUEST, and the user stays active',
  endpoint: 'DELETE /users/{user_id}',
  section: '4.15; 5.5',
  writes: true,
  needs: ['admin', 'member', 'moderator', 'throwaway-user'],
  async run(ctx) {
    const { identity, client } = await reactivatedThrowaway(ctx);
    await ctx.property('caller x comment', [fc.constantFrom('member', 'moderator' as const), fc.option(printableText(20), { nil: undefined })], async (who, text) => {
      const params = ctx.featureLevel >= COMMENT_LEVEL ? { deactivation_notification_comment: text } : {};
      expectError(await ctx.as(who).delete(`/users/${identity.userId}`, params), { status: 400, code: 'BAD_REQUEST' });
    }, { maxRuns: 4 });
    expectSuccess(await client.get('/users/me'));
  },
};

const soleOwner: Rule = {
  id: 'deactivate-user/sole-owner-refused',
  title: 'the only organization owner cannot be deactivated: 400 BAD_REQUEST for the owner itself, and an administrator is refused too',
  endpoint: 'DELETE /users/{user_id}',
  section: '3.2; 4.15; 7',
  writes: true,
  needs: ['admin', 'owner'],
  deviation: 'deactivate-owner-by-administrator-code',
  async run(ctx) {
    const owner = ctx.identity('owner');
    // Cleanups (the owner's reactivation, the run's own) act as the administrator: should a
    // non-conforming server deactivate the owner, that identity must still be able to act.
    if (ctx.identity('admin').userId === owner.userId) {
      ctx.skip('needs an administrator other than the owner: cleanups run as the administrator, which must never be the user this rule tries to deactivate', 'admin');
    }
    const members = await ctx.as('admin').get('/users');
    const rows = expectShape(expectSuccess(members), v.object({ members: v.array(v.object({ user_id: v.int(), role: v.optional(v.int()), is_owner: v.optional(v.bool()), is_bot: v.bool(), is_active: v.bool() })) }), 'body', members).members;
    const owners = rows.filter((user) => !user.is_bot && user.is_active && (user.role === 100 || user.is_owner === true)).map((user) => user.user_id);
    // Whatever happens, the owner ends the rule active.
    ctx.cleanup(`make sure owner ${owner.email} is active`, (c) => reactivateIfNeeded(c, owner.userId));
    if (ctx.identity('admin').role !== 'owner') {
      expectDocumentedError(ctx, await ctx.as('admin').delete(`/users/${owner.userId}`), 'deactivate-owner-by-administrator-code');
    }
    if (owners.length !== 1 || owners[0] !== owner.userId) {
      // With several owners, the owner deactivating itself would succeed: never try.
      ctx.note(`the realm has ${owners.length} active owners: the sole-owner request was not sent`);
      return;
    }
    expectError(await ctx.as('owner').delete(`/users/${owner.userId}`), { status: 400, code: 'BAD_REQUEST' });
    expectEqual(await isActive(ctx, owner.userId), true, 'the owner is active');
  },
};

const unknownUser: Rule = {
  id: 'deactivate-user/unknown-user-bad-request',
  title: 'deactivating a user ID nobody has is refused with 400 BAD_REQUEST',
  endpoint: 'DELETE /users/{user_id}',
  section: '4.15; 7',
  writes: false,
  needs: ['admin'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const highest = highestUserId(await userDirectory(admin));
    await ctx.property('IDs above every user', [fc.integer({ min: highest + 1, max: 2 ** 31 - 1 })], async (id) => {
      expectError(await admin.delete(`/users/${id}`), { status: 400, code: 'BAD_REQUEST' });
    }, { maxRuns: 10 });
  },
};

const noCredentials: Rule = {
  id: 'deactivate-user/no-credentials-unauthorized',
  title: 'DELETE /users/{user_id} without credentials is answered 401 UNAUTHORIZED',
  endpoint: 'DELETE /users/{user_id}',
  section: '5.4',
  writes: false,
  needs: ['user'],
  async run(ctx) {
    expectError(await ctx.anonymous.delete(`/users/${ctx.identity('user').userId}`), { status: 401, code: 'UNAUTHORIZED' });
  },
};

export const rules: readonly Rule[] = [deactivates, comment, nonAdministrators, soleOwner, unknownUser, noCredentials];
