/**
 * Messages by ID, with the IDs also kept in ascending order, so a history read walks outward
 * from its anchor and stops once its window is full: reading the newest 50 messages of a channel
 * costs about the same whether the realm holds 50 messages or 100,000.
 */
import type { Message } from './entities/message.js';

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

  /** Every message ID, ascending. */
  get ids(): readonly number[] {
    return this.order ?? [];
  }

  override set(id: number, message: Message): this {
    if (this.order && !super.has(id)) {
      const last = this.order[this.order.length - 1];
      // New messages take increasing IDs; anything else (a restored snapshot) is inserted in place.
      if (last === undefined || id > last) this.order.push(id);
      else this.order.splice(upperBound(this.order, id), 0, id);
    }
    return super.set(id, message);
  }

  override delete(id: number): boolean {
    if (this.order && super.has(id)) this.order.splice(upperBound(this.order, id) - 1, 1);
    return super.delete(id);
  }

  override clear(): void {
    super.clear();
    this.order = [];
  }
}
