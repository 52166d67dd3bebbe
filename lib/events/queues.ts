/**
 * The event queues of a world: created by `POST /register` (or `GET /events` without a queue),
 * fed by the world's EventHub, filtered and rewritten per queue (adapt.ts), acknowledged and
 * read by `GET /events`, removed by `DELETE /events` or by the idle sweep.
 *
 * The registry is pure state on the world's clock. Waiting, heartbeats and the periodic sweep
 * are the HTTP layer's business (server/app/long-poll.ts).
 */
import { randomUUID } from 'node:crypto';
import type { World } from '../state/world.js';
import { eventsForQueue } from './adapt.js';
import { localEchoFor } from './message-payload.js';
import { badEventQueueId, EventQueue, type QueuedEvent } from './event-queue.js';
import { Audience, type Recipients } from '../state/audience.js';
import type { ChatEvent } from '../state/event-hub.js';
import { DEFAULT_MAX_QUEUES_PER_USER, DEFAULT_QUEUE_TIMEOUT_SECS, type QueueOptions, queueTimeoutSecs } from './queue-options.js';

const NO_RECIPIENTS: { has(userId: number): boolean } = new Map();

export type DeliveryListener = (queue: EventQueue, event: QueuedEvent) => void;

export class EventQueues {
  private readonly byId = new Map<string, EventQueue>();
  private readonly byUser = new Map<number, Set<EventQueue>>();
  /** Queues that also get messages of public channels the user does not receive (4.4). */
  private readonly allStreams = new Set<EventQueue>();
  private readonly listeners = new Set<DeliveryListener>();
  /** The message whose sends (one per flag set, back to back) already reached the all-streams queues. */
  private lastFannedOutMessageId: number | undefined;

  constructor(private readonly world: World) {
    world.events.subscribe((event, userIds) => this.dispatch(event, userIds));
  }

  get size(): number {
    return this.byId.size;
  }

  /**
   * Creates a queue for `userId`. `defaultTimeoutSecs` is what a requested lifespan of 0 means
   * (600 s on the real server; an app option so tests can shorten it). A user holds at most
   * `maxPerUser` queues: past it, the user's idle queue polled least recently is removed (a
   * client that registers again and again abandons its old queues; one that polls keeps its own).
   */
  create(
    userId: number,
    options: QueueOptions,
    defaultTimeoutSecs: number = DEFAULT_QUEUE_TIMEOUT_SECS,
    maxPerUser: number = DEFAULT_MAX_QUEUES_PER_USER,
  ): EventQueue {
    const timeoutMs = queueTimeoutSecs(options.lifespanSecs, defaultTimeoutSecs) * 1000;
    const queue = new EventQueue(randomUUID(), userId, options, timeoutMs, this.world.now());
    let mine = this.byUser.get(userId);
    if (!mine) this.byUser.set(userId, (mine = new Set()));
    while (mine.size >= maxPerUser) if (!this.evictIdlest(mine)) break;
    this.byId.set(queue.id, queue);
    mine.add(queue);
    if (options.allPublicStreams || options.narrow.length > 0) this.allStreams.add(queue);
    return queue;
  }

  /** Removes the idle queue polled least recently; false when every queue has a waiting poll. */
  private evictIdlest(queues: ReadonlySet<EventQueue>): boolean {
    let idlest: EventQueue | undefined;
    for (const queue of queues) {
      if (!queue.isWaiting && (!idlest || queue.lastConnection < idlest.lastConnection)) idlest = queue;
    }
    if (idlest) this.delete(idlest);
    return idlest !== undefined;
  }

  /** The caller's queue, or `BAD_EVENT_QUEUE_ID` (unknown, expired, or another user's). */
  get(userId: number, queueId: string): EventQueue {
    const queue = this.byId.get(queueId);
    if (!queue || queue.userId !== userId) throw badEventQueueId(queueId);
    return queue;
  }

  /** Every queue, oldest first. */
  all(): Iterable<EventQueue> {
    return this.byId.values();
  }

  forUser(userId: number): Iterable<EventQueue> {
    return this.byUser.get(userId) ?? [];
  }

