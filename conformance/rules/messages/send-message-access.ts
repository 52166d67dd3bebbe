/**
 * Who may send what (api/send-message): posting in a channel per role, from the channel's
 * `can_send_message_group` (level 333; `stream_post_policy` before) and the group memberships the
 * target publishes; channel access for non-subscribers (private channels: subscribers only, even
 * owners; public ones: everyone but guests); direct messages as the realm's settings allow; and
 * the errors for channels and recipients that do not exist.
 */
import type { IdentityName } from '../../credentials/types.js';
import { expectEqual, expectError } from '../../expect/assert.js';
import { createChannels } from '../support/channel-fixtures.js';
import { FAR_ID_FLOOR, runChannel } from '../support/message-fixtures.js';
import { expectAllowed, realmGroupSetting, realmState, ROLES_AND_GUEST, SettingHolders } from '../support/realm-permissions.js';
import { systemGroups } from '../groups/user-groups-support.js';
import type { Rule, RuleContext } from '../types.js';
import { readBack, SEND, send } from './send-support.js';

/** Sends a channel message as `who` and checks the outcome against `allowed` (a refusal is 400 BAD_REQUEST). */
async function tryPosting(ctx: RuleContext, who: IdentityName, channelId: number, allowed: boolean, what: string): Promise<void> {
  const reply = await ctx.as(who).post('/messages', { type: 'stream', to: channelId, topic: ctx.name('topic'), content: ctx.name(`by-${who}`) });
  expectAllowed(reply, allowed, what);
}

const ROLE_GROUPS = ['role:administrators', 'role:moderators', 'role:members'] as const;

const postingByRole: Rule = {
  id: 'messages/channel-posting-by-role',
  title:
    "each role (and the guest, subscribed) may post in a channel exactly when it belongs to the channel's can_send_message_group (level 333: administrators, moderators, members; before, stream_post_policy 'administrators only'); the others are refused with 400 BAD_REQUEST",
  endpoint: 'POST /messages',
  section: 'api/send-message; api/subscribe',
  writes: true,
  needs: ['owner', 'admin', 'moderator', 'member', 'guest'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const principals = ROLES_AND_GUEST.map((who) => ctx.identity(who).userId);
    if (ctx.featureLevel < SEND.CAN_SEND_MESSAGE_GROUP) {
      // stream_post_policy 2: only organization administrators (owners are administrators).
      const [channel] = await createChannels(ctx, 'admin', ['admins-post'], { principals, extra: [['stream_post_policy', 2]] });
      for (const who of ROLES_AND_GUEST) await tryPosting(ctx, who, channel!.streamId, ['owner', 'admin'].includes(ctx.identity(who).role), `the ${who} posting where only administrators may`);
      return;
    }
    const groups = await systemGroups(admin);
    const holders = new SettingHolders(admin);
    for (const group of ROLE_GROUPS) {
      const groupId = groups.get(group) ?? ctx.skip(`GET /user_groups lists no system group ${group}`);
      const [channel] = await createChannels(ctx, 'admin', [group.replace('role:', 'post-')], { principals, extra: [['can_send_message_group', groupId]] });
      for (const who of ROLES_AND_GUEST) {
        const allowed = await holders.holds(groupId, ctx.identity(who).userId);
        await tryPosting(ctx, who, channel!.streamId, allowed, `the ${who} posting where ${group} may`);
      }
    }
  },
};

const nonSubscribers: Rule = {
  id: 'messages/channel-access-for-non-subscribers',
  title:
    'a private channel takes messages from its subscribers only (an owner who is not subscribed is refused); a public one also from non-subscribed members and moderators, but not from a non-subscribed guest (400 BAD_REQUEST)',
  endpoint: 'POST /messages',
  section: 'api/send-message',
  writes: true,
  needs: ['owner', 'admin', 'moderator', 'member', 'second-member', 'guest'],
  async run(ctx) {
    const member = ctx.identity('member').userId;
    const [privateChannel] = await createChannels(ctx, 'admin', ['private-posting'], { inviteOnly: true, principals: [ctx.identity('admin').userId, member] });
    const [publicChannel] = await createChannels(ctx, 'admin', ['public-posting']);
    const cases: ReadonlyArray<readonly [IdentityName, number, boolean, string]> = [
      ['member', privateChannel!.streamId, true, 'a subscriber of a private channel'],
      ['second-member', privateChannel!.streamId, false, 'a member not subscribed to a private channel'],
      ['owner', privateChannel!.streamId, false, 'an owner not subscribed to a private channel'],
      ['member', publicChannel!.streamId, true, 'a member not subscribed to a public channel'],
      ['moderator', publicChannel!.streamId, true, 'a moderator not subscribed to a public channel'],
      ['guest', publicChannel!.streamId, false, 'a guest not subscribed to a public channel'],
    ];
    for (const [who, channel, allowed, what] of cases) await tryPosting(ctx, who, channel, allowed, what);
  },
};

