/**
 * Subscriptions stored twice: per channel (SubscriberMap) and per user (SubscriptionsByUser), the
 * second kept by every write to the first, so "this user's subscriptions" costs the user's own
 * count, not the number of channels.
 */
import type { Subscription } from '../entities/stream.js';

/**
 * User ID to that user's subscriptions. A user with a single subscription holds it directly and
 * gets a Map (stream ID to subscription) at the second: in a large realm most users are in one
 * channel, and a Map for each of 100,000 users would cost more time than everything else about
 * them. Read it with `subscriptionsIn`.
 */
export type SubscriptionsByUser = Map<number, Subscription | Map<number, Subscription>>;

const EMPTY: ReadonlyMap<number, Subscription> = new Map();

/** A read-only Map of one subscription, by its stream ID. */
class OneSubscription implements ReadonlyMap<number, Subscription> {
  constructor(private readonly sub: Subscription) {}

  get size(): number {
    return 1;
  }

  get(streamId: number): Subscription | undefined {
    return streamId === this.sub.streamId ? this.sub : undefined;
  }

  has(streamId: number): boolean {
    return streamId === this.sub.streamId;
  }

  *entries(): MapIterator<[number, Subscription]> {
    yield [this.sub.streamId, this.sub];
  }

  *keys(): MapIterator<number> {
    yield this.sub.streamId;
  }

  *values(): MapIterator<Subscription> {
    yield this.sub;
  }

  [Symbol.iterator](): MapIterator<[number, Subscription]> {
    return this.entries();
  }

  forEach(callback: (value: Subscription, key: number, map: ReadonlyMap<number, Subscription>) => void, thisArg?: unknown): void {
    callback.call(thisArg, this.sub, this.sub.streamId, this);
  }
}

/** The user's subscriptions (active or not) by stream ID. */
export function subscriptionsIn(index: SubscriptionsByUser, userId: number): ReadonlyMap<number, Subscription> {
  const mine = index.get(userId);
  if (mine === undefined) return EMPTY;
  return mine instanceof Map ? mine : new OneSubscription(mine);
}

/** Records `subscription` (to `streamId`) under its user, replacing one to the same channel. */
function indexSubscription(index: SubscriptionsByUser, userId: number, streamId: number, subscription: Subscription): void {
  const mine = index.get(userId);
  if (mine === undefined || (!(mine instanceof Map) && mine.streamId === streamId)) index.set(userId, subscription);
  else if (mine instanceof Map) mine.set(streamId, subscription);
  else index.set(userId, new Map<number, Subscription>().set(mine.streamId, mine).set(streamId, subscription));
}

function unindexSubscription(index: SubscriptionsByUser, userId: number, streamId: number): void {
  const mine = index.get(userId);
  if (mine === undefined) return;
  if (mine instanceof Map) {
    mine.delete(streamId);
    if (mine.size === 0) index.delete(userId);
  } else if (mine.streamId === streamId) index.delete(userId);
}

/** One channel's subscriptions by user ID; every write also updates the per-user index. */
export class SubscriberMap extends Map<number, Subscription> {
  private index: SubscriptionsByUser | undefined;

  constructor(
    readonly streamId: number,
    index: SubscriptionsByUser,
  ) {
    super();
    this.index = index;
  }

  override set(userId: number, subscription: Subscription): this {
    super.set(userId, subscription);
    // Map's constructor may call set before the index is assigned; nothing is stored then.
    if (this.index) indexSubscription(this.index, userId, this.streamId, subscription);
    return this;
  }

  override delete(userId: number): boolean {
    if (this.index) unindexSubscription(this.index, userId, this.streamId);
    return super.delete(userId);
  }

  override clear(): void {
    for (const userId of [...this.keys()]) this.delete(userId);
  }
}
