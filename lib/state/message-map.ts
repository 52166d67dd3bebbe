/**
 * Messages by ID, with the IDs also kept in ascending order, so a history read walks outward
 * from its anchor and stops once its window is full: reading the newest 50 messages of a channel
 * costs about the same whether the realm holds 50 messages or 100,000. Per-channel daily counts
 * are kept as messages come, go and move, so a channel's weekly traffic reads 29 counters instead
 * of every message.
 */
import type { Message, Recipient } from '../entities/message.js';

const DAY_MS = 86_400_000;

/** The index of the first ID greater than `id` in ascending `ids`. */
export function upperBound(ids: readonly number[], id: number): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((ids[middle] as number) <= id) low = middle + 1;
    else high = middle;
  }
  return low;
}

export class MessageMap extends Map<number, Message> {
  // Undefined only while Map's constructor runs (it is never given entries).
  private order: number[] | undefined = [];
  /** Channel ID to (day number since the epoch to messages sent that day). */
  private readonly daily = new Map<number, Map<number, number>>();

  /** How many of the channel's messages were sent on the day `day` (days since the epoch). */
  sentOnDay(streamId: number, day: number): number {
    return this.daily.get(streamId)?.get(day) ?? 0;
  }

  /** The only way to change a message's recipient (a move), so the daily counts stay true. */
  relocate(message: Message, recipient: Recipient): void {
    const stored = super.get(message.id) === message;
    if (stored) this.count(message, -1);
    (message as { recipient: Recipient }).recipient = recipient;
    if (stored) this.count(message, 1);
  }

  private count(message: Message, change: number): void {
    if (message.recipient.kind !== 'stream') return;
    const day = Math.floor(message.sentAt / DAY_MS);
    let days = this.daily.get(message.recipient.streamId);
    if (!days) this.daily.set(message.recipient.streamId, (days = new Map()));
    const total = (days.get(day) ?? 0) + change;
    if (total === 0) days.delete(day);
    else days.set(day, total);
  }

  /** Every message ID, ascending. */
  get ids(): readonly number[] {
    return this.order ?? [];
  }

  override set(id: number, message: Message): this {
    const previous = super.get(id);
    if (previous) this.count(previous, -1);
    if (this.order) this.count(message, 1);
    if (this.order && !previous) {
      const last = this.order[this.order.length - 1];
      // New messages take increasing IDs; anything else (a restored snapshot) is inserted in place.
      if (last === undefined || id > last) this.order.push(id);
      else this.order.splice(upperBound(this.order, id), 0, id);
    }
    return super.set(id, message);
  }

  override delete(id: number): boolean {
    const previous = super.get(id);
    if (this.order && previous) {
      this.order.splice(upperBound(this.order, id) - 1, 1);
      this.count(previous, -1);
    }
    return super.delete(id);
  }

  override clear(): void {
    super.clear();
    this.order = [];
    this.daily.clear();
  }
}
