/**
 * The queues of the convergence check: each observing identity registers as a modern client
 * does, and at the end drains its queue up to a marker it triggers itself, so nothing the run
 * did is still in flight when its state is compared.
 */
import type { ApiClient, JsonObject } from '../client/api-client.js';
import { expectShape, expectSuccess, fail } from '../expect/assert.js';
import { v } from '../expect/shape.js';
import { EVENT_DEADLINE_MS, pollUntil } from '../rules/support/event-waits.js';
import { type EventQueue, queueOf } from '../rules/support/channel-fixtures.js';
import type { QueueEvent, State } from './types.js';

/** Capabilities a modern client declares, each from the level that introduced it. */
const CAPABILITIES: ReadonlyArray<readonly [string, number]> = [
  ['notification_settings_null', 1],
  ['bulk_message_deletion', 1],
  ['user_avatar_url_field_optional', 1],
  ['stream_typing_notifications', 1],
  ['user_settings_object', 1],
  ['linkifier_url_template', 176],
  ['user_list_incomplete', 232],
  ['include_deactivated_groups', 294],
  ['archived_channels', 315],
  ['empty_topic_name', 334],
];

/** `client_capabilities` of a modern client at `level` (avatar URLs kept: they are compared). */
export function modernCapabilities(level: number): Record<string, boolean> {
  return Object.fromEntries(CAPABILITIES.filter(([, from]) => level >= from).map(([name]) => [name, name !== 'user_avatar_url_field_optional']));
}

export interface RegisterParams {
  /** Event types the queue takes (the marker's `drafts` included). */
  readonly eventTypes: readonly string[];
  /** State types fetched. */
  readonly fetchTypes: readonly string[];
  readonly includeSubscribers: boolean;
  readonly capabilities: Readonly<Record<string, boolean>>;
}

export interface ObserverQueue extends EventQueue {
  readonly state: State;
}

/** `POST /register` as a modern client; the queue's events come through `poll`. */
export async function registerQueue(client: ApiClient, params: RegisterParams): Promise<ObserverQueue> {
  const reply = await client.post('/register', {
    event_types: params.eventTypes,
    fetch_event_types: params.fetchTypes,
    client_capabilities: params.capabilities,
    include_subscribers: String(params.includeSubscribers),
    apply_markdown: true,
  });
  const queue = queueOf(client, reply);
  return { state: queue.state as State, poll: () => queue.poll(), close: () => queue.close() };
}

/** The identity cannot save the marker draft (drafts synchronization off). */
export class MarkerUnavailable extends Error {
  override readonly name = 'MarkerUnavailable';
}

const isMarker = (content: string) => (event: JsonObject): boolean =>
  event.type === 'drafts' && event.op === 'add' && Array.isArray(event.drafts) && (event.drafts as JsonObject[]).some((draft) => draft.content === content);

const isRemoval = (id: number) => (event: JsonObject): boolean => event.type === 'drafts' && event.op === 'remove' && event.draft_id === id;

/** Polls until `seen` accepts an event, or fails after the deadline; returns everything polled. */
async function until(queue: ObserverQueue, seen: (event: JsonObject) => boolean, what: string): Promise<JsonObject[]> {
  const received = await pollUntil(queue, (events) => events.some(seen));
  if (!received.some(seen)) fail(`${what} did not reach the queue within ${EVENT_DEADLINE_MS / 1000} s`);
  return received;
}

/**
 * Every event the queue got before a marker its owner triggers now: a draft with content nothing
 * else has (drafts events reach only their owner, in order after everything sent before). The
 * draft is deleted again; with `awaitRemoval` (for queues that keep drafts) its removal is
 * awaited too, so that not even the marker is in flight when the next queue registers.
 */
export async function eventsBeforeMarker(client: ApiClient, queue: ObserverQueue, label: string, awaitRemoval: boolean): Promise<QueueEvent[]> {
  const content = `${label} convergence marker ${Date.now().toString(36)} ${Math.random().toString(36).slice(2)}`;
  const created = await client.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content }] });
  // A user can turn drafts synchronization off (the real server then refuses drafts).
  if (created.status === 400) throw new MarkerUnavailable(`${label} cannot save drafts (HTTP 400 ${String(created.body?.code ?? '')}): no marker bounds its queue`);
  const id = expectShape(expectSuccess(created), v.object({ ids: v.array(v.int(), { minLength: 1 }) }), 'drafts', created).ids[0] as number;
  let removed = false;
  try {
    const received = await until(queue, isMarker(content), `the marker draft of ${label}`);
    const before = received.slice(0, received.findIndex(isMarker(content)));
    expectSuccess(await client.delete(`/drafts/${id}`));
    removed = true;
    if (awaitRemoval && !received.some(isRemoval(id))) await until(queue, isRemoval(id), `the removal of the marker draft of ${label}`);
    return before as QueueEvent[];
  } finally {
    if (!removed) await client.delete(`/drafts/${id}`);
  }
}

/**
 * Waits until nothing sent before now is still in flight to these identities: each opens a
 * queue for drafts only and drains it to a marker. Needed before the first run (the setup's
 * events) and after a run that ended early.
 */
export async function settle(clients: ReadonlyArray<readonly [string, ApiClient]>, level: number, awaitRemoval: boolean): Promise<void> {
  await Promise.all(
    clients.map(async ([label, client]) => {
      const queue = await registerQueue(client, { eventTypes: ['drafts'], fetchTypes: [], includeSubscribers: false, capabilities: modernCapabilities(level) });
      try {
        await eventsBeforeMarker(client, queue, label, awaitRemoval);
      } finally {
        await queue.close();
      }
    }),
  );
}
