/**
 * How far `POST /mark_topic_as_read` reaches (section 4.11), read back through each message's
 * flags (`GET /messages/{id}`, level 120): the caller's messages of that topic in that channel,
 * whatever the letter case they were sent with, and nothing else: not the same topic name in
 * another channel, not another topic, not another user's flags. A topic where the caller has no
 * message, and a channel that does not exist, are refused, each on every run.
 */
import { check, expectError } from '../../expect/assert.js';
import { isRead, markTopicRule, MESSAGE_FLAGS_LEVEL } from './mark-topic-as-read-support.js';
import { FAR_ID_FLOOR, sendToChannel } from '../support/message-fixtures.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import type { Rule } from '../types.js';

const onlyThatTopic = markTopicRule({
  id: 'mark-topic-as-read/only-that-topic-for-the-caller',
  title: "marking a topic read reads the caller's messages of that topic in that channel (any letter case) and leaves the same topic in another channel, other topics and other users' flags unread",
  section: '4.11',
  levels: { min: MESSAGE_FLAGS_LEVEL },
}, async (ctx, { sender, reader, sharedChannel }) => {
  const [here, there] = [await sharedChannel('scope-a'), await sharedChannel('scope-b')];
  const topic = `${ctx.name('Scope')} Topic`;
  const marked = [await sendToChannel(sender, here.id, topic, 'one'), await sendToChannel(sender, here.id, topic.toUpperCase(), 'two in capitals')];
  const kept = new Map([
    ['the same topic in another channel', await sendToChannel(sender, there.id, topic, 'elsewhere')],
    ['another topic of the channel', await sendToChannel(sender, here.id, `${topic} other`, 'other topic')],
  ]);
  expectPlainSuccess(await reader.post('/mark_topic_as_read', { stream_id: here.id, topic_name: topic.toLowerCase() }));
  for (const id of marked) check(await isRead(reader, id), `message ${id} of the topic (sent as ${id === marked[0] ? 'given' : 'upper case'}) is not read`);
  for (const [what, id] of kept) check(!(await isRead(reader, id)), `message ${id} (${what}) was marked read`);
  // The administrator (subscribed, not the sender) still has the topic unread.
  for (const id of marked) check(!(await isRead(ctx.as('admin'), id)), `message ${id} was marked read for another user too`);
});

const errorsEachRun = markTopicRule({
  id: 'mark-topic-as-read/unknown-channel-and-topic-each-run',
  title: "a channel ID of no channel is refused with 400 BAD_REQUEST, and a topic where the caller has no message with 400 \"No such topic '<topic>'\", on every run",
  section: '4.11; 7',
}, async (ctx, { sender, reader, sharedChannel }) => {
  const channel = await sharedChannel('scope-err');
  const used = ctx.name('used');
  await sendToChannel(sender, channel.id, used, 'exists');
  expectError(await reader.post('/mark_topic_as_read', { stream_id: FAR_ID_FLOOR + channel.id, topic_name: used }), { status: 400, code: 'BAD_REQUEST' });
  const unused = ctx.name('never');
  const reply = await reader.post('/mark_topic_as_read', { stream_id: channel.id, topic_name: unused });
  expectError(reply, { status: 400, code: 'BAD_REQUEST' });
  check(reply.body?.msg === `No such topic '${unused}'`, `msg should be "No such topic '${unused}'", got ${JSON.stringify(reply.body?.msg)}`, reply);
});

export const rules: readonly Rule[] = [onlyThatTopic, errorsEachRun];
