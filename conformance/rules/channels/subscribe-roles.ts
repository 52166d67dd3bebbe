/**
 * Who may do what with channels, role by role (section 4.1; reference 2.2-2.3 and 4): creating
 * public, private and web-public channels, subscribing and unsubscribing other users, and a user
 * acting on itself. What each identity may do is derived from the realm's settings as
 * `POST /register` publishes them (and the channel's own settings), so the rules hold on a realm
 * whose administrators changed the defaults; a guest is always refused by subscribe.
 */
import type { IdentityName } from '../../credentials/types.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { attemptChannel, type Channel, createChannels, ownSubscriptions, userDirectory } from '../support/channel-fixtures.js';
import { expectAllowed, type GroupSettingValue, holdersByRole, mayAct, realmState, ROLES_AND_GUEST, roleTableRule, SettingHolders } from '../support/realm-permissions.js';
import { subscribersOf } from './subscribe-permissions.js';
import { expectSubscribeOutcome } from './subscribe-support.js';
import type { Rule, RuleContext } from '../types.js';

/** Level 280: all three channel-creation settings are group settings in register. */
const CREATION_GROUPS_LEVEL = 280;
/** Level 341: the realm's can_add_subscribers_group. */
const ADD_SUBSCRIBERS_LEVEL = 341;
/** Level 349: who may remove subscribers (channel administrators, basic access). */
const REMOVE_SUBSCRIBERS_LEVEL = 349;

const isAdministrator = (ctx: RuleContext, who: IdentityName): boolean => ['owner', 'admin'].includes(ctx.identity(who).role);

const creationByRole = roleTableRule({
  id: 'subscribe/channel-creation-by-role',
  title: 'each role creates public, private and web-public channels exactly as the realm\'s can_create_*_channel_group settings (and web-public channels being enabled) allow; a guest never; a refused creation creates nothing',
  endpoint: 'POST /users/me/subscriptions',
  section: '4.1',
  levels: { min: CREATION_GROUPS_LEVEL },
}, async (ctx, admin) => {
  const state = await realmState(admin);
  const mayPublic = await holdersByRole(ctx, state, 'realm_can_create_public_channel_group');
  const mayPrivate = await holdersByRole(ctx, state, 'realm_can_create_private_channel_group');
  const mayWebPublic = await holdersByRole(ctx, state, 'realm_can_create_web_public_channel_group');
  const webPublicEnabled = state.realm_enable_spectator_access === true && state.server_web_public_streams_enabled !== false;
  const kinds = [
    { kind: 'public', params: [['invite_only', false]] as const, may: (who: IdentityName) => mayAct(mayPublic, who) },
    { kind: 'private', params: [['invite_only', true]] as const, may: (who: IdentityName) => mayAct(mayPrivate, who) },
    // A web-public channel is also public: both permissions, and the feature on.
    { kind: 'web-public', params: [['is_web_public', true]] as const, may: (who: IdentityName) => mayAct(mayPublic, who) && webPublicEnabled && mayAct(mayWebPublic, who) },
  ];
  for (const who of ROLES_AND_GUEST) {
    const attempts: Array<{ kind: string; name: string; allowed: boolean }> = [];
    for (const { kind, params, may } of kinds) {
      const name = ctx.name(`by-${who}`);
      const allowed = may(who);
      expectAllowed(await attemptChannel(ctx, who, name, params), allowed, `a ${kind} channel created by the ${who}`);
      attempts.push({ kind, name, allowed });
    }
    const { entries, reply: listed } = await ownSubscriptions(ctx.as(who));
    for (const { kind, name, allowed } of attempts) {
      const entry = entries.find((candidate) => candidate.name === name);
      check(allowed === (entry !== undefined), `the ${kind} channel of the ${who} is ${entry ? '' : 'not '}among its subscriptions`, listed);
      if (entry) expectEqual([entry.invite_only, entry.is_web_public], [kind === 'private', kind === 'web-public'], `invite_only and is_web_public of the ${who}'s ${kind} channel`, listed);
    }
  }
});

