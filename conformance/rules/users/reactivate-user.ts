/**
 * `POST /users/{user_id}/reactivate` (OpenAPI reactivate-user): administrators bring back a
 * deactivated user; nobody else may. Only the run's throwaway users are deactivated and
 * reactivated (each ends the rule active, for the run's own final deactivation).
 */
import { expectEqual, expectError } from '../../expect/assert.js';
import { highestUserId, userDirectory } from '../support/channel-fixtures.js';
import { openStreamAs } from '../support/event-stream.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import { isActive, reactivatedThrowaway } from '../support/throwaway-support.js';
import type { Rule } from '../types.js';

/** Level 222: reactivation is a `realm_user` `update` of `is_active` (an `add` before). */
const UPDATE_EVENT_LEVEL = 222;

const reactivates: Rule = {
  id: 'reactivate-user/administrator-reactivates',
  title: 'a member and a moderator get 400 BAD_REQUEST reactivating a deactivated user, who stays deactivated; an administrator reactivates it (empty success), it reads back active and another member gets realm_user update is_active true (add before level 222); an unknown user ID is 400 BAD_REQUEST',
  endpoint: 'POST /users/{user_id}/reactivate',
  section: 'api/reactivate-user; 3.2',
  writes: true,
  needs: ['admin', 'member', 'moderator', 'second-member', 'throwaway-user'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const { identity } = await reactivatedThrowaway(ctx);
    const path = `/users/${identity.userId}/reactivate`;
    expectPlainSuccess(await admin.delete(`/users/${identity.userId}`));
    for (const who of ['member', 'moderator'] as const) expectError(await ctx.as(who).post(path), { status: 400, code: 'BAD_REQUEST' });
    expectEqual(await isActive(ctx, identity.userId), false, 'is_active after the refused reactivations');
    const watcher = await openStreamAs(ctx, 'second-member', ['realm_user']);
    expectPlainSuccess(await admin.post(path));
    expectEqual(await isActive(ctx, identity.userId), true, 'is_active after the reactivation');
    const about = (person: unknown) => (person as { user_id?: unknown } | undefined)?.user_id === identity.userId;
    if (ctx.featureLevel >= UPDATE_EVENT_LEVEL) {
      await watcher.next((e) => e.type === 'realm_user' && e.op === 'update' && about(e.person) && (e.person as { is_active?: unknown }).is_active === true, 'realm_user update is_active true');
    } else {
      await watcher.next((e) => e.type === 'realm_user' && e.op === 'add' && about(e.person), 'realm_user add of the reactivated user');
    }
    const unknown = highestUserId(await userDirectory(admin)) + 1_000_000;
    expectError(await admin.post(`/users/${unknown}/reactivate`), { status: 400, code: 'BAD_REQUEST' });
  },
};

export const rules: readonly Rule[] = [reactivates];
