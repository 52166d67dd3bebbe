/**
 * Every transition of section 3.1 on every run (`POST /user_topics`, 4.4): from each visibility
 * policy to each one, itself included, in one walk over all ordered pairs, with the `user_topic`
 * event each change sends to the user (level 134: `stream_id`, `topic_name`, `last_updated`,
 * `visibility_policy`); and the policy values each level accepts (3, followed, from 219).
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import { check, expectEqual, expectError, expectShape, fail } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { type Channel, type EventQueue, openQueue } from '../support/channel-fixtures.js';
import { eventsBeforeSentinel, pollUntil } from '../support/event-waits.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import type { Rule } from '../types.js';
import { clearPolicyLater, memberTopicRule, policiesAt, topicsIn, USER_TOPIC_LEVELS } from './user-topics-support.js';

/**
 * A walk over every ordered pair of `n` states, starting and ending at 0: a de Bruijn sequence of
 * order 2 (each pair appears once as neighbours), closed by its first state.
 */
export function everyTransition(n: number): number[] {
  const out: number[] = [];
  const a = new Array<number>(3).fill(0);
  const visit = (t: number, p: number): void => {
    if (t > 2) {
      if (2 % p === 0) for (let i = 1; i <= p; i++) out.push(a[i]!);
      return;
    }
    a[t] = a[t - p]!;
    visit(t + 1, p);
    for (let j = a[t - p]! + 1; j < n; j++) {
      a[t] = j;
      visit(t + 1, t);
    }
  };
  visit(1, 1);
  return [...out, out[0]!];
}

const userTopicEvent = v.object(
  { id: v.int(), type: v.literal('user_topic'), stream_id: v.int(), topic_name: v.string(), last_updated: v.int({ min: 0 }), visibility_policy: v.int() },
  { exact: true },
);

const isUserTopicFor = (streamId: number, topic: string) => (event: JsonObject): boolean => event.type === 'user_topic' && event.stream_id === streamId && event.topic_name === topic;

async function setPolicy(client: ApiClient, streamId: number, topic: string, policy: number): Promise<void> {
  expectPlainSuccess(await client.post('/user_topics', { stream_id: streamId, topic, visibility_policy: policy }));
}

/** The one `user_topic` event for the topic among `events`, checked against the policy just set. */
function checkEvent(events: readonly JsonObject[], channel: Channel, topic: string, policy: number, step: string, after: number): number {
  const ours = events.filter(isUserTopicFor(channel.streamId, topic));
  check(ours.length === 1, `${step}: expected one user_topic event for the topic, got ${ours.length}: ${JSON.stringify(events)}`);
  const event = expectShape(ours[0], userTopicEvent, `${step}: the user_topic event`);
  expectEqual(event.visibility_policy, policy, `${step}: user_topic event visibility_policy`);
  check(event.last_updated >= after, `${step}: last_updated ${event.last_updated} is older than the previous change (${after})`);
  return event.last_updated;
}

/** Sets the policy after a no-op request as a sentinel: the other topic always changes. */
async function sentinel(client: ApiClient, channel: Channel, topic: string, queue: EventQueue, round: number): Promise<JsonObject[]> {
  return eventsBeforeSentinel(queue, () => setPolicy(client, channel.streamId, topic, round % 2 === 0 ? 1 : 2), isUserTopicFor(channel.streamId, topic), 'a policy change on another topic');
}

const everyTransitionRule = memberTopicRule({
  id: 'user-topics/every-transition-with-event',
  title: 'each change from one visibility policy to another sends the user one user_topic event with the new policy; setting the current policy again succeeds and sends no event with another policy',
  section: '3.1; 4.4; 6',
  channel: 'topic-walk',
}, async (ctx, client, channel) => {
  const topic = `${ctx.name('walk')} Topic`;
  const other = `${ctx.name('sentinel')} topic`;
  for (const name of [topic, other]) clearPolicyLater(ctx, `remove the member's policy for ${name}`, channel.streamId, name);
  const walk = everyTransition(policiesAt(ctx.featureLevel).length);
  const queue = await openQueue(client, ['user_topic']);
  ctx.cleanup('delete the event queue', () => queue.close());
  let last = 0;
  let sentinels = 0;
  for (let i = 1; i < walk.length; i++) {
    const [from, to] = [walk[i - 1]!, walk[i]!];
    const step = `policy ${from} -> ${to} (step ${i})`;
    await setPolicy(client, channel.streamId, topic, to);
    if (from !== to) {
      const events = await pollUntil(queue, (got) => got.some(isUserTopicFor(channel.streamId, topic)));
      last = checkEvent(events, channel, topic, to, step, last);
      continue;
    }
    // No change: the real server sends nothing (older ones repeated the policy); never another one.
    const before = await sentinel(client, channel, other, queue, sentinels++);
    const ours = before.filter(isUserTopicFor(channel.streamId, topic));
    if (ours.length > 0) last = checkEvent(ours, channel, topic, to, step, last);
  }
  const left = (await topicsIn(ctx, client, channel)).filter((entry) => entry.topic_name === topic);
  if (left.length > 0) fail(`the walk ends at policy 0 but user_topics still holds ${JSON.stringify(left)}`);
});

const valuesAtLevel = memberTopicRule({
  id: 'user-topics/policy-values-at-level',
  title: 'visibility_policy -1 and 4 are refused at every level, and 3 (followed) before level 219, with 400 BAD_REQUEST and nothing stored',
  section: '3.1; 4.4; 9.2',
  channel: 'topic-values',
}, async (ctx, client, channel) => {
  const topic = ctx.name('values');
  clearPolicyLater(ctx, `remove the member's policy for ${topic}`, channel.streamId, topic);
  const refused = [-1, 4, ...(ctx.featureLevel < USER_TOPIC_LEVELS.FOLLOWED ? [3] : [])];
  for (const policy of refused) {
    expectError(await client.post('/user_topics', { stream_id: channel.streamId, topic, visibility_policy: policy }), { status: 400, code: 'BAD_REQUEST' });
  }
  const stored = await topicsIn(ctx, client, channel);
  if (stored.length > 0) fail(`refused policies ${refused.join(', ')} stored ${JSON.stringify(stored)}`);
});

export const rules: readonly Rule[] = [everyTransitionRule, valuesAtLevel];