  delete(queue: EventQueue): void {
    if (this.byId.get(queue.id) !== queue) return;
    this.byId.delete(queue.id);
    this.allStreams.delete(queue);
    const mine = this.byUser.get(queue.userId);
    mine?.delete(queue);
    if (mine?.size === 0) this.byUser.delete(queue.userId);
  }

  /** Removes every idle queue past its lifetime at `now`; returns them. */
  sweep(now: number): EventQueue[] {
    const expired = [...this.byId.values()].filter((queue) => queue.expired(now));
    for (const queue of expired) this.delete(queue);
    return expired;
  }

  /** Appends to one queue, bypassing filters (heartbeats), and tells the listeners. */
  push(queue: EventQueue, event: ChatEvent): void {
    const id = queue.push(event);
    if (this.listeners.size === 0) return;
    const queued: QueuedEvent = { ...event, id };
    for (const listener of this.listeners) listener(queue, queued);
  }

  /** Hears every event as a queue receives it (after filters and rewrites, with its id). */
  onDelivered(listener: DeliveryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private dispatch(event: ChatEvent, recipients: Recipients): void {
    // An audience is asked about the users that have queues, never enumerated over the realm.
    const userIds = recipients instanceof Audience ? [...this.byUser.keys()].filter(recipients.includes) : recipients;
    const targets = new Map<EventQueue, ChatEvent>();
    if (this.isPublicChannelMessage(event)) {
      // As on the real server, these queues see public-channel messages with empty flags, but
      // only when their user is not a recipient: a recipient gets the message, with their own
      // flags, from the send addressed to them (a message goes out as one send per flag set).
      // Non-recipients get it once, from the first of those sends.
      const id = messageIdOf(event);
      if (id !== this.lastFannedOutMessageId) {
        this.lastFannedOutMessageId = id;
        const recipients = this.recipientsOf(id);
        for (const queue of this.allStreams) {
          if (!recipients.has(queue.userId)) targets.set(queue, { ...event, flags: [] });
        }
      }
    }
    for (const userId of userIds) for (const queue of this.forUser(userId)) targets.set(queue, event);
    // Queues registered with the same options receive the same events: compute them once per
    // distinct options and let those queues share the objects.
    const forms = new Map<ChatEvent, Map<string, ChatEvent[]>>();
    for (const [queue, original] of targets) {
      let byShape = forms.get(original);
      if (!byShape) forms.set(original, (byShape = new Map()));
      const shape = shapeOf(queue.options);
      let adapted = byShape.get(shape);
      if (!adapted) byShape.set(shape, (adapted = eventsForQueue(this.world, queue.options, original)));
      for (const event of adapted) this.push(queue, localEchoFor(queue.id, original, event));
    }
  }

  /** Users with a copy of the message (a flags row), whichever send addresses them. */
  private recipientsOf(messageId: number | undefined): { has(userId: number): boolean } {
    return (messageId === undefined ? undefined : this.world.messages.get(messageId)?.flags) ?? NO_RECIPIENTS;
  }

  private isPublicChannelMessage(event: ChatEvent): boolean {
    if (event.type !== 'message' || this.allStreams.size === 0) return false;
    const message = event.message as { type?: unknown; stream_id?: unknown } | undefined;
    if (message?.type !== 'stream' || typeof message.stream_id !== 'number') return false;
    return this.world.streams.get(message.stream_id)?.inviteOnly === false;
  }
}

const shapes = new WeakMap<QueueOptions, string>();

/** What decides the events a queue receives: every option but its lifespan. */
function shapeOf(options: QueueOptions): string {
  let shape = shapes.get(options);
  if (shape === undefined) {
    const { lifespanSecs: _lifespan, ...rest } = options;
    shapes.set(options, (shape = JSON.stringify(rest)));
  }
  return shape;
}

function messageIdOf(event: ChatEvent): number | undefined {
  const id = (event.message as { id?: unknown } | undefined)?.id;
  return typeof id === 'number' ? id : undefined;
}

const registries = new WeakMap<World, EventQueues>();

/** The world's queue registry, created (and subscribed to the hub) on first use. */
export function eventQueues(world: World): EventQueues {
  let registry = registries.get(world);
  if (!registry) {
    registry = new EventQueues(world);
    registries.set(world, registry);
  }
  return registry;
}
