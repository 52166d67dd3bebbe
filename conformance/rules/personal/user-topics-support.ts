/**
 * What the `POST /user_topics` rules (sections 3.1, 4.4) share: the levels that changed the
 * endpoint, the policies each level accepts, the member's `user_topics` entries read back from
 * `POST /register`, and the skeleton of a rule the member runs in a channel of its own.
 */
import type { ApiClient } from '../../client/api-client.js';
import { expectShape } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { type Channel, createChannels, fetchState } from '../support/channel-fixtures.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';

/** The endpoint (170), the followed policy 3 (219), the empty-topic display name (334). */
export const USER_TOPIC_LEVELS = { ENDPOINT: 170, FOLLOWED: 219, EMPTY_TOPIC: 334 } as const;

/** The policies a level accepts (followed, 3, from 219). */
export const policiesAt = (level: number): number[] => (level >= USER_TOPIC_LEVELS.FOLLOWED ? [0, 1, 2, 3] : [0, 1, 2]);

/** A `user_topics` entry of register (the real OpenAPI register-queue description, additionalProperties false). */
const userTopicShape = v.object(
  { stream_id: v.int({ min: 1 }), topic_name: v.string(), last_updated: v.int({ min: 0 }), visibility_policy: v.literal(1, 2, 3) },
  { exact: true },
);

/** The caller's user_topics entries for one channel (registering with the empty_topic_name capability where it exists). */
export async function topicsIn(ctx: RuleContext, client: ApiClient, channel: Channel): Promise<Array<{ topic_name: string; visibility_policy: number }>> {
  const capabilities: Record<string, boolean> = ctx.featureLevel >= USER_TOPIC_LEVELS.EMPTY_TOPIC ? { empty_topic_name: true } : {};
  const state = await fetchState(client, ['user_topic'], capabilities);
  const entries = expectShape(state.user_topics, v.array(userTopicShape), 'user_topics', undefined);
  return entries.filter((entry) => entry.stream_id === channel.streamId);
}

/** Registers the removal of the member's policy for the topic when the rule ends. */
export function clearPolicyLater(ctx: RuleContext, label: string, streamId: number, topic: string): void {
  ctx.cleanup(label, async (c) => void (await c.as('member').post('/user_topics', { stream_id: streamId, topic, visibility_policy: 0 })));
}

/** A `POST /user_topics` rule (from the endpoint's level unless narrowed) run by the member in a new channel of the run (labelled `channel`) it shares with the administrator. */
export function memberTopicRule(header: RuleHeader & { readonly channel: string }, body: (ctx: RuleContext, member: ApiClient, channel: Channel) => Promise<void>): Rule {
  const defaults = { endpoint: 'POST /user_topics', levels: { min: USER_TOPIC_LEVELS.ENDPOINT }, writes: true, needs: ['admin', 'member'] } as const;
  const prepare = async (ctx: RuleContext) => (await createChannels(ctx, 'admin', [header.channel], { principals: [ctx.identity('admin').userId, ctx.identity('member').userId] }))[0] as Channel;
  return fixtureRule(header, defaults, prepare, (ctx, channel) => body(ctx, ctx.as('member'), channel));
}
