/**
 * `POST /users/me/subscriptions`, who may subscribe whom (section 4.1 rules 2-4): guests are
 * refused, invalid or deactivated principals (both sides of level 208), private channels without
 * access with and without `authorization_errors_fatal`, and `can_add_subscribers_group` (342, 349).
 * Every refused request is checked to have left the subscriptions as they were.
 */
import fc from 'fast-check';
import type { ApiClient } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { printableText } from '../support/arbitraries.js';
import { type Channel, channelExists, createChannels, highestUserId, INTEGER_PRINCIPALS_LEVEL, ownSubscriptions, sorted, userDirectory } from '../support/channel-fixtures.js';
import { expectSubscribeOutcome, memberSubscriber } from './subscribe-support.js';
import type { Rule, RuleContext } from '../types.js';

/** Level 208: invalid or deactivated principals answer 400 BAD_REQUEST instead of 403 UNAUTHORIZED_PRINCIPAL. */
const PRINCIPAL_ERROR_LEVEL = 208;
/** Level 349: can_add_subscribers_group members need no access of their own to private channels. */
const ADD_WITHOUT_ACCESS_LEVEL = 349;
/** Level 342: the channel setting can_add_subscribers_group exists. */
const ADD_SUBSCRIBERS_GROUP_LEVEL = 342;

const principalError = (modern: boolean) => (modern ? { status: 400, code: 'BAD_REQUEST' } : { status: 403, code: 'UNAUTHORIZED_PRINCIPAL' });

/** The subscriber IDs of a channel the client is subscribed to. */
export async function subscribersOf(client: ApiClient, channel: Channel): Promise<number[]> {
  const { entries, reply } = await ownSubscriptions(client, true);
  const entry = entries.find((candidate) => candidate.stream_id === channel.streamId);
  check(entry !== undefined, `channel ${channel.name} is not among the caller's subscriptions`, reply);
  return sorted(expectShape(entry, v.object({ subscribers: v.array(v.int()) }), `subscriptions[${channel.name}]`, reply).subscribers);
}

const guests: Rule = {
  id: 'subscribe/guests-refused',
  title: 'a guest can never subscribe, not even itself to a public channel: 400 BAD_REQUEST before any parameter is read',
  endpoint: 'POST /users/me/subscriptions',
  section: '4.1',
  writes: true,
  needs: ['admin', 'guest'],
  async run(ctx) {
    const guest = ctx.as('guest');
    const [channel] = (await createChannels(ctx, 'admin', ['guest'])) as [Channel];
    const before = await subscribersOf(ctx.as('admin'), channel);
    // Missing or malformed parameters too: the guest check comes first (reference 2.2 step 2).
    const params = fc.oneof(
      fc.constant({ subscriptions: [{ name: channel.name }] }),
      fc.constant({}),
      fc.constant({ subscriptions: 'not json' }),
      fc.constant({ subscriptions: [{ name: channel.name }], principals: [ctx.identity('guest').userId] }),
      printableText(12).map((text) => ({ subscriptions: [{ name: `${channel.name}-${text}` }] })),
    );
    await ctx.property('subscribe requests from a guest', [params], async (sent) => {
      expectError(await guest.post('/users/me/subscriptions', sent), { status: 400, code: 'BAD_REQUEST' });
    }, { maxRuns: 10 });
    expectEqual(await subscribersOf(ctx.as('admin'), channel), before, 'subscribers after the refused requests');
  },
};

