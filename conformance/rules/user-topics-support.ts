/**
 * What the `POST /user_topics` rules (sections 3.1, 4.4) share: the levels that changed the
 * endpoint, the policies each level accepts, the member's `user_topics` entries read back from
 * `POST /register`, and the skeleton of a rule the member runs in a channel of its own.
 */
import type { ApiClient } from '../client/api-client.js';
import type { DeviationId } from '../deviations.js';
import { expectShape } from '../expect/assert.js';
import { v } from '../expect/shape.js';
import { type Channel, createChannels, fetchState } from './channel-fixtures.js';
import type { FeatureRange, Rule, RuleContext } from './types.js';

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

export interface MemberTopicRuleSpec {
  readonly id: string;
  readonly title: string;
  readonly section: string;
  /** From the endpoint's level unless narrowed. */
  readonly levels?: FeatureRange;
  readonly deviation?: DeviationId;
  /** Label of the channel the rule creates (the administrator and the member are in it). */
  readonly channel: string;
}

/** A `POST /user_topics` rule run by the member in a new channel of the run it shares with the administrator. */
export function memberTopicRule(spec: MemberTopicRuleSpec, body: (ctx: RuleContext, member: ApiClient, channel: Channel) => Promise<void>): Rule {
  return {
    id: spec.id,
    title: spec.title,
    endpoint: 'POST /user_topics',
    section: spec.section,
    levels: spec.levels ?? { min: USER_TOPIC_LEVELS.ENDPOINT },
    writes: true,
    needs: ['admin', 'member'],
    ...(spec.deviation ? { deviation: spec.deviation } : {}),
    async run(ctx) {
      const [channel] = (await createChannels(ctx, 'admin', [spec.channel], { principals: [ctx.identity('admin').userId, ctx.identity('member').userId] })) as [Channel];
      await body(ctx, ctx.as('member'), channel);
    },
  };
}
