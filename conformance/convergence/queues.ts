/**
 * The queues of the convergence check: each observing identity registers as a modern client
 * does, and at the end drains its queue up to a marker it triggers itself, so nothing the run
 * did is still in flight when its state is compared.
 */
import type { ApiClient, JsonObject } from '../client/api-client.js';
import { expectShape, expectSuccess, fail } from '../expect/assert.js';
import { v } from '../expect/shape.js';
import { EVENT_DEADLINE_MS, pollUntil } from '../rules/support/event-waits.js';
import type { EventQueue } from '../rules/support/channel-fixtures.js';
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
  const state = expectShape(expectSuccess(reply), v.object({ queue_id: v.string({ nonEmpty: true }), last_event_id: v.int({ min: -1 }) }), 'register', reply);
  let lastEventId = state.last_event_id;
  return {
    state: state as unknown as State,
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

const isMarker = (content: string) => (event: JsonObject): boolean =>
  event.type === 'drafts' && event.op === 'add' && Array.isArray(event.drafts) && (event.drafts as JsonObject[]).some((draft) => draft.content === content);

/**
 * Every event the queue got before a marker its owner triggers now: a draft with content nothing
 * else has (drafts events reach only their owner, in order after everything sent before). The
 * draft is deleted again; its deletion's event stays in the queue, past the marker.
 */
export async function eventsBeforeMarker(client: ApiClient, queue: ObserverQueue, label: string): Promise<QueueEvent[]> {
  const content = `${label} convergence marker ${Date.now().toString(36)} ${Math.random().toString(36).slice(2)}`;
  const created = await client.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content }] });
  const ids = expectShape(expectSuccess(created), v.object({ ids: v.array(v.int()) }), 'drafts', created).ids;
  try {
    const received = await pollUntil(queue, (events) => events.some(isMarker(content)));
    const at = received.findIndex(isMarker(content));
    if (at === -1) fail(`the marker draft's event did not reach the queue of ${label} within ${EVENT_DEADLINE_MS / 1000} s`);
    return received.slice(0, at) as QueueEvent[];
  } finally {
    if (ids[0] !== undefined) await client.delete(`/drafts/${ids[0]}`);
  }
}