/** Unknown user IDs and emails as principals (both sides of level 208). */
function invalidPrincipals(modern: boolean): Rule {
  return {
    id: modern ? 'subscribe/invalid-principal-bad-request' : 'subscribe/invalid-principal-unauthorized-principal',
    title: modern
      ? 'principals naming no user of the realm (by ID or email) are refused with 400 BAD_REQUEST and nobody is subscribed'
      : 'before feature level 208, principals naming no user are refused with 403 UNAUTHORIZED_PRINCIPAL and nobody is subscribed',
    endpoint: 'POST /users/me/subscriptions',
    section: '4.1 rule 4',
    // Principals by user ID: accepted from level 9.
    levels: modern ? { min: PRINCIPAL_ERROR_LEVEL } : { min: INTEGER_PRINCIPALS_LEVEL, max: PRINCIPAL_ERROR_LEVEL - 1 },
    writes: true,
    needs: ['admin', 'member'],
    async run(ctx) {
      const admin = ctx.as('admin');
      const directory = await userDirectory(admin);
      const highest = highestUserId(directory);
      const [channel] = (await createChannels(ctx, 'admin', ['principals'])) as [Channel];
      const before = await subscribersOf(admin, channel);
      const domain = ctx.identity('admin').email.split('@')[1] ?? 'example.com';
      const member = ctx.identity('member').userId;
      const unknownId = fc.integer({ min: highest + 1, max: 2 ** 31 - 1 });
      const principals = fc.oneof(
        fc.tuple(fc.boolean(), unknownId).map(([withValid, id]) => (withValid ? [member, id] : [id])),
        fc.stringMatching(/^[a-z0-9]{1,10}$/).map((local) => ({ local })),
      );
      await ctx.property('unknown IDs (after a valid one or alone) or unknown emails', [principals], async (value) => {
        const list = Array.isArray(value) ? value : [`${ctx.name(`nobody-${value.local}`)}@${domain}`];
        expectError(await admin.post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals: list }), principalError(modern));
      }, { maxRuns: 10 });
      expectEqual(await subscribersOf(admin, channel), before, 'subscribers after the refused requests');
    },
  };
}

/** A deactivated user as principal (both sides of level 208). */
function deactivatedPrincipal(modern: boolean): Rule {
  return {
    id: modern ? 'subscribe/deactivated-principal-bad-request' : 'subscribe/deactivated-principal-unauthorized-principal',
    title: modern
      ? 'a deactivated user as principal is refused with 400 BAD_REQUEST'
      : 'before feature level 208, a deactivated user as principal is refused with 403 UNAUTHORIZED_PRINCIPAL',
    endpoint: 'POST /users/me/subscriptions',
    section: '4.1 rule 4',
    levels: modern ? { min: PRINCIPAL_ERROR_LEVEL } : { min: INTEGER_PRINCIPALS_LEVEL, max: PRINCIPAL_ERROR_LEVEL - 1 },
    writes: true,
    needs: ['admin', 'throwaway-user'],
    async run(ctx) {
      const admin = ctx.as('admin');
      const { identity } = await ctx.throwawayUser();
      const [channel] = (await createChannels(ctx, 'admin', ['deactivated'])) as [Channel];
      expectSuccess(await admin.delete(`/users/${identity.userId}`));
      // The run deactivates throwaway users at its end: give it back an active one.
      ctx.cleanup(`reactivate ${identity.email}`, async (c) => void (await c.as('admin').post(`/users/${identity.userId}/reactivate`)));
      expectError(await admin.post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals: [identity.userId] }), principalError(modern));
      check(!(await subscribersOf(admin, channel)).includes(identity.userId), 'the deactivated user was subscribed');
    },
  };
}

/** A private channel only the administrator is subscribed to, for the access rules. */
async function privateChannel(ctx: RuleContext, label: string, extra: ReadonlyArray<readonly [string, unknown]> = []): Promise<Channel> {
  const [channel] = await createChannels(ctx, 'admin', [label], { inviteOnly: true, principals: [ctx.identity('admin').userId], extra });
  return channel!;
}

const noAccessFatal: Rule = {
  id: 'subscribe/private-channel-without-access-refused',
  title: 'subscribing to a private channel one cannot access is refused with 400 BAD_REQUEST when authorization errors are fatal (the default)',
  endpoint: 'POST /users/me/subscriptions',
  section: '4.1 rule 3; 7',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const member = ctx.as('member');
    const secret = await privateChannel(ctx, 'secret');
    await ctx.property('authorization_errors_fatal omitted or true', [fc.option(fc.constant(true), { nil: undefined })], async (fatal) => {
      const reply = await member.post('/users/me/subscriptions', { subscriptions: [{ name: secret.name }], authorization_errors_fatal: fatal });
      expectError(reply, { status: 400, code: 'BAD_REQUEST' });
    }, { maxRuns: 3 });
    const { entries, reply } = await ownSubscriptions(member);
    check(!entries.some((entry) => entry.stream_id === secret.streamId), 'the member was subscribed to the private channel', reply);
    expectEqual(await subscribersOf(ctx.as('admin'), secret), [ctx.identity('admin').userId], 'subscribers of the private channel');
  },
};

