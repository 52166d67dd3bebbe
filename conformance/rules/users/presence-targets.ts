/**
 * `GET /users/{user_id_or_email}/presence` for targets the other presence rules leave out: a user
 * who never reported presence (no data yet), the same user once it has, and a deactivated user;
 * and `GET /realm/presence` read by a guest. Only the run's throwaway users are deactivated (and
 * reactivated afterwards).
 */
import { expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import { reactivatedThrowaway } from '../support/throwaway-support.js';
import { ownPresence } from './presence-shapes.js';
import type { Rule } from '../types.js';

/** Level 43: the path takes a user ID. */
const PRESENCE_BY_ID = 43;

const entry = v.object({ status: v.literal('active', 'idle', 'offline'), timestamp: v.int({ min: 0 }) });

const noDataThenDeactivated: Rule = {
  id: 'presence/user-presence-no-data-and-deactivated',
  title: 'a user who never reported presence has no presence data (400 BAD_REQUEST); after it reports active its presence reads as active; once deactivated it is no user to ask about (400 BAD_REQUEST)',
  endpoint: 'GET /users/{user_id_or_email}/presence',
  section: '4.5; api/get-user-presence',
  levels: { min: PRESENCE_BY_ID },
  writes: true,
  needs: ['admin', 'member', 'throwaway-user'],
  async run(ctx) {
    const reader = ctx.as('member');
    const { identity, client } = await reactivatedThrowaway(ctx);
    const path = `/users/${identity.userId}/presence`;
    expectError(await reader.get(path), { status: 400, code: 'BAD_REQUEST' });
    expectSuccess(await client.post('/users/me/presence', { status: 'active', ping_only: true }));
    // Presence disabled for the realm or the user (invisible mode): nothing is shown to ask about.
    if (!(await ownPresence(client)).shown) return ctx.skip('presence is not shown for this realm or the new user (presence_enabled off)');
    // A production server writes presence after answering: poll briefly for it.
    let reply = await reader.get(path);
    for (let tries = 0; reply.status !== 200 && tries < 40; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      reply = await reader.get(path);
    }
    const { presence } = expectShape(expectSuccess(reply), v.object({ presence: v.object({ aggregated: entry }) }), 'body', reply);
    expectShape(presence.aggregated.status, v.literal('active'), 'presence.aggregated.status', reply);
    expectPlainSuccess(await ctx.as('admin').delete(`/users/${identity.userId}`));
    expectError(await reader.get(path), { status: 400, code: 'BAD_REQUEST' });
  },
};

const guestReads: Rule = {
  id: 'presence/realm-presence-readable-by-guest',
  title: 'a guest reads GET /realm/presence: legacy entries keyed by email and a server_timestamp',
  endpoint: 'GET /realm/presence',
  section: '4.5; 2.4',
  writes: false,
  needs: ['guest'],
  async run(ctx) {
    const reply = await ctx.as('guest').get('/realm/presence');
    expectShape(expectSuccess(reply), v.object({ presences: v.record(v.object({ aggregated: v.optional(entry) })), server_timestamp: v.number() }), 'body', reply);
  },
};

export const rules: readonly Rule[] = [noDataThenDeactivated, guestReads];
