/**
 * Events of moves (api/get-events): a topic move sends each reader exactly one `update_message`
 * naming every moved message, the old and new topic and the propagate mode, without content
 * fields; the empty topic reaches clients without `empty_topic_name` as the realm's display name
 * (level 334); a move into a private channel sends `update_message` (with `new_stream_id`) to
 * those who keep access and `delete_message` instead to those who lose it.
 */
import type { JsonObject } from '../../client/api-client.js';
import { check, expectEqual } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { fetchState } from '../support/message-fixtures.js';
import type { Rule, RuleContext } from '../types.js';
import { expectEditSuccess } from './message-edit.js';
import { CONTENT_FIELDS, updateEventBase } from './message-edit-events.js';
import { ascending, EDIT_LEVELS, editChannels, eventsAbout, eventsBeforeMarker, markedQueue, oneEvent, QUIET, send, threeMessages } from './message-edit-support.js';

const ENDPOINT = 'PATCH /messages/{message_id}';

/** `message_ids` equal to `ids`: sorted from level 393, in any order before. */
function idsField(ctx: RuleContext, ids: readonly number[]) {
  const sorted = ascending(ids);
  const exact = ctx.featureLevel >= EDIT_LEVELS.SORTED_IDS;
  return v.refine(v.array(v.int()), `${exact ? '' : 'in any order, '}${JSON.stringify(sorted)}`, (got) => JSON.stringify(exact ? got : ascending(got)) === JSON.stringify(sorted));
}

const topicMoveEvent: Rule = {
  id: 'message-move/topic-move-event-per-reader',
  title: "a change_later topic move sends each reader's queue exactly one update_message with the target as message_id, every moved message in message_ids, stream_id, orig_subject, subject, topic_links, propagate_mode and the mover as user_id, and neither content fields nor new_stream_id",
  endpoint: ENDPOINT,
  section: 'api/get-events (update_message)',
  levels: { min: EDIT_LEVELS.DRAFTS },
  writes: true,
  needs: ['admin', 'member', 'second-member', 'guest'],
  async run(ctx) {
    const { open } = await editChannels(ctx);
    const queues = [
      { who: 'member' as const, queue: await markedQueue(ctx, ctx.as('member'), ['update_message']) },
      { who: 'guest' as const, queue: await markedQueue(ctx, ctx.as('guest'), ['update_message']) },
    ];
    const { topic, ids } = await threeMessages(ctx, open);
    const target = ctx.name('topic');
    expectEditSuccess(ctx, await ctx.as('admin').patch(`/messages/${ids[1]}`, { ...QUIET, topic: target, propagate_mode: 'change_later' }));
    const shape = v.object(
      {
        ...updateEventBase(ctx, ctx.identity('admin').userId),
        message_id: v.literal(ids[1]!),
        message_ids: idsField(ctx, ids.slice(1)),
        stream_id: v.literal(open.id),
        orig_subject: v.literal(topic),
        subject: v.literal(target),
        topic_links: v.array(v.unknown()),
        propagate_mode: v.literal('change_later'),
      },
      { forbidden: [...CONTENT_FIELDS, 'new_stream_id'] },
    );
    for (const { who, queue } of queues) {
      const events = eventsAbout(await eventsBeforeMarker(ctx.as(who), queue), 'update_message', ids[1]!);
      oneEvent(events, shape, `the ${who}'s update_message`);
    }
  },
};

