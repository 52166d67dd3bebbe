/**
 * Muted users (`POST`/`DELETE /users/me/muted_users/{muted_user_id}`, level 48; the real
 * server's muted_users views): nobody mutes themselves, unknown IDs are refused, muting twice or
 * unmuting someone not muted is an error, bots (level 188) and deactivated users may be muted;
 * each change sends the muter a `muted_users` event with the whole list, and `POST /register`
 * `muted_users` agrees. Muting marks the muted user's messages read for the muter, so the run's
 * identities only ever mute accounts the run created (they sent nothing); every mute is undone
 * afterwards.
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import type { CleanupContext } from '../../cleanup.js';
import { check, expectError, expectShape } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import { openStreamAs } from '../support/event-stream.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import { fetchState } from '../support/channel-fixtures.js';
import { reactivatedThrowaway } from '../support/throwaway-support.js';
import { createBot, genericBotCreator } from '../users/bots-support.js';
import type { Rule, RuleContext } from '../types.js';

const MUTED_USERS_LEVEL = 48;
/** Level 188: bots may be muted. */
const MUTE_BOTS_LEVEL = 188;
const SECTION = 'api/mute-user; api/unmute-user';
const path = (id: number): string => `/users/me/muted_users/${id}`;

const mutedShape = v.object({ muted_users: v.array(v.object({ id: v.int(), timestamp: v.int({ min: 0 }) })) });

/** The IDs the client has muted, from `POST /register`. */
async function mutedIds(client: ApiClient): Promise<number[]> {
  return expectShape(await fetchState(client, ['muted_users']), mutedShape, 'register muted_users').muted_users.map((entry) => entry.id);
}

/** Unmutes `ids` for `who` when the rule ends if they are still muted, and reads that back. */
function unmuteLater(ctx: RuleContext, ids: readonly number[], who: IdentityName = 'member'): void {
  ctx.cleanup(`unmute users ${ids.join(', ')} for ${who}`, async (c: CleanupContext) => {
    const client = c.as(who);
    for (const id of ids) if ((await mutedIds(client)).includes(id)) await client.delete(path(id));
    const left = (await mutedIds(client)).filter((id) => ids.includes(id));
    if (left.length > 0) throw new Error(`users ${left.join(', ')} stay muted for ${who}`);
  });
}

const listIn = (event: JsonObject): number[] => expectShape(event, mutedShape, 'muted_users event').muted_users.map((entry) => entry.id);

const roundTrip: Rule = {
  id: 'muted-users/mute-unmute-round-trip',
  title: 'muting a user is an empty success that adds {id, timestamp} to a muted_users event and to POST /register muted_users; muting again answers 400 BAD_REQUEST; unmuting removes it (event and state); unmuting again answers 400 BAD_REQUEST',
  endpoint: 'POST, DELETE /users/me/muted_users/{muted_user_id}',
  section: `${SECTION}; api/get-events#muted_users`,
  levels: { min: MUTED_USERS_LEVEL },
  writes: true,
  needs: ['member', 'throwaway-user'],
  async run(ctx) {
    const client = ctx.as('member');
    const target = (await ctx.throwawayUser()).identity.userId;
    unmuteLater(ctx, [target]);
    const stream = await openStreamAs(ctx, 'member', ['muted_users']);
    check(!expectShape(stream.state, mutedShape, 'register muted_users').muted_users.some((entry) => entry.id === target), 'the new user is muted before the rule');
    expectPlainSuccess(await client.post(path(target)));
    await stream.next((e) => e.type === 'muted_users' && listIn(e).includes(target), 'muted_users event listing the muted user');
    check((await mutedIds(client)).includes(target), 'POST /register muted_users lacks the muted user');
    expectError(await client.post(path(target)), { status: 400, code: 'BAD_REQUEST' });
    expectPlainSuccess(await client.delete(path(target)));
    await stream.next((e) => e.type === 'muted_users' && !listIn(e).includes(target), 'muted_users event without the unmuted user');
    check(!(await mutedIds(client)).includes(target), 'POST /register muted_users still lists the unmuted user');
    expectError(await client.delete(path(target)), { status: 400, code: 'BAD_REQUEST' });
  },
};

const selfAndUnknown: Rule = {
  id: 'muted-users/self-and-unknown-refused',
  title: 'muting or unmuting oneself, and muting or unmuting a user ID nobody has, answer 400 BAD_REQUEST, and the muted list is unchanged',
  endpoint: 'POST, DELETE /users/me/muted_users/{muted_user_id}',
  section: SECTION,
  levels: { min: MUTED_USERS_LEVEL },
  writes: true,
  needs: ['moderator'],
  async run(ctx) {
    const client = ctx.as('moderator');
    const self = ctx.identity('moderator').userId;
    const before = await mutedIds(client);
    unmuteLater(ctx, [self], 'moderator');
    const unknown = 2_147_483_000;
    for (const id of [self, unknown]) {
      expectError(await client.post(path(id)), { status: 400, code: 'BAD_REQUEST' });
      expectError(await client.delete(path(id)), { status: 400, code: 'BAD_REQUEST' });
    }
    const after = await mutedIds(client);
    check(JSON.stringify([...after].sort()) === JSON.stringify([...before].sort()), `muted users changed from ${JSON.stringify(before)} to ${JSON.stringify(after)}`);
  },
};

const botsAndDeactivated: Rule = {
  id: 'muted-users/bots-and-deactivated-users',
  title: 'a deactivated user may be muted and unmuted; so may a bot from level 188, while before it muting a bot answers 400 BAD_REQUEST',
  endpoint: 'POST, DELETE /users/me/muted_users/{muted_user_id}',
  section: `${SECTION}; changelog 188`,
  levels: { min: MUTED_USERS_LEVEL },
  writes: true,
  needs: ['admin', 'member', 'second-member', 'throwaway-user'],
  async run(ctx) {
    const client = ctx.as('second-member');
    const { identity } = await reactivatedThrowaway(ctx);
    expectPlainSuccess(await ctx.as('admin').delete(`/users/${identity.userId}`));
    const creator = await genericBotCreator(ctx);
    if (!creator) return ctx.skip('no identity of the run may create a generic bot in this realm');
    const bot = await createBot(ctx, creator);
    unmuteLater(ctx, [identity.userId, bot.userId], 'second-member');
    expectPlainSuccess(await client.post(path(identity.userId)));
    expectPlainSuccess(await client.delete(path(identity.userId)));
    if (ctx.featureLevel >= MUTE_BOTS_LEVEL) {
      expectPlainSuccess(await client.post(path(bot.userId)));
      check((await mutedIds(client)).includes(bot.userId), 'POST /register muted_users lacks the muted bot');
      expectPlainSuccess(await client.delete(path(bot.userId)));
    } else {
      expectError(await client.post(path(bot.userId)), { status: 400, code: 'BAD_REQUEST' });
    }
  },
};

const noCredentials = credentialsRequired({
  id: 'muted-users/requires-credentials',
  endpoint: 'POST, DELETE /users/me/muted_users/{muted_user_id}',
  section: SECTION,
  levels: { min: MUTED_USERS_LEVEL },
  requests: [['POST', path(2_147_483_000)], ['DELETE', path(2_147_483_000)]],
});

export const rules: readonly Rule[] = [roundTrip, selfAndUnknown, botsAndDeactivated, noCredentials];
