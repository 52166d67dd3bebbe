/**
 * Throwaway users that rules deactivate: each is reactivated after the rule if it ended
 * deactivated, so that the run's own cleanup (which deactivates every throwaway user) succeeds.
 */
import type { CleanupContext } from '../../cleanup.js';
import { expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import type { RuleContext, ThrowawayUser } from '../types.js';

/** A throwaway user, reactivated after the rule if the rule deactivated it. */
export async function reactivatedThrowaway(ctx: RuleContext): Promise<ThrowawayUser> {
  const user = await ctx.throwawayUser();
  ctx.cleanup(`reactivate ${user.identity.email} if deactivated`, (c) => reactivateIfNeeded(c, user.identity.userId));
  return user;
}

/** Reactivates the user (as the administrator) when it is deactivated; throws when that fails. */
export async function reactivateIfNeeded(c: CleanupContext, userId: number): Promise<void> {
  const admin = c.as('admin');
  const reply = await admin.get(`/users/${userId}`);
  if ((reply.body?.user as { is_active?: unknown } | undefined)?.is_active === false) {
    const back = await admin.post(`/users/${userId}/reactivate`);
    if (back.status !== 200) throw new Error(`reactivating user ${userId}: HTTP ${back.status} ${back.text.slice(0, 200)}`);
  }
}

/** `is_active` of a user as the administrator sees it. */
export async function isActive(ctx: RuleContext, userId: number): Promise<boolean> {
  const reply = await ctx.as('admin').get(`/users/${userId}`);
  return expectShape(expectSuccess(reply), v.object({ user: v.object({ is_active: v.bool() }) }), 'body', reply).user.is_active;
}
