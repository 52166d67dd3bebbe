/**
 * Fixtures shared by the channel, typing and topic rules: channels the run creates (archived or
 * left at the end), the realm limits `POST /register` publishes (section 8), event queues, and
 * the user directory. Everything is looked up on the target; nothing assumes development data.
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import type { CleanupContext } from '../../cleanup.js';
import type { IdentityName } from '../../credentials/types.js';
import { check, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import type { RuleContext } from '../types.js';

/** A channel the rule created: its stored name and ID. */
export interface Channel {
  readonly name: string;
  readonly streamId: number;
}

/** Feature level at which subscribe responses are keyed by user ID instead of API email (4.1). */
export const KEYED_BY_ID_LEVEL = 289;

const IDENTITY_NAMES: readonly IdentityName[] = ['admin', 'owner', 'moderator', 'member', 'second-member', 'guest'];

export interface ChannelOptions {
  readonly inviteOnly?: boolean;
  /** User IDs to subscribe; the creator alone when absent (section 4.1 rule 1). */
  readonly principals?: readonly number[];
  readonly description?: string;
  /** Further subscribe parameters (group settings...). */
  readonly extra?: ReadonlyArray<readonly [string, unknown]>;
}

/**
 * Creates one channel per label as `who` (one request), registers its removal, and returns the
 * channels with their IDs (looked up through `GET /get_stream_id` as the creator, so a private
 * channel's principals must include the creator).
 */
export async function createChannels(ctx: RuleContext, who: IdentityName, labels: readonly string[], options: ChannelOptions = {}): Promise<Channel[]> {
  const client = ctx.as(who);
  const names = labels.map((label) => ctx.name(label));
  const params: Array<readonly [string, unknown]> = [
    ['subscriptions', names.map((name) => (options.description === undefined ? { name } : { name, description: options.description }))],
    ...(options.inviteOnly === undefined ? [] : [['invite_only', options.inviteOnly] as const]),
    ...(options.principals === undefined ? [] : [['principals', await principalsFor(ctx, client, options.principals)] as const]),
    ...(options.extra ?? []),
  ];
  const reply = await client.post('/users/me/subscriptions', params);
  // Registered before checking the answer: a half-created set is removed as well.
  ctx.cleanup(`remove channels ${names.join(', ')}`, (c) => removeChannels(c, names));
  expectSuccess(reply);
  const channels: Channel[] = [];
  for (const name of names) channels.push({ name, streamId: await streamIdOf(client, name) });
  return channels;
}

/** Level 9: `principals` may be user IDs; API emails before. */
export const INTEGER_PRINCIPALS_LEVEL = 9;

/** `principals` as the level takes them: the IDs, or below level 9 the users' API emails. */
export async function principalsFor(ctx: RuleContext, client: ApiClient, userIds: readonly number[]): Promise<ReadonlyArray<number | string>> {
  if (ctx.featureLevel >= INTEGER_PRINCIPALS_LEVEL) return userIds;
  const directory = await userDirectory(client);
  return userIds.map((id) => directory.get(id)?.email ?? String(id));
}

/**
 * Sends one subscribe request as `who` that may create the channel `name` (a refusal is part of
 * what the caller checks) and registers the channel's removal unless the request was refused.
 */
export async function attemptChannel(ctx: RuleContext, who: IdentityName, name: string, params: ReadonlyArray<readonly [string, unknown]>): Promise<Reply> {
  const reply = await ctx.as(who).post('/users/me/subscriptions', [['subscriptions', [{ name }]], ...params]);
  if (reply.status !== 400 && reply.status !== 403) ctx.cleanup(`remove channel ${name}`, (c) => removeChannels(c, [name]));
  return reply;
}

/** `GET /get_stream_id` for a name the client can access. */
export async function streamIdOf(client: ApiClient, name: string): Promise<number> {
  const reply = await client.get('/get_stream_id', { stream: name });
  return expectShape(expectSuccess(reply), v.object({ stream_id: v.int({ min: 1 }) }), 'body', reply).stream_id;
}

/** Whether `name` names a channel the client can see (get_stream_id succeeds). */
export async function channelExists(client: ApiClient, name: string): Promise<boolean> {
  return (await client.get('/get_stream_id', { stream: name })).status === 200;
}

/**
 * Best-effort removal: archive (`DELETE /streams/{id}`, real servers) as an administrator or a
 * channel administrator; where that is not available, every identity of the run leaves it.
 */
async function removeChannels(c: CleanupContext, names: readonly string[]): Promise<void> {
  const clients: ApiClient[] = [];
  for (const who of IDENTITY_NAMES) {
    try {
      clients.push(c.as(who));
    } catch {
      // The run lacks this identity.
    }
  }
  const remaining: Array<{ name: string; status: number }> = [];
  for (const name of names) {
    let status = 0;
    for (const client of clients) {
      const id = await client.get('/get_stream_id', { stream: name });
      const streamId = id.body?.stream_id;
      if (typeof streamId !== 'number') continue;
      status = (await client.delete(`/streams/${streamId}`)).status;
      break;
    }
    if (status !== 200) remaining.push({ name, status });
  }
  if (remaining.length === 0) return;
  const left = remaining.map((entry) => entry.name);
  for (const client of clients) {
    const reply = await client.delete('/users/me/subscriptions', { subscriptions: left });
    if (reply.status !== 200 && reply.status !== 400) throw new Error(`leaving ${left.join(', ')}: HTTP ${reply.status}`);
  }
  for (const entry of remaining) c.note(notArchived(entry.name, entry.status));
}

/** The note for a channel the target would not archive (every identity of the run left it). */
export function notArchived(name: string, status: number): string {
  return `channel ${name} not archived (DELETE /streams/{id} ${status === 0 ? 'not sent: no identity could see it' : `answered HTTP ${status}`}): the run's identities left it, it stays active on the target`;
}

