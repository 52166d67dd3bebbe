/**
 * Reading presence: `GET /realm/presence` (legacy entries of everyone) and
 * `GET /users/{user_id_or_email}/presence` (one user's `website` and `aggregated` entries).
 */
import fc from 'fast-check';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { checkFresh, LEGACY_WEBSITE_ONLY, legacyPresences, ownPresence, presenceBody } from './presence-shapes.js';
import type { Rule } from '../types.js';

/** Level 43: the single-user path accepts a user ID besides an email. */
const PRESENCE_BY_ID = 43;

const realmShape = (level: number) => v.object({ presences: legacyPresences(level), server_timestamp: v.number() }, { forbidden: ['presence_last_update_id'] });

const realmPresence: Rule = {
  id: 'presence/realm-presence-legacy-entries',
  title: 'GET /realm/presence lists legacy entries keyed by email and server_timestamp, the active reporter among them',
  endpoint: 'GET /realm/presence',
  section: '2.4; 4.5',
  levels: { min: LEGACY_WEBSITE_ONLY },
  writes: true,
  needs: ['member', 'second-member'],
  async run(ctx) {
    const reporter = ctx.as('member');
    const { shown, email } = await ownPresence(reporter);
    const posted = presenceBody(await reporter.post('/users/me/presence', { status: 'active', slim_presence: true }), 'modern', ctx.featureLevel);
    // Any user may read it (here another member).
    const reply = await ctx.as('second-member').get('/realm/presence');
    const body = expectShape(expectSuccess(reply), realmShape(ctx.featureLevel), 'body', reply);
    if (!shown) return;
    const own = body.presences[email] as { aggregated: { status: string; timestamp: number } } | undefined;
    check(own !== undefined, `the reporter's entry (${email}) is missing`, reply);
    expectEqual(own.aggregated.status, 'active', 'aggregated.status of the reporter', reply);
    checkFresh(own.aggregated.timestamp, posted.server_timestamp, 'aggregated.timestamp of the reporter');
  },
};

const userEntry = v.object({ status: v.literal('active', 'idle', 'offline'), timestamp: v.int({ min: 0 }) }, { exact: true });
const userPresenceShape = v.object({ presence: v.object({ aggregated: userEntry, website: v.optional(userEntry) }) });

const userPresence: Rule = {
  id: 'presence/user-presence-after-report',
  title: 'GET /users/{user_id_or_email}/presence, by ID or email, shows a user who just reported active as active and fresh',
  endpoint: 'GET /users/{user_id_or_email}/presence',
  section: '2.4; 4.5',
  levels: { min: PRESENCE_BY_ID },
  writes: true,
  needs: ['member', 'second-member'],
  async run(ctx) {
    const reporter = ctx.as('member');
    const reader = ctx.as('second-member');
    const { shown, email, id } = await ownPresence(reporter);
    await ctx.property('by ID or by email', [fc.constantFrom(String(id), email)], async (segment) => {
      const posted = presenceBody(await reporter.post('/users/me/presence', { status: 'active', slim_presence: true }), 'modern', ctx.featureLevel);
      const reply = await reader.get(`/users/${encodeURIComponent(segment)}/presence`);
      if (!shown) return;
      const { presence } = expectShape(expectSuccess(reply), userPresenceShape, 'body', reply);
      expectEqual(presence.aggregated.status, 'active', 'presence.aggregated.status', reply);
      checkFresh(presence.aggregated.timestamp, posted.server_timestamp, 'presence.aggregated.timestamp');
    }, { maxRuns: 4 });
  },
};

const unknownUser: Rule = {
  id: 'presence/user-presence-unknown-user',
  title: 'GET /users/{user_id_or_email}/presence for a user ID or email with no user answers 400 BAD_REQUEST',
  endpoint: 'GET /users/{user_id_or_email}/presence',
  section: '4.5; 7',
  levels: { min: PRESENCE_BY_ID },
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const client = ctx.as('user');
    const domain = ctx.identity('user').email.split('@')[1] ?? 'example.com';
    const segment = fc.oneof(
      fc.integer({ min: 2_000_000_000, max: 2 ** 31 - 1 }).map(String),
      fc.stringMatching(/^[a-z0-9]{1,12}$/).map((local) => `${ctx.runTag}-nobody-${local}@${domain}`),
    );
    await ctx.property('absent users', [segment], async (value) => {
      expectError(await client.get(`/users/${encodeURIComponent(value)}/presence`), { status: 400, code: 'BAD_REQUEST' });
    }, { maxRuns: 10 });
  },
};

const botTarget: Rule = {
  id: 'presence/user-presence-bot-refused',
  title: 'GET /users/{user_id}/presence for a bot answers 400 BAD_REQUEST (presence is for humans)',
  endpoint: 'GET /users/{user_id_or_email}/presence',
  section: '4.5; 3.3',
  levels: { min: PRESENCE_BY_ID },
  writes: false,
  needs: ['user'],
  async run(ctx) {
    const client = ctx.as('user');
    const reply = await client.get('/users');
    const { members } = expectShape(expectSuccess(reply), v.object({ members: v.array(v.object({ user_id: v.int(), is_bot: v.bool(), is_active: v.bool() })) }), 'body', reply);
    const bots = members.filter((user) => user.is_bot && user.is_active).map((user) => user.user_id);
    if (bots.length === 0) ctx.skip('the realm has no active bot');
    await ctx.property('bots', [fc.constantFrom(...bots)], async (id) => {
      expectError(await client.get(`/users/${id}/presence`), { status: 400, code: 'BAD_REQUEST' });
    }, { maxRuns: 3 });
  },
};

export const rules: readonly Rule[] = [realmPresence, userPresence, unknownUser, botTarget];