const emptyTopicEvent: Rule = {
  id: 'message-move/empty-topic-in-move-events',
  title: "from level 334 a move to the empty topic reaches queues with the empty_topic_name capability as subject '' and the others as realm_empty_topic_display_name; a move out of it likewise in orig_subject",
  endpoint: ENDPOINT,
  section: 'api/get-events (update_message subject, orig_subject); api/register-queue (empty_topic_name)',
  levels: { min: EDIT_LEVELS.EMPTY_TOPIC },
  writes: true,
  needs: ['admin', 'second-member'],
  async run(ctx) {
    const state = await fetchState(ctx.as('admin'), ['realm']);
    if (state.realm_topics_policy === 'disable_empty_topic') return ctx.skip("the realm's topics_policy disables the empty topic");
    const display = state.realm_empty_topic_display_name;
    check(typeof display === 'string', `POST /register: realm_empty_topic_display_name must be a string from level ${EDIT_LEVELS.EMPTY_TOPIC}`);
    const { open } = await editChannels(ctx);
    const member = ctx.as('second-member');
    const modern = await markedQueue(ctx, member, ['update_message'], { empty_topic_name: true });
    const legacy = await markedQueue(ctx, member, ['update_message']);
    const topic = ctx.name('topic');
    const id = await send(member, open, topic, ctx.name('content'));
    for (const [from, to] of [[topic, ''], ['', topic]] as const) {
      expectEditSuccess(ctx, await ctx.as('admin').patch(`/messages/${id}`, { ...QUIET, topic: to }));
      for (const [queue, empty] of [[modern, ''], [legacy, display]] as const) {
        const label = `the move from ${JSON.stringify(from)} to ${JSON.stringify(to)} ${queue === modern ? 'with' : 'without'} empty_topic_name`;
        const events = eventsAbout(await eventsBeforeMarker(member, queue), 'update_message', id);
        const event = oneEvent(events, v.object({}), `update_message for ${label}`) as JsonObject;
        expectEqual([event.orig_subject, event.subject], [from === '' ? empty : from, to === '' ? empty : to], `orig_subject and subject for ${label}`);
      }
    }
  },
};

const channelMoveEvents: Rule = {
  id: 'message-move/channel-move-events-per-access',
  title: 'a change_all move into a private channel sends those who keep access one update_message with stream_id (old), new_stream_id, orig_subject, no subject, propagate_mode and every moved ID, and sends those who lose access (the second member, the guest) one delete_message with the IDs, message_type stream, the old stream_id and topic instead of any update_message',
  endpoint: ENDPOINT,
  section: 'api/get-events (update_message, delete_message); api/update-message',
  levels: { min: EDIT_LEVELS.DRAFTS },
  writes: true,
  needs: ['admin', 'member', 'second-member', 'guest'],
  async run(ctx) {
    const { open, secret } = await editChannels(ctx);
    const types = ['update_message', 'delete_message'];
    const keeper = await markedQueue(ctx, ctx.as('member'), types, { bulk_message_deletion: true });
    const losers = [
      { who: 'second-member' as const, queue: await markedQueue(ctx, ctx.as('second-member'), types, { bulk_message_deletion: true }) },
      { who: 'guest' as const, queue: await markedQueue(ctx, ctx.as('guest'), types, { bulk_message_deletion: true }) },
    ];
    const { topic, ids } = await threeMessages(ctx, open);
    expectEditSuccess(ctx, await ctx.as('admin').patch(`/messages/${ids[0]}`, { ...QUIET, stream_id: secret.id, propagate_mode: 'change_all' }));
    const kept = await eventsBeforeMarker(ctx.as('member'), keeper);
    expectEqual(eventsAbout(kept, 'delete_message', ids[0]!).length, 0, 'delete_message events for the member, who keeps access');
    const updates = eventsAbout(kept, 'update_message', ids[0]!);
    const shape = v.object(
      {
        ...updateEventBase(ctx, ctx.identity('admin').userId),
        message_id: v.literal(ids[0]!),
        message_ids: idsField(ctx, ids),
        stream_id: v.literal(open.id),
        new_stream_id: v.literal(secret.id),
        orig_subject: v.literal(topic),
        propagate_mode: v.literal('change_all'),
      },
      { forbidden: [...CONTENT_FIELDS, 'subject', 'topic_links'] },
    );
    oneEvent(updates, shape, "the member's update_message");
    for (const { who, queue } of losers) {
      const events = await eventsBeforeMarker(ctx.as(who), queue);
      expectEqual(eventsAbout(events, 'update_message', ids[0]!).length, 0, `update_message events for the ${who}, who loses access`);
      const deletions = eventsAbout(events, 'delete_message', ids[0]!);
      const deletion = oneEvent(deletions, v.object({ message_ids: idsField(ctx, ids), message_type: v.literal('stream'), stream_id: v.literal(open.id), topic: v.string() }), `the ${who}'s delete_message`);
      expectEqual(deletion.topic.toLowerCase(), topic.toLowerCase(), `the ${who}'s delete_message topic (the old topic)`);
    }
  },
};

export const rules: readonly Rule[] = [topicMoveEvent, emptyTopicEvent, channelMoveEvents];
