/**
 * What the edit, move and deletion rules share (`PATCH /messages/{id}`, `DELETE /messages/{id}`):
 * the levels the real server's API changelog dates, the run's channels for edits (created once
 * per run, archived at its end), reading messages back as the API shows them, the system bots
 * that post move notices, and event queues read up to a marker draft of their owner.
 */
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import { expectEqual, expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { v, type Validator } from '../../expect/shape.js';
import { EVENT_DEADLINE_MS, eventsBeforeSentinel } from '../support/event-waits.js';
import { type EventQueue, notArchived, openQueue, principalsFor, streamIdOf } from '../support/channel-fixtures.js';
import { fetchState, type RunChannel } from '../support/message-fixtures.js';
import { fixtureRule, type RuleHeader } from '../support/rule-factory.js';
import type { Rule, RuleContext } from '../types.js';

/** Levels of the real server's API changelog for edits, moves and deletions. */
export const EDIT_LEVELS = {
  /** Legacy `delete_message` events for direct messages lose `sender_id` and `recipient_id`. */
  DELETE_EVENT_NO_DM_SENDER: 77,
  /** Drafts: the marker that bounds what a queue received. */
  DRAFTS: 87,
  /** `update_message` carries `stream_id` for content-only edits of channel messages. */
  STREAM_ID_ALWAYS: 112,
  /** `update_message` always carries `user_id` and `rendering_only`. */
  RENDERING_ONLY: 114,
  /** `GET /messages/{message_id}` returns the message object. */
  MESSAGE_GET: 120,
  /** `send_notification_to_old_thread` defaults to false; both notices apply to topic-only moves. */
  NOTICES_FOR_TOPIC_MOVES: 152,
  /** Moving topics no longer depends on `allow_message_editing`. */
  TOPIC_EDIT_DECOUPLED: 159,
  /** Move time limits are realm settings. */
  MOVE_LIMITS: 162,
  /** Unknown parameters reported in `ignored_parameters_unsupported`. */
  IGNORED: 167,
  /** `delete_message` also reaches the user who deleted. */
  DELETE_EVENT_TO_DELETER: 274,
  DELETE_ANY_GROUP: 281,
  /** The edit answer carries `detached_uploads`. */
  DETACHED_UPLOADS: 285,
  DELETE_OWN_GROUP: 291,
  MOVE_CHANNELS_GROUP: 310,
  MOVE_TOPICS_GROUP: 316,
  /** The empty topic is a valid topic; `allow_empty_topic_name`, `empty_topic_name`. */
  EMPTY_TOPIC: 334,
  EDIT_TYPING: 351,
  EDIT_TYPING_PATH: 361,
  RESOLVE_GROUP: 367,
  /** `'(no topic)'` is read as the empty topic. */
  NO_TOPIC_ALIAS: 370,
  PREV_CONTENT_SHA256: 379,
  /** `message_ids` of `update_message` and `delete_message` are sorted. */
  SORTED_IDS: 393,
  /** Channel-level move settings (and the administrators' exemption they come with). */
  CHANNEL_MOVE_GROUPS: 396,
  CHANNEL_RESOLVE_GROUP: 402,
  CHANNEL_DELETE_GROUPS: 407,
} as const;

/** No Notification Bot notices: for moves whose notices are not what the rule checks. */
export const QUIET = { send_notification_to_old_thread: false, send_notification_to_new_thread: false } as const;

/** The run's channels for edits: two public ones every identity is in, a private one of the administrator and the member. */
export interface EditChannels {
  readonly open: RunChannel;
  readonly other: RunChannel;
  readonly secret: RunChannel;
}

async function createEditChannel(ctx: RuleContext, label: string, userIds: readonly number[], inviteOnly: boolean): Promise<RunChannel> {
  const name = ctx.name(label);
  const admin = ctx.as('admin');
  const principals = await principalsFor(ctx, admin, userIds);
  const reply = await admin.post('/users/me/subscriptions', { subscriptions: [{ name, description: '' }], invite_only: inviteOnly, principals });
  ctx.cleanup(`archive the edit channel ${name}`, async (c) => {
    const id = (await c.as('admin').get('/get_stream_id', { stream: name })).body?.stream_id;
    if (typeof id !== 'number') return;
    const archived = await c.as('admin').delete(`/streams/${id}`);
    if (archived.status === 200) return;
    await c.as('admin').delete('/users/me/subscriptions', { subscriptions: [name], principals });
    c.note(notArchived(name, archived.status));
  }, { scope: 'run' });
  expectSuccess(reply);
  return { id: await streamIdOf(admin, name), name };
}

/**
 * The run's edit channels, created once by the administrator (the rule must list `admin`): every
 * human identity of the run is subscribed to `open` and `other`; only the administrator and the
 * member (when the run has one) to the private `secret`.
 */
export function editChannels(ctx: RuleContext): Promise<EditChannels> {
  return ctx.runShared('edit-channels', async () => {
    const humans = ctx.identities.filter((identity) => !identity.isBot).map((identity) => identity.userId);
    const admin = ctx.identity('admin').userId;
    const member = ctx.identities.find((identity) => identity.role === 'member' && !identity.isBot)?.userId;
    return {
      open: await createEditChannel(ctx, 'edit-open', humans, false),
      other: await createEditChannel(ctx, 'edit-other', humans, false),
      secret: await createEditChannel(ctx, 'edit-secret', member === undefined ? [admin] : [admin, member], true),
    };
  });
}

/** A fresh message of the member in the run's open edit channel: what a member-message rule starts from. */
export interface MemberMessage {
  readonly channels: EditChannels;
  readonly member: ApiClient;
  readonly id: number;
  /** The raw content it was sent with (already in normal form). */
  readonly content: string;
}

async function memberMessage(ctx: RuleContext): Promise<MemberMessage> {
  const channels = await editChannels(ctx);
  const member = ctx.as('member');
  const content = ctx.name('original');
  return { channels, member, id: await send(member, channels.open, ctx.name('topic'), content), content };
}

/** A `PATCH /messages/{message_id}` rule whose run starts from a fresh message of the member. */
export const memberMessageRule = (header: RuleHeader, body: (ctx: RuleContext, message: MemberMessage) => Promise<void>): Rule =>
  fixtureRule(header, { endpoint: 'PATCH /messages/{message_id}', writes: true, needs: ['admin', 'member'] }, memberMessage, body);

/** A message as `GET /messages` shows it (raw content). */
export interface StoredMessage {
  readonly id: number;
  readonly content: string;
  readonly topic: string;
  readonly streamId: number | undefined;
  readonly senderId: number;
  readonly flags: readonly string[];
  readonly timestamp: number;
  readonly lastEditTimestamp: number | undefined;
  readonly raw: JsonObject;
}

const messageShape = v.object({ id: v.int(), content: v.string(), sender_id: v.int(), flags: v.array(v.string()), timestamp: v.int() });

function stored(message: JsonObject): StoredMessage {
  const m = expectShape(message, messageShape, 'message');
  const topic = message.subject ?? message.topic;
  return {
    id: m.id,
    content: m.content,
    topic: typeof topic === 'string' ? topic : '',
    streamId: typeof message.stream_id === 'number' ? message.stream_id : undefined,
    senderId: m.sender_id,
    flags: m.flags,
    timestamp: m.timestamp,
    lastEditTimestamp: typeof message.last_edit_timestamp === 'number' ? message.last_edit_timestamp : undefined,
    raw: message,
  };
}

async function fetchMessages(client: ApiClient, params: Readonly<Record<string, unknown>>): Promise<StoredMessage[]> {
  const reply = await client.get('/messages', params);
  const body = expectShape(expectSuccess(reply), v.object({ messages: v.array(v.object({ id: v.int() })) }), 'body', reply);
  return (body.messages as unknown as JsonObject[]).map(stored);
}

/** The message with this ID as `client` sees it (raw content, or HTML with `markdown`), or undefined when it cannot. */
export async function readMessage(client: ApiClient, id: number, markdown = false, extra: Readonly<Record<string, unknown>> = {}): Promise<StoredMessage | undefined> {
  const narrow = [{ operator: 'id', operand: String(id) }];
  const reply = await client.get('/messages', { anchor: id, num_before: 0, num_after: 0, narrow, apply_markdown: markdown, ...extra });
  if (reply.status !== 200) return undefined;
  const messages = (reply.body?.messages ?? []) as JsonObject[];
  const found = messages.find((message) => message.id === id);
  return found === undefined ? undefined : stored(found);
}

/** `readMessage`, failing when the client cannot see the message. */
export async function mustRead(client: ApiClient, id: number, markdown = false, extra: Readonly<Record<string, unknown>> = {}): Promise<StoredMessage> {
  return (await readMessage(client, id, markdown, extra)) ?? fail(`message ${id} should be readable, GET /messages does not return it`);
}

/** The newest messages of a narrow, oldest first (raw content). */
export function newestIn(client: ApiClient, narrow: ReadonlyArray<{ readonly operator: string; readonly operand: string }>, count = 100): Promise<StoredMessage[]> {
  return fetchMessages(client, { anchor: 'newest', num_before: count, num_after: 0, narrow, apply_markdown: false });
}

/** Every message of a topic of a channel, oldest first (raw content). */
export function topicMessages(client: ApiClient, channel: RunChannel, topic: string): Promise<StoredMessage[]> {
  return newestIn(client, [{ operator: 'stream', operand: channel.name }, { operator: 'topic', operand: topic }]);
}

/** The messages of one channel and topic among `messages`. */
export const inPlace = (messages: readonly StoredMessage[], channel: RunChannel, topic: string): StoredMessage[] =>
  messages.filter((message) => message.streamId === channel.id && message.topic === topic);

/** The user IDs of the system bots (`cross_realm_bots`), which post the Notification Bot notices. */
export function systemBotIds(ctx: RuleContext): Promise<ReadonlySet<number>> {
  return ctx.runShared('system-bot-ids', async () => {
    const state = await fetchState(ctx.as('admin'), ['realm_user']);
    const bots = Array.isArray(state.cross_realm_bots) ? (state.cross_realm_bots as JsonObject[]) : [];
    return new Set(bots.map((bot) => bot.user_id).filter((id): id is number => typeof id === 'number'));
  });
}

/** Sends a channel message and returns its ID. */
export async function send(client: ApiClient, channel: RunChannel, topic: string, content: string): Promise<number> {
  const reply = await client.post('/messages', { type: 'stream', to: channel.id, topic, content });
  return expectShape(expectSuccess(reply), v.object({ id: v.int({ min: 1 }) }), 'body', reply).id;
}

/** Sends a direct message to the given users and returns its ID. */
export async function sendDirect(client: ApiClient, to: readonly number[], content: string): Promise<number> {
  const reply = await client.post('/messages', { type: 'private', to, content });
  return expectShape(expectSuccess(reply), v.object({ id: v.int({ min: 1 }) }), 'body', reply).id;
}

/** An event queue of `client`'s user for `types` (and `drafts`, for the marker), deleted after the rule. */
export async function markedQueue(ctx: RuleContext, client: ApiClient, types: readonly string[], capabilities: Readonly<Record<string, boolean>> = {}): Promise<EventQueue> {
  const queue = await openQueue(client, [...types, 'drafts'], capabilities);
  ctx.cleanup('delete the event queue', async () => queue.close());
  return queue;
}

const isMarker = (content: string) => (event: JsonObject): boolean =>
  event.type === 'drafts' && event.op === 'add' && Array.isArray(event.drafts) && (event.drafts as JsonObject[]).some((draft) => draft.content === content);

/**
 * Everything `queue` received before a marker draft its owner (`client`) saved after the action
 * under test: events reach a queue in the order they were sent, so whatever the action sent (or
 * would have sent) is among them. The draft is deleted again.
 */
export async function eventsBeforeMarker(client: ApiClient, queue: EventQueue): Promise<JsonObject[]> {
  const content = `edit-rules marker ${Date.now().toString(36)} ${Math.random().toString(36).slice(2)}`;
  let draftId: number | undefined;
  try {
    return await eventsBeforeSentinel(
      queue,
      async () => {
        const reply = await client.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content }] });
        const ids = expectSuccess(reply).ids;
        draftId = Array.isArray(ids) && typeof ids[0] === 'number' ? ids[0] : undefined;
      },
      isMarker(content),
      `the marker draft (${EVENT_DEADLINE_MS / 1000} s)`,
    );
  } finally {
    if (draftId !== undefined) await client.delete(`/drafts/${draftId}`);
  }
}

/** The events of `type` about message `id` (its `message_id`, or `message_ids` containing it). */
export function eventsAbout(events: readonly JsonObject[], type: string, id: number): JsonObject[] {
  return events.filter((event) => event.type === type && (event.message_id === id || (Array.isArray(event.message_ids) && event.message_ids.includes(id))));
}

/** The one event of `events`, of the shape `validator` gives (failing, with `what`, when there are none, several or it differs). */
export function oneEvent<T>(events: readonly JsonObject[], validator: Validator<T>, what: string): T {
  expectEqual(events.length, 1, `${what}: how many`);
  return expectShape(events[0], validator, what);
}

/** Three messages of the member and the second member, in turn, in a fresh topic of `channel`. */
export async function threeMessages(ctx: RuleContext, channel: RunChannel): Promise<{ topic: string; ids: number[] }> {
  const topic = ctx.name('topic');
  const ids: number[] = [];
  for (const who of ['member', 'second-member', 'member'] as const) ids.push(await send(ctx.as(who), channel, topic, ctx.name('content')));
  return { topic, ids };
}

/** Ascending numeric copy. */
export const ascending = (ids: Iterable<number>): number[] => [...ids].sort((a, b) => a - b);
