/**
 * Delivery of typing notifications (section 4.2; section 6 item 2): typing events reach the other
 * users' queues with the shape of the real OpenAPI get-events description; channel typing only for clients declaring
 * `stream_typing_notifications`; the empty-topic aliases arrive as the empty topic; nobody who
 * turned `receives_typing_notifications` off gets any.
 */
import fc from 'fast-check';
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import { check, expectEqual, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { openQueue, realmLimits, sorted } from '../support/channel-fixtures.js';
import { drainQueues, eventsBeforeSentinel } from '../support/event-waits.js';
import type { Rule, RuleContext } from '../types.js';
import { channelTypes, channelTyping, directType, openTypingQueue, sharedChannel, topicText, TYPING } from './typing-support.js';

/** Typing events in `events` (other event types are ignored). */
const typingEvents = (events: readonly JsonObject[]): JsonObject[] => events.filter((event) => event.type === 'typing');

/** Channel typing events in `events`. */
const channelTypingEvents = (events: readonly JsonObject[]): JsonObject[] => typingEvents(events).filter((event) => event.message_type === 'stream');

/** A direct typing event: the sentinel that channel typing checks send after the notification under test. */
const isDirectTyping = (event: JsonObject): boolean => event.type === 'typing' && event.message_type !== 'stream';

/** Sends the direct-typing sentinel from the member to the second member. */
function directSentinel(ctx: RuleContext): () => Promise<void> {
  return async () => void expectSuccess(await ctx.as('member').post('/typing', { op: 'start', to: [ctx.identity('second-member').userId] }));
}

const person = v.object({ user_id: v.int({ min: 1 }), email: v.string() }, { exact: true });

/** The channel typing event of the real OpenAPI get-events description: exactly these keys. */
const channelEventShape = v.object(
  { id: v.int(), type: v.literal('typing'), op: v.literal('start', 'stop'), message_type: v.literal('stream'), sender: person, stream_id: v.int(), topic: v.string() },
  { exact: true },
);

/**
 * The direct typing event: `recipients` include the sender; `message_type` came with channel
 * typing (level 58), `private` before level 215.
 */
const directEventShape = (level: number) =>
  v.object(
    {
      id: v.int(),
      type: v.literal('typing'),
      op: v.literal('start', 'stop'),
      ...(level >= TYPING.STREAM ? { message_type: level >= TYPING.STREAM_ID ? v.literal('direct') : v.literal('private') } : {}),
      sender: person,
      recipients: v.array(person, { minLength: 1 }),
    },
    { exact: true },
  );

const channelDelivery: Rule = {
  id: 'typing/channel-event-delivered-to-capable-clients',
  title: "channel typing reaches the other subscribers' queues that declared stream_typing_notifications, as a typing event with sender, stream_id and topic; other queues get none",
  endpoint: 'POST /typing',
  section: '4.2; 6 item 2',
  levels: { min: TYPING.STREAM },
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  async run(ctx) {
    const sender = ctx.identity('member');
    const channel = await sharedChannel(ctx);
    const receiver = ctx.as('second-member');
    const capable = await openTypingQueue(ctx, receiver, true);
    const plain = await openTypingQueue(ctx, receiver, false);
    await drainQueues(receiver, [capable, plain]);
    await ctx.property('op x type x topic', [fc.constantFrom('start', 'stop'), fc.constantFrom(...channelTypes(ctx.featureLevel)), topicText], async (op, type, topic) => {
      expectSuccess(await ctx.as('member').post('/typing', channelTyping(ctx.featureLevel, type, op, channel, topic)));
      // Exactly one before the sentinel; none at all in the queue that did not declare the capability.
      const events = channelTypingEvents(await eventsBeforeSentinel(capable, directSentinel(ctx), isDirectTyping, 'direct typing'));
      expectEqual(events.length, 1, 'typing events in the capable queue');
      const event = expectShape(events[0], channelEventShape, 'event', undefined);
      expectEqual([event.op, event.sender.user_id, event.stream_id, event.topic], [op, sender.userId, channel.streamId, topic], 'op, sender, stream_id, topic');
      const plainEvents = await eventsBeforeSentinel(plain, async () => undefined, isDirectTyping, 'direct typing');
      expectEqual(channelTypingEvents(plainEvents).length, 0, 'typing events in a queue without stream_typing_notifications');
    }, { maxRuns: 6 });
  },
};

/** Levels at which the empty-topic aliases are read as the empty topic in channel typing. */
const EMPTY_TOPIC_LEVELS = { DISPLAY_NAME: 334, NO_TOPIC: 372 } as const;

const emptyTopicAliases: Rule = {
  id: 'typing/empty-topic-aliases-read-as-empty',
  title: "the empty-topic display name (level 334) and '(no topic)' (level 372) as typing topic mean the empty topic: \"\" for empty_topic_name clients, the display name for others",
  endpoint: 'POST /typing',
  section: '4.2; 1 convention 6',
  levels: { min: EMPTY_TOPIC_LEVELS.DISPLAY_NAME },
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  async run(ctx) {
    const channel = await sharedChannel(ctx);
    const receiver = ctx.as('second-member');
    const { emptyTopicDisplayName } = await realmLimits(receiver);
    check(typeof emptyTopicDisplayName === 'string', 'register gives no realm_empty_topic_display_name');
    const modern = await openTypingQueue(ctx, receiver, true, { empty_topic_name: true });
    const legacy = await openTypingQueue(ctx, receiver, true);
    await drainQueues(receiver, [modern, legacy]);
    const aliases = [emptyTopicDisplayName, ...(ctx.featureLevel >= EMPTY_TOPIC_LEVELS.NO_TOPIC ? ['(no topic)'] : [])];
    await ctx.property('aliases x op', [fc.constantFrom(...aliases), fc.constantFrom('start', 'stop')], async (alias, op) => {
      expectSuccess(await ctx.as('member').post('/typing', channelTyping(ctx.featureLevel, 'stream', op, channel, alias)));
      const sentinel = directSentinel(ctx);
      for (const [queue, expected] of [[modern, ''], [legacy, emptyTopicDisplayName]] as const) {
        // The sentinel is sent once and reaches both queues; the second wait only reads.
        const events = channelTypingEvents(await eventsBeforeSentinel(queue, queue === modern ? sentinel : async () => undefined, isDirectTyping, 'direct typing'));
        expectEqual(events.map((event) => event.topic), [expected], `typing event topics (${queue === modern ? 'with' : 'without'} empty_topic_name)`);
      }
    }, { maxRuns: 4 });
  },
};

/** `PATCH /settings` (not part of the description): the part that needs it is skipped where absent. */
async function setReceivesTyping(client: ApiClient, value: boolean): Promise<Reply> {
  return client.patch('/settings', { receives_typing_notifications: value });
}

const directDelivery: Rule = {
  id: 'typing/direct-event-delivered',
  title: 'direct typing reaches each recipient as a typing event listing sender and recipients (sender included); none reaches a user who turned receives_typing_notifications off',
  endpoint: 'POST /typing',
  section: '4.2; 6 item 2',
  writes: true,
  needs: ['member', 'second-member'],
  async run(ctx) {
    const sender = ctx.identity('member');
    const receiverId = ctx.identity('second-member').userId;
    const receiver = ctx.as('second-member');
    const queue = await openTypingQueue(ctx, receiver, false);
    await drainQueues(receiver, [queue]);
    await ctx.property('op x type given or not', [fc.constantFrom('start', 'stop'), fc.boolean()], async (op, withType) => {
      expectSuccess(await ctx.as('member').post('/typing', { op, to: [receiverId], type: withType ? directType(ctx.featureLevel) : undefined }));
      // The sentinel: the receiver's own notification to the member, which the receiver's queue gets too.
      const before = await eventsBeforeSentinel(
        queue,
        async () => void expectSuccess(await receiver.post('/typing', { op: 'stop', to: [sender.userId] })),
        (event) => event.type === 'typing' && (event.sender as { user_id?: unknown } | undefined)?.user_id === receiverId,
        "the receiver's own typing",
      );
      const events = typingEvents(before);
      expectEqual(events.length, 1, 'typing events in the recipient queue');
      const event = expectShape(events[0], directEventShape(ctx.featureLevel), 'event', undefined);
      expectEqual([event.op, event.sender.user_id], [op, sender.userId], 'op, sender');
      expectEqual(sorted(event.recipients.map((user) => user.user_id)), sorted([sender.userId, receiverId]), 'recipients (the sender included)');
    }, { maxRuns: 6 });
    if (ctx.featureLevel < TYPING.RECEIVES_SETTING) return;
    const off = await setReceivesTyping(receiver, false);
    if (off.status === 404 || off.status === 405) {
      ctx.note(`PATCH /settings answered HTTP ${off.status}: the receives_typing_notifications part was not checked`);
      return;
    }
    ctx.cleanup('turn receives_typing_notifications back on for the second member', async (c) => {
      const reply = await setReceivesTyping(c.as('second-member'), true);
      if (reply.status !== 200) throw new Error(`PATCH /settings answered HTTP ${reply.status}: receives_typing_notifications stays off for the second member`);
    });
    expectSuccess(off);
    // Typing events cannot be the sentinel here: the receiver gets none. Turning the setting back on
    // makes a user_settings event that arrives after anything the notification caused.
    const watcher = await openQueue(receiver, ['typing', 'user_settings']);
    ctx.cleanup('delete settings queue', async () => watcher.close());
    expectSuccess(await ctx.as('member').post('/typing', { op: 'start', to: [receiverId] }));
    const before = await eventsBeforeSentinel(
      watcher,
      async () => void expectSuccess(await setReceivesTyping(receiver, true)),
      (event) => event.type === 'user_settings' && event.property === 'receives_typing_notifications',
      'the setting turned back on',
    );
    expectEqual(typingEvents(before).length, 0, 'typing events for a user with receives_typing_notifications off');
  },
};

export const rules: readonly Rule[] = [channelDelivery, emptyTopicAliases, directDelivery];
