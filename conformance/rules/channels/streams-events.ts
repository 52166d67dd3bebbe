/**
 * The `stream` events of `PATCH /streams/{id}` (api/get-events, stream update), to the right
 * audience: a private channel's changes reach its subscribers (description with its rendering,
 * name, group settings) and not a moderator who cannot see it (checked with a sentinel: a change
 * of a public channel the moderator sees, sent afterwards); once the channel is made public the
 * moderator gets `stream` `create` and the subscribers the `invite_only` update with the
 * history and web-public flags.
 */
import type { JsonObject } from '../../client/api-client.js';
import { check, expectEqual, expectSuccess } from '../../expect/assert.js';
import { type EventQueue, openQueue } from '../support/channel-fixtures.js';
import { eventsBeforeSentinel, pollUntil } from '../support/event-waits.js';
import type { Rule, RuleContext } from '../types.js';
import { systemGroups } from '../groups/user-groups-support.js';
import { isStreamUpdate, ownChannel, patchChannel } from './streams-support.js';
import { SUBSCRIPTION_LEVELS } from './subscription-shape.js';

/** Polls until an event `matches`, and returns it (fails after the deadline). */
async function awaitEvent(queue: EventQueue, matches: (event: JsonObject) => boolean, what: string): Promise<JsonObject> {
  const found = (await pollUntil(queue, (events) => events.some(matches))).find(matches);
  check(found !== undefined, `no ${what} arrived`);
  return found;
}

async function queueOf(ctx: RuleContext, who: 'member' | 'moderator'): Promise<EventQueue> {
  const queue = await openQueue(ctx.as(who), ['stream']);
  ctx.cleanup(`close the ${who}'s queue`, async () => queue.close());
  return queue;
}

const updateEvents: Rule = {
  id: 'streams-update/events-to-metadata-audience',
  title: "changes of a private channel send stream update events (description with rendered_description, name, group settings) to its subscribers and none to a moderator who cannot see it; made public, it sends the moderator stream create and the subscribers the invite_only update with history_public_to_subscribers and is_web_public",
  endpoint: 'PATCH /streams/{stream_id}',
  section: 'api/get-events; api/update-stream',
  writes: true,
  needs: ['admin', 'member', 'moderator'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const secret = await ownChannel(ctx, 'events-private', { inviteOnly: true, members: ['member'] });
    const sentinel = await ownChannel(ctx, 'events-public');
    const member = await queueOf(ctx, 'member');
    const moderator = await queueOf(ctx, 'moderator');
    expectSuccess(await patchChannel(admin, secret, { description: 'now **bold**' }));
    const described = await awaitEvent(member, isStreamUpdate(secret, 'description'), 'description update for the subscriber');
    expectEqual(described.value, 'now **bold**', 'value of the description update');
    check(typeof described.rendered_description === 'string' && described.rendered_description.includes('<strong>bold</strong>'), 'the description update carries rendered_description');
    const renamed = ctx.name('events-renamed');
    expectSuccess(await patchChannel(admin, secret, { new_name: renamed }));
    expectEqual((await awaitEvent(member, isStreamUpdate(secret, 'name'), 'name update for the subscriber')).value, renamed, 'value of the name update');
    if (ctx.featureLevel >= SUBSCRIPTION_LEVELS.CAN_SEND_MESSAGE) {
      const administrators = (await systemGroups(admin)).get('role:administrators')!;
      expectSuccess(await patchChannel(admin, secret, { can_send_message_group: JSON.stringify({ new: administrators }) }));
      expectEqual((await awaitEvent(member, isStreamUpdate(secret, 'can_send_message_group'), 'can_send_message_group update')).value, administrators, 'value of the group-setting update');
    }
    const before = await eventsBeforeSentinel(
      moderator,
      async () => void expectSuccess(await patchChannel(admin, sentinel, { description: 'sentinel' })),
      isStreamUpdate({ name: sentinel.name, streamId: sentinel.streamId }, 'description'),
      'a public channel description update',
    );
    check(!before.some((event) => event.stream_id === secret.streamId), () => `the moderator, who cannot see the private channel, got its events: ${JSON.stringify(before)}`);
    expectSuccess(await patchChannel(admin, secret, { is_private: false }));
    const made = await awaitEvent(member, isStreamUpdate(secret, 'invite_only'), 'invite_only update for the subscriber');
    expectEqual([made.value, made.history_public_to_subscribers, made.is_web_public], [false, true, false], 'value, history_public_to_subscribers and is_web_public of the invite_only update');
    const isCreate = (event: JsonObject) => event.type === 'stream' && event.op === 'create' && Array.isArray(event.streams) && (event.streams as JsonObject[]).some((entry) => entry.stream_id === secret.streamId);
    await awaitEvent(moderator, isCreate, 'stream create for the moderator once the channel is public');
  },
};

export const rules: readonly Rule[] = [updateEvents];
