/**
 * What the `POST /messages` rules share: the levels of the send API, the realm's message limits
 * and topic rules as `POST /register` publishes them, sending with the answer checked, and
 * reading messages back (as a holder of the message, through `GET /messages`, at every level).
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import { check, expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { fetchState } from '../support/channel-fixtures.js';
import type { RuleContext } from '../types.js';

/** Feature levels of api/send-message and api/get-messages. */
export const SEND = {
  DIRECT_TYPE: 174,
  AUTOMATIC_POLICY: 218,
  READ_BY_SENDER: 236,
  CHANNEL_TYPE: 248,
  CAN_SEND_MESSAGE_GROUP: 333,
  EMPTY_TOPIC: 334,
  NO_TOPIC_ALIAS: 370,
  TOPICS_POLICY: 392,
} as const;

/** The realm's limits and topic rules (api/register-queue; before level 53 the limits were fixed). */
export interface MessageRules {
  readonly maxMessageLength: number;
  readonly maxTopicLength: number;
  /** `realm_empty_topic_display_name` (level 334). */
  readonly emptyTopicName: string | undefined;
  /** Topics required: `realm_mandatory_topics`, or from level 392 `realm_topics_policy` `disable_empty_topic`. */
  readonly topicsRequired: boolean;
}

export async function messageRules(client: ApiClient): Promise<MessageRules> {
  const state = await fetchState(client, ['realm']);
  const int = (key: string, fallback: number) => (typeof state[key] === 'number' ? (state[key] as number) : fallback);
  return {
    maxMessageLength: int('max_message_length', 10000),
    maxTopicLength: int('max_topic_length', 60),
    emptyTopicName: typeof state.realm_empty_topic_display_name === 'string' ? state.realm_empty_topic_display_name : undefined,
    topicsRequired: state.realm_mandatory_topics === true || state.realm_topics_policy === 'disable_empty_topic',
  };
}

/** The `type` values that name a channel at this level. */
export const channelTypes = (level: number): string[] => (level >= SEND.CHANNEL_TYPE ? ['stream', 'channel'] : ['stream']);
/** The `type` values that name a direct message at this level. */
export const directTypes = (level: number): string[] => (level >= SEND.DIRECT_TYPE ? ['private', 'direct'] : ['private']);

/**
 * The success answer of a send: the new message's `id` and, from level 218, at most an
 * `automatic_new_visibility_policy` of 2 (unmuted) or 3 (followed); returns the ID.
 */
export function sentId(ctx: RuleContext, reply: Reply): number {
  const body = expectSuccess(reply, { ignored: [] });
  const answer = expectShape(body, v.object({ id: v.int({ min: 1 }) }), 'body', reply);
  const policy = body.automatic_new_visibility_policy;
  if (ctx.featureLevel < SEND.AUTOMATIC_POLICY) check(policy === undefined, `automatic_new_visibility_policy only exists from level ${SEND.AUTOMATIC_POLICY}`, reply);
  else check(policy === undefined || policy === 2 || policy === 3, `automatic_new_visibility_policy must be 2 or 3 when present, got ${JSON.stringify(policy)}`, reply);
  return answer.id;
}

/** Sends as `client` and returns the new message's ID (answer checked by `sentId`). */
export async function send(ctx: RuleContext, client: ApiClient, params: Record<string, unknown> | ReadonlyArray<readonly [string, unknown]>): Promise<number> {
  return sentId(ctx, await client.post('/messages', params));
}

/** A message as `GET /messages` returns it (raw content). */
export interface ReadMessage extends JsonObject {
  readonly id: number;
  readonly sender_id: number;
  readonly type: string;
  readonly subject: string;
  readonly content: string;
  readonly flags: readonly string[];
  readonly stream_id?: number;
  readonly display_recipient: string | ReadonlyArray<{ readonly id: number }>;
}

const readShape = v.object({
  messages: v.array(
    v.object({
      id: v.int(),
      sender_id: v.int(),
      type: v.string(),
      subject: v.string(),
      content: v.string(),
      flags: v.array(v.string()),
      display_recipient: v.union(v.string(), v.array(v.object({ id: v.int() }))),
    }),
  ),
});

/**
 * Reads one message the client holds (a sender's or recipient's copy), with its raw content,
 * through `GET /messages` anchored at it; fails when it is not returned.
 */
export async function readBack(client: ApiClient, id: number, extra: Record<string, unknown> = {}): Promise<ReadMessage> {
  const reply = await client.get('/messages', { anchor: String(id), num_before: 0, num_after: 0, apply_markdown: false, ...extra });
  const found = expectShape(expectSuccess(reply), readShape, 'body', reply).messages as unknown as ReadMessage[];
  const message = found.find((m) => m.id === id);
  if (!message) fail(`message ${id} was not returned to its holder`, reply);
  return message;
}

/** The newest `count` messages of a narrow (legacy pairs) the client can read, oldest first, with raw content. */
export async function readConversation(client: ApiClient, narrow: ReadonlyArray<readonly [string, string]>, count: number): Promise<ReadMessage[]> {
  const reply = await client.get('/messages', { anchor: 'newest', num_before: count, num_after: 0, apply_markdown: false, narrow });
  return expectShape(expectSuccess(reply), readShape, 'body', reply).messages as unknown as ReadMessage[];
}

/** The participants of a direct message as `display_recipient` lists them, ascending. */
export const participantsOf = (message: ReadMessage): number[] =>
  Array.isArray(message.display_recipient) ? message.display_recipient.map((user) => user.id).sort((a, b) => a - b) : [];

/** A text of exactly `length` code points, astral characters included (the server counts code points). */
export const textOfLength = (length: number, seed = 0): string => Array.from({ length }, (_, i) => ['a', '😀', 'é', '字', 'b'][(i + seed) % 5]).join('');
