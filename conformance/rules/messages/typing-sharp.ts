/**
 * `POST /typing` checked value by value on every run (section 4.2, section 6 item 2): each `type`
 * the level accepts, with each `op`, is delivered as an event carrying that op, and each `type`
 * the level does not accept (on either side of levels 174, 215 and 248) is refused. Channel
 * typing uses a topic of exactly `max_topic_length` characters, which arrives unchanged.
 */
import type { JsonObject } from '../../client/api-client.js';
import { expectEqual, expectError, expectSuccess } from '../../expect/assert.js';
import { realmLimits, sorted } from '../support/channel-fixtures.js';
import { drainQueues, eventsBeforeSentinel } from '../support/event-waits.js';
import { runChannel } from '../support/message-fixtures.js';
import type { Rule, RuleContext } from '../types.js';
import { channelTyping, openTypingQueue, TYPING } from './typing-support.js';

const OPS = ['start', 'stop'] as const;

/** Every `type` value the description names, with the levels that accept it (inclusive). */
const TYPE_LEVELS: ReadonlyArray<readonly [type: string, min: number, max: number, channel: boolean]> = [
  ['private', TYPING.STREAM, TYPING.STREAM_ID - 1, false],
  ['direct', TYPING.DIRECT, Number.MAX_SAFE_INTEGER, false],
  ['stream', TYPING.STREAM, Number.MAX_SAFE_INTEGER, true],
  ['channel', TYPING.CHANNEL, Number.MAX_SAFE_INTEGER, true],
];

const acceptedAt = (level: number) => TYPE_LEVELS.filter(([, min, max]) => level >= min && level <= max);

/** A topic of exactly `length` code points, astral characters included (the server counts characters). */
const topicOfLength = (length: number): string => Array.from({ length }, (_, i) => ['t', '😀', 'é', '字'][i % 4]).join('');

/** The parameters of a notification of `type` from the member: to the second member, or in `channelId`'s `topic`. */
function typingParams(ctx: RuleContext, type: string, channel: boolean, op: string, channelId: number, topic: string): Record<string, unknown> {
  if (channel) return channelTyping(ctx.featureLevel, type, op, { streamId: channelId, name: '' }, topic);
  return { type, op, to: [ctx.identity('second-member').userId] };
}

const senderId = (event: JsonObject): unknown => (event.sender as { user_id?: unknown } | undefined)?.user_id;

const everyTypeAndOp: Rule = {
  id: 'typing/every-type-and-op-delivered',
  title: 'every type the level accepts (private before 215, direct from 174, stream, channel from 248), with op start and with op stop, reaches the recipient as one typing event with that op; channel topics of max_topic_length characters arrive unchanged',
  endpoint: 'POST /typing',
  section: '4.2; 6 item 2; 8',
  levels: { min: TYPING.STREAM },
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  async run(ctx) {
    const channel = await runChannel(ctx);
    const member = ctx.identity('member').userId;
    const receiverId = ctx.identity('second-member').userId;
    const receiver = ctx.as('second-member');
    const topic = topicOfLength((await realmLimits(receiver)).maxTopicLength);
    const queue = await openTypingQueue(ctx, receiver, true);
    const directType = ctx.featureLevel >= TYPING.STREAM_ID ? 'direct' : 'private';
    // The sentinel: the receiver's own direct notification, which its queue gets too.
    const untilSentinel = () =>
      eventsBeforeSentinel(
        queue,
        async () => void expectSuccess(await receiver.post('/typing', { op: 'stop', to: [member] })),
        (event) => event.type === 'typing' && senderId(event) === receiverId,
        "the receiver's own typing",
      );
    // Events of earlier rules still on their way are dropped.
    await drainQueues(receiver, [queue]);
    for (const [type, , , isChannel] of acceptedAt(ctx.featureLevel)) {
      for (const op of OPS) {
        expectSuccess(await ctx.as('member').post('/typing', typingParams(ctx, type, isChannel, op, channel.id, topic)));
        const before = await untilSentinel();
        const events = before.filter((event) => event.type === 'typing');
        const what = `type ${type}, op ${op}`;
        expectEqual(events.length, 1, `typing events for ${what}`);
        const event = events[0]!;
        expectEqual([event.op, senderId(event), event.message_type], [op, member, isChannel ? 'stream' : directType], `op, sender and message_type of the event for ${what}`);
        if (isChannel) expectEqual([event.stream_id, event.topic], [channel.id, topic], `stream_id and topic (${[...topic].length} characters) for ${what}`);
        else expectEqual(sorted(((event.recipients ?? []) as Array<{ user_id: number }>).map((user) => user.user_id)), sorted([member, receiverId]), `recipients for ${what}`);
      }
    }
  },
};

const typeValuesByLevel: Rule = {
  id: 'typing/type-values-by-level',
  title: "each type value is accepted exactly at the levels that have it ('private' before 215, 'direct' from 174, 'stream', 'channel' from 248) and refused with 400 BAD_REQUEST elsewhere",
  endpoint: 'POST /typing',
  section: '4.2; 9.4',
  levels: { min: TYPING.STREAM },
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  async run(ctx) {
    const channel = await runChannel(ctx);
    const accepted = new Set(acceptedAt(ctx.featureLevel).map(([type]) => type));
    for (const [type, , , isChannel] of TYPE_LEVELS) {
      const reply = await ctx.as('member').post('/typing', typingParams(ctx, type, isChannel, 'stop', channel.id, ctx.name('topic')));
      if (accepted.has(type)) expectSuccess(reply);
      else expectError(reply, { status: 400, code: 'BAD_REQUEST' });
    }
  },
};

export const rules: readonly Rule[] = [everyTypeAndOp, typeValuesByLevel];
