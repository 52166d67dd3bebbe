/**
 * What the rules on reactions, personal flags, unread messages and read receipts share: the
 * feature levels at which their behaviour changes (real API changelog), reading a message back
 * as one identity sees it, changing flags, narrows on the run's own topics, event queues deleted
 * after the rule, and messages one identity cannot read. Every message these rules look at is
 * one the run sent, in a channel or conversation the run made.
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import { type ErrorExpectation, expectError, expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { type EventQueue, openQueue } from '../support/channel-fixtures.js';
import { EVENT_DEADLINE_MS, pollUntil } from '../support/event-waits.js';
import { createChannel, FAR_ID_FLOOR, type RunChannel, runChannel, sendToChannel } from '../support/message-fixtures.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { IdentityName } from '../../credentials/types.js';
import type { Rule, RuleContext } from '../types.js';

/** Feature levels of the behaviours these rules check (the real server's API changelog). */
export const LEVEL = {
  /** Reactions carry `user_id` (the `user` object deprecated). */
  REACTION_USER_ID: 2,
  /** `update_message_flags` events carry `op` (`operation` kept). */
  FLAG_EVENT_OP: 32,
  /** `unread_msgs.old_unreads_missing`. */
  OLD_UNREADS_MISSING: 44,
  /** `unread_msgs.streams` lose `sender_ids`. */
  UNREAD_NO_SENDER_IDS: 90,
  /** The `send_read_receipts` personal setting. */
  READ_RECEIPT_SETTING: 105,
  /** `unread_msgs.pms` carry `other_user_id`. */
  UNREAD_OTHER_USER_ID: 119,
  /** `GET /messages/{id}` answers the message object with the caller's flags and the reactions. */
  MESSAGE_OBJECT: 120,
  /** `message_details` in `update_message_flags` events that remove `read`. */
  FLAG_EVENT_DETAILS: 121,
  /** `GET /messages/{id}/read_receipts` and `realm_enable_read_receipts`. */
  READ_RECEIPTS: 137,
  /** `POST /messages/flags/narrow`; flag events list only the messages whose flag changed. */
  FLAGS_NARROW: 155,
  /** `REACTION_ALREADY_EXISTS` / `REACTION_DOES_NOT_EXIST` (`BAD_REQUEST` before). */
  REACTION_CODES: 193,
  /** `POST /mark_all_as_read` answers `complete`. */
  MARK_ALL_COMPLETE: 211,
  /** Reactions in message objects and events lose the legacy `user` object. */
  REACTION_USER_REMOVED: 328,
  /** `reaction` events carry the legacy `user` object again (messages do not). */
  REACTION_EVENT_USER_BACK: 339,
  /** `ignored_because_not_subscribed_channels` in flag answers. */
  IGNORED_CHANNELS: 355,
} as const;

/** A message as one identity sees it through `GET /messages/{id}` (level 120). */
export interface MessageView {
  readonly flags: string[];
  readonly reactions: JsonObject[];
  readonly reply: Reply;
}

const messageShape = v.object({ message: v.object({ id: v.int(), flags: v.array(v.string()), reactions: v.array(v.object({})) }) });

/** `GET /messages/{id}` as `client`: the caller's flags and the message's reactions. */
export async function viewMessage(client: ApiClient, id: number): Promise<MessageView> {
  const reply = await client.get(`/messages/${id}`);
  const { message } = expectShape(expectSuccess(reply), messageShape, 'body', reply);
  return { flags: message.flags, reactions: message.reactions as JsonObject[], reply };
}

/** `POST /messages/flags`. */
export const postFlags = (client: ApiClient, op: string, flag: string, messages: readonly number[]): Promise<Reply> =>
  client.post('/messages/flags', { messages: [...messages], op, flag });

/** The narrow of one topic of a channel (operators every level knows). */
export const topicNarrow = (channel: RunChannel, topic: string, ...more: ReadonlyArray<readonly [string, string]>): JsonObject[] => [
  { operator: 'stream', operand: channel.name },
  { operator: 'topic', operand: topic },
  ...more.map(([operator, operand]) => ({ operator, operand })),
];

/** The messages of a narrow as `client` sees them (oldest first, at most 100): IDs and flags. */
export async function narrowMessages(client: ApiClient, narrow: readonly JsonObject[]): Promise<Array<{ id: number; flags: string[] }>> {
  const reply = await client.get('/messages', { anchor: 'oldest', num_before: 0, num_after: 100, narrow: [...narrow], apply_markdown: false });
  const body = expectShape(expectSuccess(reply), v.object({ messages: v.array(v.object({ id: v.int(), flags: v.array(v.string()) })) }), 'body', reply);
  return body.messages.map((message) => ({ id: message.id, flags: message.flags }));
}

/** Sends a direct message (one-on-one or group) as `client` to the user IDs; returns its ID. */
export async function sendDirect(client: ApiClient, to: readonly number[], content: string): Promise<number> {
  const reply = await client.post('/messages', { type: 'private', to: [...to], content });
  return expectShape(expectSuccess(reply), v.object({ id: v.int({ min: 1 }) }), 'body', reply).id;
}

