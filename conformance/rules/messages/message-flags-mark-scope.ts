/**
 * How far `POST /mark_stream_as_read` and `POST /mark_topic_as_read` reach, as the real server's
 * `do_mark_stream_messages_as_read` does it for both: the caller's unread messages of the channel
 * (or of the topic, whatever the letter case it was sent with) become read, nothing outside it,
 * nobody else's; one `update_message_flags` event lists exactly the messages that were unread
 * there (the channel's creation notice too, where the target sends one); marking again changes
 * nothing and sends no event.
 */
import type { JsonObject } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { check, expectEqual, expectShape, expectSuccess } from '../../expect/assert.js';
import { drainQueues, eventsBeforeSentinel } from '../support/event-waits.js';
import { createChannel, type RunChannel, sendToChannel } from '../support/message-fixtures.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import type { Rule } from '../types.js';
import { isReadEvent, readEventShape } from './message-flags-mark.js';
import { ascending, conversationRule, eventsSoFar, LEVEL, narrowMessages, ofType, postFlags, ruleQueue, topicNarrow, viewMessage } from './message-flags-support.js';

/** One scope: its endpoint, the request, its narrow, and who marks (the other of the two is the bystander). */
interface Scope {
  readonly id: string;
  readonly title: string;
  readonly section: string;
  readonly endpoint: string;
  readonly path: string;
  readonly reader: IdentityName;
  readonly bystander: IdentityName;
  readonly params: (channel: RunChannel, topic: string) => JsonObject;
  readonly narrow: (channel: RunChannel, topic: string) => JsonObject[];
  /** Whether the other topic of the marked channel is inside the scope. */
  readonly wholeChannel: boolean;
}

function scopeRule(scope: Scope): Rule {
  return conversationRule({ id: scope.id, title: scope.title, section: scope.section, endpoint: scope.endpoint, levels: { min: LEVEL.MESSAGE_OBJECT }, actor: scope.reader, needs: ['second-member'] }, async (ctx, { sender, reader }) => {
    const members = { members: ['member', 'second-member'] as const };
    const [marked, other] = [await createChannel(ctx, 'admin', 'mark-here', members), await createChannel(ctx, 'admin', 'mark-there', members)];
    const topic = `${ctx.name('mark')} Topic`;
    const inTopic = [await sendToChannel(sender, marked.id, topic, 'one'), await sendToChannel(sender, marked.id, topic.toUpperCase(), 'two, in capitals')];
    const otherTopic = await sendToChannel(sender, marked.id, ctx.name('mark-other'), 'another topic');
    const otherChannel = await sendToChannel(sender, other.id, topic, 'the same topic in another channel');
    const [inside, outside] = scope.wholeChannel ? [[...inTopic, otherTopic], [otherChannel]] : [inTopic, [otherTopic, otherChannel]];
    const unread = (await narrowMessages(reader, scope.narrow(marked, topic).concat([{ operator: 'is', operand: 'unread' }]))).map((m) => m.id);
    check(inside.every((id) => unread.includes(id)), `the messages sent are not all unread for the reader: ${unread.join(', ')}`);
    const queue = await ruleQueue(ctx, reader, ['update_message_flags', 'drafts']);
    await drainQueues(reader, [queue]);
    expectPlainSuccess(await reader.post(scope.path, scope.params(marked, topic)));
    for (const id of inside) check((await viewMessage(reader, id)).flags.includes('read'), `message ${id} inside the scope is not read`);
    for (const id of outside) check(!(await viewMessage(reader, id)).flags.includes('read'), `message ${id} outside the scope was marked read`);
    const bystander = ctx.as(scope.bystander);
    for (const id of inside) check(!(await viewMessage(bystander, id)).flags.includes('read'), `message ${id} was marked read for the ${scope.bystander} too`);
    const events = ofType(await eventsSoFar(reader, queue, (got) => got.some(isReadEvent)), 'update_message_flags');
    expectEqual(events.length, 1, 'update_message_flags events of marking read');
    const event = expectShape(events[0], readEventShape(ctx.featureLevel, false), 'event');
    expectEqual(ascending(event.messages), unread, "messages of the event (the caller's unread messages inside the scope)");
    expectPlainSuccess(await reader.post(scope.path, scope.params(marked, topic)));
    const later = await eventsBeforeSentinel(
      queue,
      async () => void expectSuccess(await postFlags(reader, 'add', 'starred', [otherChannel])),
      (got) => got.type === 'update_message_flags' && got.flag === 'starred',
      'the reader starring a message',
    );
    expectEqual(later.filter(isReadEvent), [], 'read events after marking read again');
    expectSuccess(await postFlags(reader, 'remove', 'starred', [otherChannel]));
  });
}

const channelScope = scopeRule({
  id: 'mark-stream-as-read/one-channel-for-the-caller',
  title: "marking a channel read reads the caller's messages of every topic of that channel and no other channel's, leaves other users' flags alone, and sends one update_message_flags event with the messages that were unread; a second call changes nothing and sends no event",
  section: 'api/mark-stream-as-read; api/get-events#update_message_flags-add',
  endpoint: 'POST /mark_stream_as_read',
  path: '/mark_stream_as_read',
  reader: 'second-member',
  bystander: 'admin',
  params: (channel) => ({ stream_id: channel.id }),
  narrow: (channel) => [{ operator: 'stream', operand: channel.name }],
  wholeChannel: true,
});

const topicScope = scopeRule({
  id: 'mark-topic-as-read/one-event-for-the-topic-none-when-nothing-left',
  title: "marking a topic read (any letter case) sends the caller one update_message_flags event with exactly the topic's messages that were unread, reads nothing of the channel's other topic or of the same topic elsewhere, nothing for other users; a second call sends no event",
  section: '4.11; api/get-events#update_message_flags-add',
  endpoint: 'POST /mark_topic_as_read',
  path: '/mark_topic_as_read',
  reader: 'admin',
  bystander: 'second-member',
  params: (channel, topic) => ({ stream_id: channel.id, topic_name: topic.toLowerCase() }),
  narrow: (channel, topic) => topicNarrow(channel, topic),
  wholeChannel: false,
});

export const rules: readonly Rule[] = [channelScope, topicScope];