const unknownTargets: Rule = {
  id: 'messages/unknown-channel-or-recipient-refused',
  title:
    "a channel ID or name that exists nowhere is refused with 400 STREAM_DOES_NOT_EXIST naming it (stream_id or stream); unknown user IDs and emails, a list mixing IDs and emails and an empty list of recipients are refused with 400 BAD_REQUEST",
  endpoint: 'POST /messages',
  section: 'api/send-message',
  writes: false,
  needs: ['member', 'second-member'],
  async run(ctx) {
    const member = ctx.as('member');
    const base = { topic: ctx.name('topic'), content: ctx.name('nowhere') };
    const farId = FAR_ID_FLOOR + 7;
    const byId = expectError(await member.post('/messages', { ...base, type: 'stream', to: farId }), { status: 400, code: 'STREAM_DOES_NOT_EXIST' });
    expectEqual(byId.stream_id, farId, 'stream_id of the error for an unknown channel ID');
    const name = ctx.name('no-such-channel');
    const byName = expectError(await member.post('/messages', { ...base, type: 'stream', to: name }), { status: 400, code: 'STREAM_DOES_NOT_EXIST' });
    expectEqual(byName.stream, name, 'stream of the error for an unknown channel name');
    const other = ctx.identity('second-member').userId;
    for (const to of [[farId], [`${ctx.runTag}-nobody@example.invalid`], [other, 'someone@example.invalid'], []]) {
      expectError(await member.post('/messages', { ...base, type: 'private', to }), { status: 400, code: 'BAD_REQUEST' });
    }
  },
};

const DM_GROUPS_LEVEL = 270;

/**
 * Whether the realm lets each role send a direct message to the second member, as far as
 * register tells: true when the direct-message groups (level 270) hold both, or the legacy
 * policy allows everyone; undefined when it depends on more.
 */
async function directAllowed(ctx: RuleContext): Promise<Map<IdentityName, boolean | undefined>> {
  const state = await realmState(ctx.as('admin'));
  const result = new Map<IdentityName, boolean | undefined>();
  const holders = new SettingHolders(ctx.as('admin'));
  const recipient = ctx.identity('second-member').userId;
  for (const who of ROLES_AND_GUEST) {
    if (ctx.featureLevel < DM_GROUPS_LEVEL) {
      result.set(who, state.realm_private_message_policy === 2 ? undefined : true);
      continue;
    }
    let allowed: boolean | undefined = true;
    for (const setting of ['realm_direct_message_permission_group', 'realm_direct_message_initiator_group']) {
      const value = realmGroupSetting(state, setting);
      for (const id of [ctx.identity(who).userId, recipient]) if (!(await holders.holds(value, id))) allowed = undefined;
    }
    result.set(who, allowed);
  }
  return result;
}

const directByRole: Rule = {
  id: 'messages/direct-message-by-role',
  title: "each role, the guest included, may send a direct message to a member whenever the realm's direct-message settings (level 270 groups, realm_private_message_policy before) hold both; the recipient then holds it",
  endpoint: 'POST /messages',
  section: 'api/send-message; api/register-queue',
  writes: true,
  needs: ['owner', 'admin', 'moderator', 'member', 'second-member', 'guest'],
  async run(ctx) {
    // A channel every identity shares, so a guest with limited user access can see the recipient.
    await runChannel(ctx);
    const recipient = ctx.identity('second-member').userId;
    const allowed = await directAllowed(ctx);
    for (const who of ROLES_AND_GUEST) {
      if (allowed.get(who) !== true) {
        ctx.note(`the realm's direct-message settings do not clearly allow the ${who}: not checked`);
        continue;
      }
      const id = await send(ctx, ctx.as(who), { type: 'private', to: [recipient], content: ctx.name(`dm-by-${who}`) });
      expectEqual((await readBack(ctx.as('second-member'), id)).sender_id, ctx.identity(who).userId, `the sender of the direct message the ${who} sent`);
    }
  },
};

export const rules: readonly Rule[] = [postingByRole, nonSubscribers, unknownTargets, directByRole];