/** An event queue of `client`'s user for these event types, deleted after the rule. */
export async function ruleQueue(ctx: RuleContext, client: ApiClient, types: readonly string[], capabilities: Readonly<Record<string, boolean>> = {}): Promise<EventQueue> {
  const queue = await openQueue(client, types, capabilities);
  ctx.cleanup(`delete the ${types.join('/')} queue`, async () => queue.close());
  return queue;
}

/** Whether `event` is the `drafts` add event of a draft with this content. */
const isMarker = (content: string) => (event: JsonObject): boolean =>
  event.type === 'drafts' && event.op === 'add' && Array.isArray(event.drafts) && (event.drafts as JsonObject[]).some((draft) => draft.content === content);

/**
 * What `queue` (which takes `drafts` events) has received until now. Its owner saves a marker
 * draft: drafts events reach only the owner and arrive after every earlier event, so once the
 * marker's event is in, nothing sent before is still on its way (a missing event is found at
 * once, not after a deadline). Where the owner cannot save drafts (before level 87), waits until
 * `done` accepts what arrived instead.
 */
export async function eventsSoFar(owner: ApiClient, queue: EventQueue, done: (events: readonly JsonObject[]) => boolean): Promise<JsonObject[]> {
  const content = `events marker ${Date.now().toString(36)} ${Math.random().toString(36).slice(2)}`;
  const created = await owner.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content }] });
  const draftId = Array.isArray(created.body?.ids) ? (created.body.ids as unknown[])[0] : undefined;
  if (created.status !== 200 || typeof draftId !== 'number') return pollUntil(queue, done);
  try {
    const received = await pollUntil(queue, (events) => events.some(isMarker(content)));
    const at = received.findIndex(isMarker(content));
    if (at === -1) fail(`the marker draft's event did not arrive within ${EVENT_DEADLINE_MS / 1000} s`);
    return received.slice(0, at);
  } finally {
    await owner.delete(`/drafts/${draftId}`);
  }
}

/** Events of `type` in `events`. */
export const ofType = (events: readonly JsonObject[], type: string): JsonObject[] => events.filter((event) => event.type === type);

/** The parties of most rules here: the member sends, the second member (or the rule's actor) reads, in the run channel. */
export interface Conversation {
  readonly sender: ApiClient;
  /** The second member, or the identity the rule names as `actor`. */
  readonly reader: ApiClient;
  readonly channel: RunChannel;
  /** Sends `count` messages as the member to a new topic of the run channel; returns the topic and the IDs. */
  readonly thread: (label: string, count: number) => Promise<{ topic: string; ids: number[] }>;
}

/**
 * A rule on the member's messages in the run channel as the second member reads them. Rules whose
 * checks need no second user (tables of refused requests) name another `actor` (the member on
 * its own messages, the administrator), spreading the run's requests over its identities.
 */
export function conversationRule(header: RuleHeader & { readonly endpoint: string; readonly actor?: IdentityName }, body: (ctx: RuleContext, parties: Conversation) => Promise<void>): Rule {
  const actor = header.actor ?? 'second-member';
  const prepare = async (ctx: RuleContext): Promise<Conversation> => {
    const sender = ctx.as('member');
    const channel = await runChannel(ctx);
    return {
      sender,
      reader: ctx.as(actor),
      channel,
      async thread(label, count) {
        const topic = ctx.name(label);
        const ids: number[] = [];
        for (let i = 0; i < count; i++) ids.push(await sendToChannel(sender, channel.id, topic, `${label} ${i + 1}`));
        return { topic, ids };
      },
    };
  };
  return fixtureRule(header, { endpoint: header.endpoint, writes: true, needs: ['admin', 'member', actor] }, prepare, body);
}

/** Messages the second member cannot read, each with what it is. */
export type ForeignMessage = readonly [what: string, id: number];

/**
 * Messages the second member may not read: the member's message in a private channel of the
 * administrator and the member, the member's direct message to the administrator, and an ID no
 * message has. The rule must need `admin`, `member` and `second-member`.
 */
export async function foreignMessages(ctx: RuleContext): Promise<ForeignMessage[]> {
  const secret = await createChannel(ctx, 'admin', 'flags-secret', { inviteOnly: true, members: ['member'] });
  const member = ctx.as('member');
  const inSecret = await sendToChannel(member, secret.id, ctx.name('secret'), 'not for the second member');
  const direct = await sendDirect(member, [ctx.identity('admin').userId], 'between the member and the administrator');
  return [
    ['a message in a private channel the caller is not in', inSecret],
    ['a direct message between two other users', direct],
    ['an ID no message has', FAR_ID_FLOOR + direct],
  ];
}

/** Ascending numeric order (a copy). */
export const ascending = (ids: Iterable<number>): number[] => [...ids].sort((a, b) => a - b);

/** `expectError`, naming the case in the failure (for tables of refused requests). */
export function expectRefused(reply: Reply, expected: ErrorExpectation, what: string): void {
  if (reply.status !== expected.status || reply.body?.code !== expected.code) fail(`${what}: expected HTTP ${expected.status} ${expected.code}`, reply);
  expectError(reply, expected);
}
