/**
 * `delete_message` events (api/get-events): exactly one per queue of a user who could read the
 * deleted message, with `message_ids` for clients declaring `bulk_message_deletion` and a single
 * `message_id` for the others, the message type, and the channel and topic of channel messages
 * (direct messages lost `sender_id` and `recipient_id` at level 77); none for users who could
 * not read it; and, from level 274, one for the user who deleted even when not subscribed.
 */
import type { JsonObject } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { expectEqual } from '../../expect/assert.js';
import { v, type Validator } from '../../expect/shape.js';
import { createChannels, type EventQueue } from '../support/channel-fixtures.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import type { RunChannel } from '../support/message-fixtures.js';
import type { Rule, RuleContext } from '../types.js';
import { EDIT_LEVELS, editChannels, eventsAbout, eventsBeforeMarker, markedQueue, oneEvent, send, sendDirect } from './message-edit-support.js';
import { MoveRights } from './message-move-rights.js';

const ENDPOINT = 'DELETE /messages/{message_id}';

interface Watcher {
  readonly label: string;
  readonly who: IdentityName;
  readonly queue: EventQueue;
  readonly bulk: boolean;
}

async function watcher(ctx: RuleContext, who: IdentityName, bulk: boolean): Promise<Watcher> {
  const queue = await markedQueue(ctx, ctx.as(who), ['delete_message'], bulk ? { bulk_message_deletion: true } : {});
  return { label: `the ${who}'s ${bulk ? 'bulk' : 'legacy'} queue`, who, queue, bulk };
}

/** The shape of one deletion event for this queue. */
function deletionShape(ctx: RuleContext, watcherBulk: boolean, id: number, channel: RunChannel | undefined) {
  const idFields: Record<string, Validator<unknown>> = watcherBulk ? { message_ids: v.refine(v.array(v.int()), `[${id}]`, (ids) => ids.length === 1 && ids[0] === id) } : { message_id: v.literal(id) };
  const where: Record<string, Validator<unknown>> = channel === undefined ? { message_type: v.literal('private') } : { message_type: v.literal('stream'), stream_id: v.literal(channel.id), topic: v.string() };
  const forbidden = [watcherBulk ? 'message_id' : 'message_ids', ...(channel === undefined ? ['stream_id', 'topic'] : []), ...(channel === undefined && ctx.featureLevel >= EDIT_LEVELS.DELETE_EVENT_NO_DM_SENDER ? ['sender_id', 'recipient_id'] : [])];
  return v.object({ type: v.literal('delete_message'), ...idFields, ...where }, { forbidden });
}

interface Deletion {
  readonly what: string;
  readonly id: number;
  readonly channel: RunChannel | undefined;
  readonly topic: string;
  readonly deleter: IdentityName;
  readonly sees: readonly Watcher[];
  readonly blind: readonly Watcher[];
}

async function checkDeletion(ctx: RuleContext, deletion: Deletion): Promise<void> {
  expectPlainSuccess(await ctx.as(deletion.deleter).delete(`/messages/${deletion.id}`));
  for (const w of [...deletion.sees, ...deletion.blind]) {
    const events = eventsAbout(await eventsBeforeMarker(ctx.as(w.who), w.queue), 'delete_message', deletion.id);
    const label = `delete_message events in ${w.label} (${deletion.what})`;
    if (deletion.blind.includes(w)) {
      expectEqual(events.length, 0, label);
      continue;
    }
    const event = oneEvent(events, deletionShape(ctx, w.bulk, deletion.id, deletion.channel), label) as unknown as JsonObject;
    if (deletion.channel !== undefined) expectEqual(String(event.topic).toLowerCase(), deletion.topic.toLowerCase(), `${label}: topic`);
  }
}

const perQueue: Rule = {
  id: 'message-delete/delete-message-event-per-queue',
  title: 'deleting a channel message sends each reader exactly one delete_message (message_ids with bulk_message_deletion, message_id without; message_type, stream_id, topic), the deleter included; a private channel message reaches nobody outside it; a deleted direct message reaches the other participant (message_type private, no sender_id or recipient_id from level 77) and nobody else',
  endpoint: ENDPOINT,
  section: 'api/get-events (delete_message); api/delete-message',
  levels: { min: EDIT_LEVELS.DRAFTS },
  writes: true,
  needs: ['admin', 'member', 'second-member', 'guest'],
  async run(ctx) {
    const { open, secret } = await editChannels(ctx);
    const rights = await MoveRights.load(ctx, open);
    if ((await rights.deleteAny('admin')) !== true) return ctx.skip('the administrator may not delete messages of others here');
    const bulk = await watcher(ctx, 'second-member', true);
    const legacy = await watcher(ctx, 'second-member', false);
    const admin = await watcher(ctx, 'admin', true);
    const guest = await watcher(ctx, 'guest', true);
    const topic = ctx.name('Topic');
    await checkDeletion(ctx, { what: 'public channel message', id: await send(ctx.as('member'), open, topic, ctx.name('content')), channel: open, topic, deleter: 'admin', sees: [bulk, legacy, admin, guest], blind: [] });
    await checkDeletion(ctx, { what: 'private channel message', id: await send(ctx.as('admin'), secret, topic, ctx.name('content')), channel: secret, topic, deleter: 'admin', sees: [admin], blind: [bulk, legacy, guest] });
    if ((await rights.deleteOwnJustSent('member')) !== true) {
      ctx.note('the member may not delete its own messages: the direct message part is left out');
      return;
    }
    const direct = await sendDirect(ctx.as('member'), [ctx.identity('second-member').userId], ctx.name('direct'));
    await checkDeletion(ctx, { what: 'direct message', id: direct, channel: undefined, topic: '', deleter: 'member', sees: [bulk, legacy], blind: [admin, guest] });
  },
};

const deleterOutside: Rule = {
  id: 'message-delete/event-reaches-unsubscribed-deleter',
  title: 'an administrator who deletes a message of a public channel they are not subscribed to receives the delete_message event from level 274, and none before it',
  endpoint: ENDPOINT,
  section: 'api/get-events (delete_message, level 274)',
  levels: { min: EDIT_LEVELS.DRAFTS },
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  async run(ctx) {
    // A public channel the administrator creates for the member and the second member only.
    const [created] = await createChannels(ctx, 'admin', ['edit-unwatched'], { principals: [ctx.identity('member').userId, ctx.identity('second-member').userId] });
    const channel: RunChannel = { id: created!.streamId, name: created!.name };
    const rights = await MoveRights.load(ctx, channel);
    if ((await rights.deleteAny('admin')) !== true) return ctx.skip('the administrator may not delete messages of others here');
    const admin = await watcher(ctx, 'admin', true);
    const topic = ctx.name('topic');
    const id = await send(ctx.as('member'), channel, topic, ctx.name('content'));
    const reaches = ctx.featureLevel >= EDIT_LEVELS.DELETE_EVENT_TO_DELETER;
    await checkDeletion(ctx, { what: `deleter not subscribed, level ${ctx.featureLevel}`, id, channel, topic, deleter: 'admin', sees: reaches ? [admin] : [], blind: reaches ? [] : [admin] });
  },
};

export const rules: readonly Rule[] = [perQueue, deleterOutside];
