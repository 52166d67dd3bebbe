/**
 * A channel's topics: `GET /users/me/{stream_id}/topics` (api/get-stream-topics) against a model
 * of the messages the run sent (most recent first, case variants one topic named as its latest
 * message, `max_id` its latest message; with protected history only what the reader received;
 * content access needed) and `POST /streams/{id}/delete_topic` (api/delete-topic: administrators
 * only, checked first; `complete` from level 211, repeated until true; the topic's messages gone,
 * other topics kept).
 */
import fc from 'fast-check';
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { type Channel, principalsFor } from '../support/channel-fixtures.js';
import { FAR_ID_FLOOR, sendToChannel } from '../support/message-fixtures.js';
import type { Rule } from '../types.js';
import { ownChannel, STREAM_LEVELS } from './streams-support.js';

interface Topic {
  readonly name: string;
  readonly max_id: number;
}

/** The channel's topics as `client` lists them. */
async function topicsOf(client: ApiClient, channel: Channel): Promise<Topic[]> {
  const reply = await client.get(`/users/me/${channel.streamId}/topics`);
  return expectShape(expectSuccess(reply), v.object({ topics: v.array(v.object({ name: v.string(), max_id: v.int({ min: 1 }) })) }), 'body', reply).topics;
}

/** The model: one topic per lower-cased name, named as its latest message, most recent first. */
function expectedTopics(sent: ReadonlyArray<{ topic: string; id: number }>): Topic[] {
  const latest = new Map<string, Topic>();
  for (const { topic, id } of sent) {
    const key = topic.toLowerCase();
    const seen = latest.get(key);
    if (!seen || id > seen.max_id) latest.set(key, { name: topic, max_id: id });
  }
  return [...latest.values()].sort((a, b) => b.max_id - a.max_id);
}

const ours = (topics: readonly Topic[], prefix: string): Topic[] => topics.filter((topic) => topic.name.toLowerCase().startsWith(prefix.toLowerCase()));

const listOrder: Rule = {
  id: 'topics/list-order-and-max-ids',
  title: "GET /users/me/{stream_id}/topics lists the run's topics most recent first, topics differing in case once under their latest message's name, each with its latest message ID as max_id",
  endpoint: 'GET /users/me/{stream_id}/topics',
  section: 'api/get-stream-topics',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const channel = await ownChannel(ctx, 'topics', { members: ['member'] });
    const member = ctx.as('member');
    const picks = fc.array(fc.tuple(fc.constantFrom('alpha', 'beta', 'gamma'), fc.boolean()), { minLength: 1, maxLength: 5 });
    await ctx.property('topics sent x upper-cased', [picks], async (sequence) => {
      const prefix = ctx.name('topic');
      const sent: Array<{ topic: string; id: number }> = [];
      for (const [word, upper] of sequence) {
        const topic = `${prefix} ${upper ? word.toUpperCase() : word}`;
        sent.push({ topic, id: await sendToChannel(member, channel.streamId, topic, 'listed') });
      }
      expectEqual(ours(await topicsOf(member, channel), `${prefix} `), expectedTopics(sent), `the topics starting with ${prefix}`);
    }, { maxRuns: 5 });
  },
};

