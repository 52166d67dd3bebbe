/**
 * What the channel-administration rules share (`/streams`, `/streams/{id}`, default channels,
 * topics): the levels that changed these endpoints, channels of the rule archived by ID at its end
 * (renames and archiving inside the rule are fine), reading a channel back, the stream object's
 * shape, and the refusals whose exact code varies between server versions.
 */
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import type { CleanupContext } from '../../cleanup.js';
import type { IdentityName } from '../../credentials/types.js';
import { check, expectAnyError, expectShape, expectSuccess, fail } from '../../expect/assert.js';
import { type Validator, v } from '../../expect/shape.js';
import { type Channel, notArchived, principalsFor, streamIdOf } from '../support/channel-fixtures.js';
import type { RuleContext } from '../types.js';
import { channelFields, type Field } from './subscription-shape.js';

/** Levels of the channel endpoints' history (the real server's API changelog). */
export const STREAM_LEVELS = {
  IS_SUBSCRIBED_ENDPOINT: 12,
  RETENTION: 17,
  WEB_PUBLIC: 98,
  GET_BY_ID: 132,
  HISTORY_ALONE: 136,
  CAN_REMOVE_SUBSCRIBERS: 142,
  CAN_REMOVE_SUBSCRIBERS_RENAMED: 197,
  IS_DEFAULT_STREAM: 200,
  COMPLETE: 211,
  EMAIL_ADDRESS_ENDPOINT: 226,
  IS_ARCHIVED: 315,
  GROUP_CHANGE_OBJECT: 320,
  ADMINISTER: 325,
  DEFAULT_STREAMS_EVENT_IDS: 330,
  DELETE_EVENT_IDS: 343,
  METADATA_VIA_GROUPS: 349,
  INCLUDE_ALL: 356,
  UNARCHIVE: 388,
  FOLDERS: 389,
  TOPICS_POLICY: 392,
} as const;

export interface OwnChannelOptions {
  readonly inviteOnly?: boolean;
  /** Identities subscribed besides the creator (the administrator unless `creator` says). */
  readonly members?: readonly IdentityName[];
  readonly creator?: IdentityName;
  readonly description?: string;
  /** `run` for channels a `runShared` fixture makes. */
  readonly scope?: 'rule' | 'run';
}

/**
 * Creates a run-tagged channel and registers its archiving by ID (the administrator archives it;
 * a channel the rule already archived is left as it is). The rule lists `admin`, the creator and
 * every member in `needs`.
 */
export async function ownChannel(ctx: RuleContext, label: string, options: OwnChannelOptions = {}): Promise<Channel> {
  const creator = options.creator ?? 'admin';
  const name = ctx.name(label);
  const members = [creator, ...(options.members ?? []).filter((who) => who !== creator)];
  const client = ctx.as(creator);
  const reply = await client.post('/users/me/subscriptions', {
    subscriptions: [{ name, description: options.description ?? '' }],
    invite_only: options.inviteOnly ?? false,
    principals: await principalsFor(ctx, client, members.map((who) => ctx.identity(who).userId)),
  });
  expectSuccess(reply);
  const channel = { name, streamId: await streamIdOf(client, name) };
  ctx.cleanup(`archive channel ${name}`, (c) => archiveUnlessArchived(c, channel, members), { scope: options.scope ?? 'rule' });
  return channel;
}

async function archiveUnlessArchived(c: CleanupContext, channel: Channel, members: readonly IdentityName[]): Promise<void> {
  const admin = c.as('admin');
  const archived = await admin.delete(`/streams/${channel.streamId}`);
  if (archived.status === 200) return;
  const listed = await admin.get('/streams', { include_all_active: true });
  const ids = Array.isArray(listed.body?.streams) ? (listed.body.streams as JsonObject[]).map((entry) => entry.stream_id) : [];
  // Not listed among the active channels: the rule archived it already.
  if (listed.status === 200 && !ids.includes(channel.streamId)) return;
  for (const who of members) await c.as(who).delete('/users/me/subscriptions', { subscriptions: [channel.name] });
  c.note(notArchived(channel.name, archived.status));
}

/** `PATCH /streams/{id}` as `client`. */
export const patchChannel = (client: ApiClient, channel: Channel, params: Readonly<Record<string, unknown>> | ReadonlyArray<readonly [string, unknown]>): Promise<Reply> =>
  client.patch(`/streams/${channel.streamId}`, params);

/**
 * The channel object as `client` reads it: `GET /streams/{id}` (level 132), before it the entry
 * of `GET /streams` (public and subscribed channels: the client must be subscribed to a private one).
 */
export async function readChannel(ctx: RuleContext, client: ApiClient, channel: Channel): Promise<JsonObject> {
  if (ctx.featureLevel >= STREAM_LEVELS.GET_BY_ID) {
    const reply = await client.get(`/streams/${channel.streamId}`);
    return expectShape(expectSuccess(reply), v.object({ stream: streamShape(ctx.featureLevel) }), 'body', reply).stream as JsonObject;
  }
  const { streams, reply } = await listStreams(client, {});
  const entry = streams.find((candidate) => candidate.stream_id === channel.streamId);
  if (!entry) fail(`channel ${channel.name} is not listed by GET /streams`, reply);
  return entry;
}

/** `GET /streams` with `params`: the entries (each a stream object of the level). */
export async function listStreams(client: ApiClient, params: Readonly<Record<string, unknown>>): Promise<{ streams: JsonObject[]; reply: Reply }> {
  const reply = await client.get('/streams', params);
  const body = expectShape(expectSuccess(reply), v.object({ streams: v.array(v.object({ stream_id: v.int({ min: 1 }), name: v.string() })) }), 'body', reply);
  return { streams: body.streams as unknown as JsonObject[], reply };
}

/** The stream object (OpenAPI `BasicChannel`) for a level; none of the subscription's own fields. */
export function streamShape(level: number): Validator<Record<string, unknown>> {
  const fields: Record<string, Field> = { ...channelFields(level), is_default: v.optional(v.bool()) };
  const forbidden = ['color', 'pin_to_top', 'is_muted', 'subscribers', 'desktop_notifications'];
  return v.object(fields as Record<string, Validator<unknown>>, { forbidden }) as Validator<Record<string, unknown>>;
}

/**
 * A refusal: HTTP 400 with one of `codes`. Used where server versions answer the same refusal
 * with different codes (a view's own error against its administrator decorator).
 */
export function expectRefused(reply: Reply, codes: readonly string[], what: string): void {
  const body = expectAnyError(reply, 400);
  check(codes.includes(String(body.code)), `${what}: expected code ${codes.join(' or ')}, got ${String(body.code)}`, reply);
}

/** Whether the identity is an organization administrator or owner. */
export const isOrgAdmin = (ctx: RuleContext, who: IdentityName): boolean => ['owner', 'admin'].includes(ctx.identity(who).role);

/** The `stream_ids` of a `stream` `delete` event (level 343; empty before). */
export const deletedStreamIds = (event: JsonObject): number[] => (Array.isArray(event.stream_ids) ? (event.stream_ids as number[]) : []);

/** Whether `event` is a `stream` `update` of `property` on the channel. */
export const isStreamUpdate = (channel: Channel, property: string) => (event: JsonObject): boolean =>
  event.type === 'stream' && event.op === 'update' && event.stream_id === channel.streamId && event.property === property;
