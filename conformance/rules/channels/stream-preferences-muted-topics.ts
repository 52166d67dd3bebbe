/**
 * The legacy `PATCH /users/me/subscriptions/muted_topics` (api/mute-topic), which
 * `POST /user_topics` replaced at level 170 and real clients still call: muting and unmuting a
 * topic by channel ID or name, read back from `POST /register` (`user_topics` from level 134,
 * `muted_topics` before); repeating an operation is an error before 170 and harmless from it;
 * malformed requests are refused.
 */
import { check, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { fetchState } from '../support/channel-fixtures.js';
import type { Channel } from '../support/channel-fixtures.js';
import type { Rule, RuleContext } from '../types.js';
import { ownChannel } from './streams-support.js';

const ENDPOINT = '/users/me/subscriptions/muted_topics';
const USER_TOPICS_STATE = 134;
const USER_TOPICS_ENDPOINT = 170;

/** Whether the member has the topic muted, as register reports it. */
async function isMuted(ctx: RuleContext, channel: Channel, topic: string): Promise<boolean> {
  const member = ctx.as('member');
  if (ctx.featureLevel >= USER_TOPICS_STATE) {
    const state = await fetchState(member, ['user_topic']);
    const entries = expectShape(state.user_topics, v.array(v.object({ stream_id: v.int(), topic_name: v.string(), visibility_policy: v.int() })), 'user_topics');
    return entries.some((entry) => entry.stream_id === channel.streamId && entry.topic_name === topic && entry.visibility_policy === 1);
  }
  const state = await fetchState(member, ['muted_topics']);
  const entries = expectShape(state.muted_topics, v.array(v.array(v.unknown())), 'muted_topics');
  return entries.some((entry) => entry[0] === channel.name && entry[1] === topic);
}

const muteAndUnmute: Rule = {
  id: 'muted-topics/mute-unmute-read-back',
  title: 'op=add mutes a topic by stream_id or by channel name and op=remove unmutes it, each read back from register; a repeated add or remove is refused with 400 BAD_REQUEST before level 170, and a repeated add accepted from it',
  endpoint: 'PATCH /users/me/subscriptions/muted_topics',
  section: 'api/mute-topic; changelog 134, 170',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const channel = await ownChannel(ctx, 'muted-topics', { members: ['member'] });
    const member = ctx.as('member');
    const repeatOk = ctx.featureLevel >= USER_TOPICS_ENDPOINT;
    const expectRepeat = (reply: Parameters<typeof expectSuccess>[0]) => (repeatOk ? expectSuccess(reply) : expectError(reply, { status: 400, code: 'BAD_REQUEST' }));
    const topic = 'legacy muting';
    expectSuccess(await member.patch(ENDPOINT, { stream_id: channel.streamId, topic, op: 'add' }));
    check(await isMuted(ctx, channel, topic), 'the topic muted by stream_id is not muted');
    expectRepeat(await member.patch(ENDPOINT, { stream_id: channel.streamId, topic, op: 'add' }));
    expectSuccess(await member.patch(ENDPOINT, { stream_id: channel.streamId, topic, op: 'remove' }));
    check(!(await isMuted(ctx, channel, topic)), 'the unmuted topic is still muted');
    // Unmuting a topic that is not muted is an error before 170; from 170 servers differ, so it is not checked there.
    if (!repeatOk) expectRepeat(await member.patch(ENDPOINT, { stream_id: channel.streamId, topic, op: 'remove' }));
    const byName = 'muted by name';
    expectSuccess(await member.patch(ENDPOINT, { stream: channel.name, topic: byName, op: 'add' }));
    check(await isMuted(ctx, channel, byName), 'the topic muted by channel name is not muted');
    expectSuccess(await member.patch(ENDPOINT, { stream: channel.name, topic: byName, op: 'remove' }));
    check(!(await isMuted(ctx, channel, byName)), 'the topic unmuted by channel name is still muted');
  },
};

const malformed: Rule = {
  id: 'muted-topics/malformed-refused',
  title: 'muting with both stream_id and stream, with neither, with an op other than add or remove, without topic, or in an unknown channel is refused with 400, and mutes nothing',
  endpoint: 'PATCH /users/me/subscriptions/muted_topics',
  section: 'api/mute-topic',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const channel = await ownChannel(ctx, 'muted-topics-bad', { members: ['member'] });
    const member = ctx.as('member');
    const topic = 'never muted';
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ stream_id: channel.streamId, stream: channel.name, topic, op: 'add' }, 'BAD_REQUEST'],
      [{ topic, op: 'add' }, 'BAD_REQUEST'],
      [{ stream_id: channel.streamId, topic, op: 'mute' }, 'BAD_REQUEST'],
      [{ stream_id: channel.streamId, op: 'add' }, 'REQUEST_VARIABLE_MISSING'],
      [{ stream: ctx.name('no-such-channel'), topic, op: 'add' }, 'BAD_REQUEST'],
    ];
    for (const [params, code] of cases) expectError(await member.patch(ENDPOINT, params), { status: 400, code });
    check(!(await isMuted(ctx, channel, topic)), 'a refused request muted the topic');
  },
};

export const rules: readonly Rule[] = [muteAndUnmute, malformed];