const access: Rule = {
  id: 'topics/access-and-protected-history',
  title: "a private channel's topics are refused with 400 BAD_REQUEST to who cannot read it (a moderator not subscribed; a guest for a public channel; unknown channels); with protected history a member subscribed later sees only the topics of messages it received",
  endpoint: 'GET /users/me/{stream_id}/topics',
  section: 'api/get-stream-topics',
  writes: true,
  needs: ['admin', 'member', 'moderator', 'guest'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const secret = await ownChannel(ctx, 'topics-protected', { inviteOnly: true });
    const open = await ownChannel(ctx, 'topics-open');
    expectError(await ctx.as('moderator').get(`/users/me/${secret.streamId}/topics`), { status: 400, code: 'BAD_REQUEST' });
    expectError(await ctx.as('guest').get(`/users/me/${open.streamId}/topics`), { status: 400, code: 'BAD_REQUEST' });
    expectError(await ctx.as('member').get(`/users/me/${FAR_ID_FLOOR + 5}/topics`), { status: 400, code: 'BAD_REQUEST' });
    const before = `${ctx.name('topic')} before`;
    const beforeId = await sendToChannel(admin, secret.streamId, before, 'sent before the member joined');
    expectSuccess(await admin.post('/users/me/subscriptions', { subscriptions: [{ name: secret.name }], principals: await principalsFor(ctx, admin, [ctx.identity('member').userId]) }));
    const after = `${ctx.name('topic')} after`;
    const afterId = await sendToChannel(admin, secret.streamId, after, 'sent after the member joined');
    const prefix = ctx.runTag;
    expectEqual(ours(await topicsOf(ctx.as('member'), secret), prefix), [{ name: after, max_id: afterId }], "the late subscriber's topics");
    expectEqual(ours(await topicsOf(admin, secret), prefix), [{ name: after, max_id: afterId }, { name: before, max_id: beforeId }], "the first subscriber's topics");
  },
};

/** `GET /messages` of one topic of the channel, as `client`: the message IDs. */
async function topicMessages(client: ApiClient, channel: Channel, topic: string): Promise<number[]> {
  const narrow = [{ operator: 'stream', operand: channel.name }, { operator: 'topic', operand: topic }];
  const reply = await client.get('/messages', { narrow, anchor: 'newest', num_before: 50, num_after: 0 });
  return expectShape(expectSuccess(reply), v.object({ messages: v.array(v.object({ id: v.int() })) }), 'body', reply).messages.map((message) => message.id);
}

const deleteTopic: Rule = {
  id: 'topics/delete-topic-administrators',
  title: 'delete_topic is refused with 400 UNAUTHORIZED_PRINCIPAL to moderators and members (even without topic_name); an administrator deletes every message of the topic (any case), answering complete (from level 211; repeated until true), the topic leaves the list and other topics stay',
  endpoint: 'POST /streams/{stream_id}/delete_topic',
  section: 'api/delete-topic; changelog 211',
  writes: true,
  needs: ['admin', 'member', 'moderator'],
  async run(ctx) {
    const channel = await ownChannel(ctx, 'delete-topic', { members: ['member', 'moderator'] });
    const member = ctx.as('member');
    const doomed = `${ctx.name('topic')} doomed`;
    const kept = `${ctx.name('topic')} kept`;
    for (const topic of [doomed, doomed.toUpperCase(), kept, doomed]) await sendToChannel(member, channel.streamId, topic, 'to be deleted or kept');
    const path = `/streams/${channel.streamId}/delete_topic`;
    for (const who of ['moderator', 'member'] as const) {
      expectError(await ctx.as(who).post(path, { topic_name: doomed }), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL' });
      expectError(await ctx.as(who).post(path, {}), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL' });
    }
    expectEqual((await topicMessages(member, channel, doomed)).length, 3, 'messages of the topic after the refused deletions');
    const admin = ctx.as('admin');
    expectError(await admin.post(path, {}), { status: 400, code: 'REQUEST_VARIABLE_MISSING' });
    for (let attempt = 0; ; attempt++) {
      const reply = await admin.post(path, { topic_name: doomed.toUpperCase() });
      const body: JsonObject = expectSuccess(reply);
      if (ctx.featureLevel < STREAM_LEVELS.COMPLETE) break;
      const { complete } = expectShape(body, v.object({ complete: v.bool() }), 'body', reply);
      if (complete) break;
      check(attempt < 5, 'delete_topic still answered complete: false after 6 requests', reply);
    }
    expectEqual(await topicMessages(member, channel, doomed), [], 'messages of the deleted topic');
    expectEqual((await topicMessages(member, channel, kept)).length, 1, 'messages of the other topic');
    const names = (await topicsOf(member, channel)).map((topic) => topic.name.toLowerCase());
    check(!names.includes(doomed.toLowerCase()) && names.includes(kept.toLowerCase()), `the topic list after deleting ${doomed}: ${JSON.stringify(names)}`);
  },
};

export const rules: readonly Rule[] = [listOrder, access, deleteTopic];