/** The limits of section 8 as `POST /register` publishes them (`realm` state). */
export interface RealmLimits {
  readonly maxStreamNameLength: number;
  readonly maxStreamDescriptionLength: number;
  readonly maxTopicLength: number;
  /** `realm_empty_topic_display_name` (level 334); undefined before. */
  readonly emptyTopicDisplayName: string | undefined;
}

/**
 * Registers a queue, returns its initial state and deletes the queue again (the state is what
 * matters; real servers would otherwise keep the queue for minutes).
 */
export async function fetchState(client: ApiClient, fetchEventTypes: readonly string[], capabilities: Readonly<Record<string, boolean>> = {}): Promise<JsonObject> {
  const queue = await openQueue(client, fetchEventTypes, capabilities);
  await queue.close();
  return queue.state;
}

/** A registered event queue: its initial state, a poll that never blocks, and its deletion. */
export interface EventQueue {
  readonly state: JsonObject;
  /** Events since the last poll (`GET /events` with `dont_block=true`). */
  poll(): Promise<JsonObject[]>;
  close(): Promise<void>;
  /** The client that polls it: event waits take their deadline from it (rate-limit waits not counted). */
  readonly client?: ApiClient;
}

export async function openQueue(client: ApiClient, eventTypes: readonly string[], capabilities: Readonly<Record<string, boolean>> = {}): Promise<EventQueue> {
  return queueOf(client, await client.post('/register', { event_types: eventTypes, fetch_event_types: eventTypes, client_capabilities: capabilities }));
}

/** The queue a `POST /register` answer created (fails unless it succeeded). */
export function queueOf(client: ApiClient, reply: Reply): EventQueue {
  const state = expectShape(expectSuccess(reply), v.object({ queue_id: v.string({ nonEmpty: true }), last_event_id: v.int({ min: -1 }) }), 'register', reply);
  let lastEventId = state.last_event_id;
  return {
    state,
    client,
    async poll() {
      const got = await client.get('/events', { queue_id: state.queue_id, last_event_id: lastEventId, dont_block: true });
      const events = expectShape(expectSuccess(got), v.object({ events: v.array(v.object({ id: v.int(), type: v.string() })) }), 'events', got).events;
      for (const event of events) lastEventId = Math.max(lastEventId, event.id);
      return events;
    },
    async close() {
      await client.delete('/events', { queue_id: state.queue_id });
    },
  };
}

export async function realmLimits(client: ApiClient): Promise<RealmLimits> {
  const state = await fetchState(client, ['realm']);
  const int = (key: string, fallback: number) => (typeof state[key] === 'number' ? (state[key] as number) : fallback);
  // Before level 53 the limits were fixed at 60 / 1024 / 60 (the real OpenAPI register-queue description).
  return {
    maxStreamNameLength: int('max_stream_name_length', 60),
    maxStreamDescriptionLength: int('max_stream_description_length', 1024),
    maxTopicLength: int('max_topic_length', 60),
    emptyTopicDisplayName: typeof state.realm_empty_topic_display_name === 'string' ? state.realm_empty_topic_display_name : undefined,
  };
}

export interface DirectoryUser {
  readonly userId: number;
  /** The API email (what pre-289 subscribe responses are keyed by). */
  readonly email: string;
  readonly isActive: boolean;
}

/** `GET /users` as `client`: every user it can see, by ID. */
export async function userDirectory(client: ApiClient): Promise<Map<number, DirectoryUser>> {
  const reply = await client.get('/users');
  const members = expectShape(
    expectSuccess(reply),
    v.object({ members: v.array(v.object({ user_id: v.int({ min: 1 }), email: v.string(), is_active: v.bool() })) }),
    'body',
    reply,
  ).members;
  return new Map(members.map((user) => [user.user_id, { userId: user.user_id, email: user.email, isActive: user.is_active }]));
}

/** User IDs no user of the directory has: above the highest, up to the 32-bit limit. */
export function highestUserId(directory: ReadonlyMap<number, DirectoryUser>): number {
  return Math.max(0, ...directory.keys());
}

/** The key a subscribe response uses for a user: the ID since level 289, the API email before. */
export function responseKey(ctx: RuleContext, directory: ReadonlyMap<number, DirectoryUser>, userId: number): string {
  if (ctx.featureLevel >= KEYED_BY_ID_LEVEL) return String(userId);
  const user = directory.get(userId);
  check(user !== undefined, `user ${userId} is not in GET /users`);
  return user.email;
}

/** The channel names listed under `key` in a subscribe response map (missing key: none). */
export function namesUnder(map: unknown, key: string): string[] {
  if (map === null || typeof map !== 'object' || !Object.prototype.hasOwnProperty.call(map, key)) return [];
  const value = (map as Record<string, unknown>)[key];
  return Array.isArray(value) ? value.map(String) : [];
}

/** `GET /users/me/subscriptions` as `client`: the raw entries (shape checked by the caller). */
export async function ownSubscriptions(client: ApiClient, includeSubscribers?: boolean): Promise<{ reply: Reply; entries: JsonObject[] }> {
  const reply = await client.get('/users/me/subscriptions', includeSubscribers === undefined ? {} : { include_subscribers: includeSubscribers });
  const body = expectShape(expectSuccess(reply), v.object({ subscriptions: v.array(v.object({ stream_id: v.int(), name: v.string() })) }), 'body', reply);
  return { reply, entries: body.subscriptions as unknown as JsonObject[] };
}

/** Sorted copy, for order-insensitive comparisons. */
export const sorted = <T extends string | number>(values: Iterable<T>): T[] => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
