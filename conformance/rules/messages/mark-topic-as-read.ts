/**
 * `POST /mark_topic_as_read` (section 4.11, deprecated): the caller's messages of one topic get
 * the `read` flag (checked through `GET /messages/{id}`, level 120), other topics keep theirs;
 * unknown or inaccessible channels, topics without messages and missing parameters are refused.
 */
import fc from 'fast-check';
import { check, expectError } from '../../expect/assert.js';
import { printableText } from '../support/arbitraries.js';
import { type Channel, createChannels } from '../support/channel-fixtures.js';
import { isRead, markTopicRule, MESSAGE_FLAGS_LEVEL } from './mark-topic-as-read-support.js';
import { sendToChannel } from '../support/message-fixtures.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import type { Rule } from '../types.js';


/** Run-tagged topic texts: unique per run, so earlier runs' messages never share the topic. */
const topicTail = printableText(12).filter((text) => text.trim() === text);

const marksRead = markTopicRule({
  id: 'mark-topic-as-read/marks-topic-messages-read',
  title: "marking a topic as read sets the read flag on the caller's messages in that topic and on no message of another topic",
  section: '4.11',
  levels: { min: MESSAGE_FLAGS_LEVEL },
}, async (ctx, { sender, reader, sharedChannel }) => {
  const channel = await sharedChannel('unread');
  await ctx.property('two topics, one to three messages in the marked one', [topicTail, topicTail, fc.integer({ min: 1, max: 3 })], async (a, b, count) => {
    const marked = `${ctx.name('read')} ${a}`.trim();
    const other = `${ctx.name('unread')} ${b}`.trim();
    const ids: number[] = [];
    for (let i = 0; i < count; i++) ids.push(await sendToChannel(sender, channel.id, marked, `message ${i}`));
    const kept = await sendToChannel(sender, channel.id, other, 'stays unread');
    for (const id of [...ids, kept]) check(!(await isRead(reader, id)), `message ${id} is read before anything was marked`);
    const reply = await reader.post('/mark_topic_as_read', { stream_id: channel.id, topic_name: marked });
    expectPlainSuccess(reply);
    for (const id of ids) check(await isRead(reader, id), `message ${id} of the marked topic is not read`);
    check(!(await isRead(reader, kept)), `message ${kept} of another topic was marked read`);
  }, { maxRuns: 3 });
});

const refused = markTopicRule({
  id: 'mark-topic-as-read/unknown-channel-or-topic-bad-request',
  title: 'an unknown or inaccessible channel, or a topic in which the caller has no message, is refused with 400 BAD_REQUEST',
  section: '4.11; 7',
}, async (ctx, { reader, sharedChannel }) => {
  const channel = await sharedChannel('no-topic');
  const [secret] = (await createChannels(ctx, 'admin', ['mark-secret'], { inviteOnly: true, principals: [ctx.identity('admin').userId] })) as [Channel];
  const target = fc.oneof(
    fc.integer({ min: 1_000_000_000, max: 2 ** 31 - 1 }).map((id) => ({ streamId: id, topic: 'x' })),
    fc.constant({ streamId: secret.streamId, topic: 'x' }),
    topicTail.map((tail) => ({ streamId: channel.id, topic: `never used ${tail}`.trim() })),
  );
  await ctx.property('unknown channel, private channel, empty topic', [target], async ({ streamId, topic }) => {
    expectError(await reader.post('/mark_topic_as_read', { stream_id: streamId, topic_name: topic }), { status: 400, code: 'BAD_REQUEST' });
  });
});

const missing: Rule = {
  id: 'mark-topic-as-read/invalid-parameters-refused',
  title: 'a missing stream_id or topic_name is REQUEST_VARIABLE_MISSING; a stream_id that is not a JSON integer is 400 BAD_REQUEST',
  endpoint: 'POST /mark_topic_as_read',
  section: '4.11; 1 convention 2',
  writes: false,
  needs: ['member'],
  async run(ctx) {
    const client = ctx.as('member');
    const params = fc.oneof(
      fc.constantFrom({ topic_name: 'x' }, { stream_id: 1 }, {}).map((p) => ({ params: p as Record<string, unknown>, code: 'REQUEST_VARIABLE_MISSING' })),
      fc.constantFrom('"1"', '1.5', 'abc', '[1]').map((id) => ({ params: { stream_id: id, topic_name: 'x' } as Record<string, unknown>, code: 'BAD_REQUEST' })),
    );
    await ctx.property('missing or malformed', [params], async ({ params: sent, code }) => {
      expectError(await client.post('/mark_topic_as_read', sent), { status: 400, code });
    }, { maxRuns: 10 });
  },
};

const noCredentials: Rule = {
  id: 'mark-topic-as-read/no-credentials-unauthorized',
  title: 'POST /mark_topic_as_read without credentials is answered 401 UNAUTHORIZED',
  endpoint: 'POST /mark_topic_as_read',
  section: '5.4',
  writes: false,
  async run(ctx) {
    expectError(await ctx.anonymous.post('/mark_topic_as_read', { stream_id: 1, topic_name: 'x' }), { status: 401, code: 'UNAUTHORIZED' });
  },
};

export const rules: readonly Rule[] = [marksRead, refused, missing, noCredentials];