const notFatal: Rule = {
  id: 'subscribe/authorization-errors-not-fatal-lists-unauthorized',
  title: 'with authorization_errors_fatal false, inaccessible channels are skipped and listed under unauthorized (HTTP 200); accessible ones are subscribed',
  endpoint: 'POST /users/me/subscriptions',
  section: '4.1 rule 3',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const { member, me, directory } = await memberSubscriber(ctx);
    const secret = await privateChannel(ctx, 'secret');
    const [open] = (await createChannels(ctx, 'admin', ['open'])) as [Channel];
    let joined = false;
    await ctx.property('the private channel alone or with a public one, in either order', [fc.constantFrom('alone', 'before', 'after')], async (arrangement) => {
      const names = arrangement === 'alone' ? [secret.name] : arrangement === 'before' ? [secret.name, open.name] : [open.name, secret.name];
      const reply = await member.post('/users/me/subscriptions', { subscriptions: names.map((name) => ({ name })), authorization_errors_fatal: false });
      const withOpen = arrangement !== 'alone';
      const body = expectSubscribeOutcome(ctx, reply, directory, new Map([[me, { subscribed: withOpen && !joined ? [open.name] : [], already: withOpen && joined ? [open.name] : [] }]]));
      expectEqual(body.unauthorized, [secret.name], 'unauthorized', reply);
      joined ||= withOpen;
      const { entries, reply: listed } = await ownSubscriptions(member);
      check(!entries.some((entry) => entry.stream_id === secret.streamId), 'the member was subscribed to the private channel', listed);
    }, { maxRuns: 5 });
  },
};

/** Level 349 and the levels 342-348 before it: can_add_subscribers_group on a private channel. */
function addSubscribersGroup(withoutAccess: boolean): Rule {
  return {
    id: withoutAccess ? 'subscribe/add-subscribers-group-member-adds-to-private-channel' : 'subscribe/add-subscribers-group-needs-access-before-349',
    title: withoutAccess
      ? "a member of a private channel's can_add_subscribers_group subscribes others to it without being subscribed (feature level 349)"
      : "before feature level 349, a member of a private channel's can_add_subscribers_group who cannot access it is refused",
    endpoint: 'POST /users/me/subscriptions',
    section: '4.1 rule 2',
    levels: withoutAccess ? { min: ADD_WITHOUT_ACCESS_LEVEL } : { min: ADD_SUBSCRIBERS_GROUP_LEVEL, max: ADD_WITHOUT_ACCESS_LEVEL - 1 },
    writes: true,
    needs: ['admin', 'member', 'second-member'],
    async run(ctx) {
      const adder = ctx.as('member');
      const me = ctx.identity('member').userId;
      const other = ctx.identity('second-member').userId;
      const directory = await userDirectory(ctx.as('admin'));
      const group = { direct_members: [me], direct_subgroups: [] };
      const channel = await privateChannel(ctx, 'adders', [['can_add_subscribers_group', group]]);
      const reply = await adder.post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals: [other] });
      if (!withoutAccess) {
        expectError(reply, { status: 400, code: 'BAD_REQUEST' });
        expectEqual(await subscribersOf(ctx.as('admin'), channel), [ctx.identity('admin').userId], 'subscribers after the refused request');
        return;
      }
      expectSubscribeOutcome(ctx, reply, directory, new Map([[other, { subscribed: [channel.name], already: [] }]]));
      expectEqual(await subscribersOf(ctx.as('admin'), channel), sorted([ctx.identity('admin').userId, other]), 'subscribers');
      const { entries, reply: listed } = await ownSubscriptions(adder);
      check(!entries.some((entry) => entry.stream_id === channel.streamId), 'the adder was subscribed itself', listed);
      check(await channelExists(ctx.as('second-member'), channel.name), 'the added member cannot see the channel');
    },
  };
}

export const rules: readonly Rule[] = [
  guests,
  invalidPrincipals(true),
  invalidPrincipals(false),
  deactivatedPrincipal(true),
  deactivatedPrincipal(false),
  noAccessFatal,
  notFatal,
  addSubscribersGroup(true),
  addSubscribersGroup(false),
];
