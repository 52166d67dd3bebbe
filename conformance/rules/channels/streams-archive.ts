/**
 * Who administers a channel (api/update-stream, api/archive-stream): organization administrators
 * always; from level 325 the members of the channel's `can_administer_channel_group` with access
 * to it; nobody else (refused with 400: `BAD_REQUEST`, or `UNAUTHORIZED_PRINCIPAL` from the older
 * servers' administrator check). Archiving (`DELETE /streams/{id}`) with its read-back and
 * `stream` `delete` event, and unarchiving (`is_archived=false`, level 388).
 */
import type { JsonObject } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { check, expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { type Channel, openQueue } from '../support/channel-fixtures.js';
import { pollUntil } from '../support/event-waits.js';
import { type GroupSettingValue, SettingHolders } from '../support/realm-permissions.js';
import type { Rule, RuleContext } from '../types.js';
import { deletedStreamIds, expectRefused, isOrgAdmin, listStreams, ownChannel, patchChannel, readChannel, STREAM_LEVELS } from './streams-support.js';

/** The IDs in a stream delete event's `streams` objects. */
const streamsListed = (event: JsonObject): number[] => (Array.isArray(event.streams) ? (event.streams as JsonObject[]).map((entry) => Number(entry.stream_id)) : []);

const REFUSAL_CODES = ['BAD_REQUEST', 'UNAUTHORIZED_PRINCIPAL'];
const ROLES: readonly IdentityName[] = ['owner', 'admin', 'moderator', 'member', 'guest'];

/** Whether each role may administer the public channel (subscribed: the administrator and the member). */
async function administrators(ctx: RuleContext, channel: Channel): Promise<Map<IdentityName, boolean>> {
  const result = new Map<IdentityName, boolean>();
  let setting: GroupSettingValue | undefined;
  if (ctx.featureLevel >= STREAM_LEVELS.ADMINISTER) setting = (await readChannel(ctx, ctx.as('admin'), channel)).can_administer_channel_group as GroupSettingValue;
  const holders = new SettingHolders(ctx.as('admin'));
  for (const who of ROLES) {
    // A channel administrator needs access to the channel: a guest has none to a public channel it is not subscribed to.
    const viaGroup = setting !== undefined && who !== 'guest' && (await holders.holds(setting, ctx.identity(who).userId));
    result.set(who, isOrgAdmin(ctx, who) || viaGroup);
  }
  return result;
}

/** Gives the member the channel's can_administer_channel_group (as the administrator, old value checked). */
async function makeMemberChannelAdministrator(ctx: RuleContext, channel: Channel): Promise<void> {
  const admin = ctx.as('admin');
  const old = (await readChannel(ctx, admin, channel)).can_administer_channel_group;
  const value = { direct_members: [ctx.identity('member').userId], direct_subgroups: [] };
  expectSuccess(await patchChannel(admin, channel, { can_administer_channel_group: JSON.stringify({ new: value, old }) }));
}

const NEEDS = ['owner', 'admin', 'moderator', 'member', 'guest'] as const;

const administerByRole: Rule = {
  id: 'streams-update/administer-by-role',
  title: "each role changes a channel exactly when it administers it (organization administrators; from level 325 members of can_administer_channel_group with access); the others are refused with 400 and change nothing; a member made channel administrator then may",
  endpoint: 'PATCH /streams/{stream_id}',
  section: 'api/update-stream; changelog 325',
  writes: true,
  needs: [...NEEDS],
  async run(ctx) {
    const channel = await ownChannel(ctx, 'administer', { members: ['member'] });
    const may = await administrators(ctx, channel);
    let stored = '';
    // Allowed roles first: the last allowed description must survive every refusal after it.
    const order = [...ROLES].sort((a, b) => Number(may.get(b)) - Number(may.get(a)));
    for (const who of order) {
      const text = `described by the ${who}`;
      const reply = await patchChannel(ctx.as(who), channel, { description: text });
      if (may.get(who)) {
        expectSuccess(reply);
        stored = text;
      } else expectRefused(reply, REFUSAL_CODES, `a change by the ${who}`);
    }
    expectEqual((await readChannel(ctx, ctx.as('admin'), channel)).description, stored, 'description after the refused changes');
    if (ctx.featureLevel < STREAM_LEVELS.ADMINISTER || may.get('member')) return;
    await makeMemberChannelAdministrator(ctx, channel);
    expectSuccess(await patchChannel(ctx.as('member'), channel, { description: 'described by a channel administrator' }));
    expectEqual((await readChannel(ctx, ctx.as('admin'), channel)).description, 'described by a channel administrator', 'description set by the channel administrator');
  },
};

const archiveByRole: Rule = {
  id: 'streams-archive/by-role-read-back-and-events',
  title: "archiving is refused with 400 to who does not administer the channel; an administrator's archiving takes it out of GET /streams, sends the subscribers a stream delete event, and a second archiving is refused; from level 388 is_archived=false brings it back (once); from 325 a channel administrator archives",
  endpoint: 'DELETE /streams/{stream_id}',
  section: 'api/archive-stream; api/update-stream; changelog 325, 388',
  writes: true,
  needs: [...NEEDS],
  async run(ctx) {
    const channel = await ownChannel(ctx, 'archive', { members: ['member'] });
    const may = await administrators(ctx, channel);
    for (const who of ROLES.filter((role) => !may.get(role))) {
      expectRefused(await ctx.as(who).delete(`/streams/${channel.streamId}`), REFUSAL_CODES, `archiving by the ${who}`);
    }
    const member = ctx.as('member');
    const listed = async () => (await listStreams(member, {})).streams.some((entry) => entry.stream_id === channel.streamId);
    check(await listed(), 'the channel left GET /streams after refused archiving');
    const queue = await openQueue(member, ['stream']);
    ctx.cleanup('close the member queue', async () => queue.close());
    expectSuccess(await ctx.as('admin').delete(`/streams/${channel.streamId}`));
    check(!(await listed()), 'the archived channel is still listed by GET /streams');
    // Found by either list (a late event of an earlier rule may come first), then the level's list is required.
    const listsChannel = (event: JsonObject) => event.type === 'stream' && event.op === 'delete' && (deletedStreamIds(event).includes(channel.streamId) || streamsListed(event).includes(channel.streamId));
    const deleted = (await pollUntil(queue, (events) => events.some(listsChannel))).find(listsChannel);
    check(deleted !== undefined, 'the subscribed member got no stream delete event for the archived channel');
    if (ctx.featureLevel >= STREAM_LEVELS.DELETE_EVENT_IDS) check(Array.isArray(deleted.stream_ids) && deleted.stream_ids.includes(channel.streamId), () => `the stream delete event lacks stream_ids with the channel: ${JSON.stringify(deleted)}`);
    expectError(await ctx.as('admin').delete(`/streams/${channel.streamId}`), { status: 400, code: 'BAD_REQUEST' });
    if (ctx.featureLevel >= STREAM_LEVELS.UNARCHIVE) {
      expectSuccess(await patchChannel(ctx.as('admin'), channel, { is_archived: false }));
      check(await listed(), 'the unarchived channel is not listed by GET /streams');
      expectEqual((await readChannel(ctx, member, channel)).is_archived, false, 'is_archived after unarchiving');
      expectError(await patchChannel(ctx.as('admin'), channel, { is_archived: false }), { status: 400, code: 'BAD_REQUEST' });
    }
    if (ctx.featureLevel < STREAM_LEVELS.ADMINISTER) return;
    const second = await ownChannel(ctx, 'archive-by-channel-admin', { members: ['member'] });
    await makeMemberChannelAdministrator(ctx, second);
    expectSuccess(await member.delete(`/streams/${second.streamId}`));
    check(!(await listStreams(member, {})).streams.some((entry) => entry.stream_id === second.streamId), 'the channel archived by its channel administrator is still listed');
  },
};

export const rules: readonly Rule[] = [administerByRole, archiveByRole];