const subscribingOthers = roleTableRule({
  id: 'subscribe/subscribing-others-by-role',
  title: 'subscribing another user to a public channel is allowed to administrators and holders of the realm\'s can_add_subscribers_group, refused to others with 400 BAD_REQUEST; any member may name only itself; a guest never',
  endpoint: 'POST /users/me/subscriptions',
  section: '4.1 rules 1-2',
  levels: { min: ADD_SUBSCRIBERS_LEVEL },
  needs: ['second-member'],
}, async (ctx, admin) => {
  const directory = await userDirectory(admin);
  const state = await realmState(admin);
  const mayAdd = await holdersByRole(ctx, state, 'realm_can_add_subscribers_group', ['owner', 'moderator', 'member']);
  const [channel] = (await createChannels(ctx, 'admin', ['others'])) as [Channel];
  const target = ctx.identity('second-member').userId;
  for (const who of ['owner', 'moderator', 'member'] as const) {
    const allowed = isAdministrator(ctx, who) || mayAdd.get(who) === true;
    const reply = await ctx.as(who).post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals: [target] });
    expectAllowed(reply, allowed, `the ${who} subscribing another member`);
    if (allowed) {
      expectSubscribeOutcome(ctx, reply, directory, new Map([[target, { subscribed: [channel.name], already: [] }]]));
      expectSuccess(await admin.delete('/users/me/subscriptions', { subscriptions: [channel.name], principals: [target] }));
    } else {
      check(!(await subscribersOf(admin, channel)).includes(target), `the ${who}'s refused request subscribed the member`);
    }
  }
  const self = ctx.identity('member').userId;
  const own = await ctx.as('member').post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals: [self] });
  expectSubscribeOutcome(ctx, own, directory, new Map([[self, { subscribed: [channel.name], already: [] }]]));
  const guest = ctx.identity('guest').userId;
  expectError(await ctx.as('guest').post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals: [guest] }), { status: 400, code: 'BAD_REQUEST' });
});

const unsubscribeShape = v.object({ removed: v.array(v.string()), not_removed: v.array(v.string()) });

const unsubscribingOthers = roleTableRule({
  id: 'unsubscribe/others-by-role',
  title: 'unsubscribing another user is allowed to administrators and holders of the channel\'s can_administer_channel_group or can_remove_subscribers_group, refused to others with 400 BAD_REQUEST; everyone may unsubscribe itself, by principals or without',
  endpoint: 'DELETE /users/me/subscriptions',
  section: '4.1; 7',
  levels: { min: REMOVE_SUBSCRIBERS_LEVEL },
  needs: ['second-member'],
}, async (ctx, admin) => {
  const [target, member, guest] = (['second-member', 'member', 'guest'] as const).map((who) => ctx.identity(who).userId) as [number, number, number];
  const [channel] = (await createChannels(ctx, 'admin', ['remove'], { principals: [ctx.identity('admin').userId, target, member, guest] })) as [Channel];
  const { entries, reply: listed } = await ownSubscriptions(admin);
  const settings = entries.find((entry) => entry.stream_id === channel.streamId);
  check(settings !== undefined, `${channel.name} is not among the administrator's subscriptions`, listed);
  const holders = new SettingHolders(admin);
  for (const who of ['owner', 'moderator', 'member', 'guest'] as const) {
    const id = ctx.identity(who).userId;
    let allowed = isAdministrator(ctx, who);
    // Guests never remove others, whatever the channel's settings (the real server's early refusal).
    if (who !== 'guest') for (const setting of ['can_administer_channel_group', 'can_remove_subscribers_group']) allowed ||= await holders.holds(settings[setting] as GroupSettingValue, id);
    const reply = await ctx.as(who).delete('/users/me/subscriptions', { subscriptions: [channel.name], principals: [target] });
    expectAllowed(reply, allowed, `the ${who} unsubscribing another member`);
    if (allowed) {
      expectEqual(expectShape(reply.body, unsubscribeShape, 'body', reply).removed, [channel.name], 'removed', reply);
      expectSuccess(await admin.post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals: [target] }));
    }
    check((await subscribersOf(admin, channel)).includes(target), `the member is no longer subscribed after the ${who}'s request`);
  }
  const bySelf = await ctx.as('member').delete('/users/me/subscriptions', { subscriptions: [channel.name], principals: [member] });
  expectEqual(expectShape(expectSuccess(bySelf), unsubscribeShape, 'body', bySelf).removed, [channel.name], 'removed (the member naming itself)', bySelf);
  const byGuest = await ctx.as('guest').delete('/users/me/subscriptions', { subscriptions: [channel.name] });
  expectEqual(expectShape(expectSuccess(byGuest), unsubscribeShape, 'body', byGuest).removed, [channel.name], 'removed (the guest leaving)', byGuest);
});

export const rules: readonly Rule[] = [creationByRole, subscribingOthers, unsubscribingOthers];
