/**
 * What the `POST /mark_topic_as_read` rules (section 4.11) share: the level from which a
 * message's flags can be read back, that read-back, and the rule skeleton in which the member
 * sends and the second member marks topics read in channels the administrator creates.
 */
import type { ApiClient } from '../../client/api-client.js';
import { expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { createChannel, type RunChannel } from '../support/message-fixtures.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';

/** Level 120: `GET /messages/{id}` returns the message object with the caller's flags. */
export const MESSAGE_FLAGS_LEVEL = 120;

/** Whether message `id` carries the `read` flag for the caller (`GET /messages/{id}`). */
export async function isRead(client: ApiClient, id: number): Promise<boolean> {
  const reply = await client.get(`/messages/${id}`);
  const body = expectShape(expectSuccess(reply), v.object({ message: v.object({ id: v.int(), flags: v.array(v.string()) }) }), 'body', reply);
  return body.message.flags.includes('read');
}

/** The member who sends, the second member who marks read, and a way to make channels both are in. */
export interface MarkTopicParties {
  readonly sender: ApiClient;
  readonly reader: ApiClient;
  /** A public channel of the run (the administrator, the sender and the reader subscribed), removed at the end. */
  readonly sharedChannel: (label: string) => Promise<RunChannel>;
}

/** A `POST /mark_topic_as_read` rule where the member sends and the second member reads. */
export function markTopicRule(header: RuleHeader, body: (ctx: RuleContext, parties: MarkTopicParties) => Promise<void>): Rule {
  const prepare = async (ctx: RuleContext): Promise<MarkTopicParties> => ({
    sender: ctx.as('member'),
    reader: ctx.as('second-member'),
    sharedChannel: (label) => createChannel(ctx, 'admin', label, { members: ['member', 'second-member'] }),
  });
  return fixtureRule(header, { endpoint: 'POST /mark_topic_as_read', writes: true, needs: ['admin', 'member', 'second-member'] }, prepare, body);
}
