/**
 * A sorted set of message IDs in chunks of at most CHUNK, so that adding or removing one ID in the
 * middle of a list of a million moves at most a chunk and a directory entry, and the nearest ID
 * at or below (or above) any point is two binary searches away. New messages take the highest ID
 * so far, and most lists only ever grow at the end. Chunks are Int32Arrays: half the memory of
 * an array of numbers, and nothing for the garbage collector to walk.
 */

const CHUNK = 512;
const FIRST_CAPACITY = 4;

/** A lazily walked, ascending set of IDs that can be sought from any point. */
export interface IdSource {
  /** The largest ID <= `id`, if any. */
  atMost(id: number): number | undefined;
  /** The smallest ID >= `id`, if any. */
  atLeast(id: number): number | undefined;
  /** How many IDs it holds at most: the cost of walking it whole, for picking the cheapest source. */
  readonly size: number;
}

/** The first index below `length` in ascending `values` whose value is > `id` (or >= when `inclusive`). */
export function search(values: ArrayLike<number>, length: number, id: number, inclusive: boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const value = values[middle] as number;
    if (value < id || (!inclusive && value === id)) low = middle + 1;
    else high = middle;
  }
  return low;
}

export class IdList implements IdSource {
  /** Non-empty ascending chunks (each filled to its count); every ID of a chunk is below every ID of the next. */
  private readonly chunks: Int32Array[] = [];
  private readonly counts: number[] = [];
  size = 0;

  private lastOf(index: number): number {
    return (this.chunks[index] as Int32Array)[(this.counts[index] as number) - 1] as number;
  }

  /** The chunk that holds `id` or would: the first whose last ID is >= `id` (the last chunk when none). */
  private chunkFor(id: number): number {
    let low = 0;
    let high = this.chunks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.lastOf(middle) < id) low = middle + 1;
      else high = middle;
    }
    return Math.min(low, this.chunks.length - 1);
  }

  has(id: number): boolean {
    if (this.size === 0) return false;
    const index = this.chunkFor(id);
    const chunk = this.chunks[index] as Int32Array;
    return chunk[search(chunk, this.counts[index] as number, id, true)] === id;
  }

  /** Adds `id`; false when it was there already. */
  add(id: number): boolean {
    const last = this.chunks.length - 1;
    if (last < 0 || this.lastOf(last) < id) {
      this.append(last, id);
      return true;
    }
    const index = this.chunkFor(id);
    let chunk = this.chunks[index] as Int32Array;
    const count = this.counts[index] as number;
    const at = search(chunk, count, id, true);
    if (at < count && chunk[at] === id) return false;
    if (count === chunk.length) {
      if (count < CHUNK) chunk = this.grow(index);
      else {
        this.split(index);
        return this.add(id);
      }
    }
    chunk.copyWithin(at + 1, at, count);
    chunk[at] = id;
    this.counts[index] = count + 1;
    this.size++;
    return true;
  }

  private append(last: number, id: number): void {
    const count = last < 0 ? CHUNK : (this.counts[last] as number);
    if (count === CHUNK) {
      const chunk = new Int32Array(this.size === 0 ? FIRST_CAPACITY : CHUNK);
      chunk[0] = id;
      this.chunks.push(chunk);
      this.counts.push(1);
    } else {
      const chunk = count === (this.chunks[last] as Int32Array).length ? this.grow(last) : (this.chunks[last] as Int32Array);
      chunk[count] = id;
      this.counts[last] = count + 1;
    }
    this.size++;
  }

  /** Doubles a small first chunk's room (up to CHUNK). */
  private grow(index: number): Int32Array {
    const old = this.chunks[index] as Int32Array;
    const chunk = new Int32Array(Math.min(CHUNK, old.length * 2));
    chunk.set(old);
    this.chunks[index] = chunk;
    return chunk;
  }

  /** Splits a full chunk in two halves. */
  private split(index: number): void {
    const chunk = this.chunks[index] as Int32Array;
    const upper = new Int32Array(CHUNK);
    upper.set(chunk.subarray(CHUNK / 2));
    this.chunks.splice(index + 1, 0, upper);
    this.counts.splice(index + 1, 0, CHUNK / 2);
    this.counts[index] = CHUNK / 2;
  }

  /** Removes `id`; false when it was not there. */
  delete(id: number): boolean {
    if (this.size === 0) return false;
    const index = this.chunkFor(id);
    const chunk = this.chunks[index] as Int32Array;
    const count = this.counts[index] as number;
    const at = search(chunk, count, id, true);
    if (at >= count || chunk[at] !== id) return false;
    chunk.copyWithin(at, at + 1, count);
    this.counts[index] = count - 1;
    if (count === 1) {
      this.chunks.splice(index, 1);
      this.counts.splice(index, 1);
    }
    this.size--;
    return true;
  }

  atMost(id: number): number | undefined {
    if (this.size === 0) return undefined;
    const index = this.chunkFor(id);
    const at = search(this.chunks[index] as Int32Array, this.counts[index] as number, id, false);
    if (at > 0) return (this.chunks[index] as Int32Array)[at - 1];
    return index === 0 ? undefined : this.lastOf(index - 1);
  }

  atLeast(id: number): number | undefined {
    if (this.size === 0) return undefined;
    const index = this.chunkFor(id);
    const count = this.counts[index] as number;
    const at = search(this.chunks[index] as Int32Array, count, id, true);
    return at < count ? (this.chunks[index] as Int32Array)[at] : undefined;
  }

  get first(): number | undefined {
    return this.chunks[0]?.[0];
  }

  get last(): number | undefined {
    return this.chunks.length === 0 ? undefined : this.lastOf(this.chunks.length - 1);
  }

  *[Symbol.iterator](): IterableIterator<number> {
    for (let index = 0; index < this.chunks.length; index++) yield* (this.chunks[index] as Int32Array).subarray(0, this.counts[index]);
  }

  /** Every ID, ascending, in a new array. */
  toArray(): number[] {
    return [...this];
  }

  clear(): void {
    this.chunks.length = 0;
    this.counts.length = 0;
    this.size = 0;
  }
}

const EMPTY_LIST = new IdList();

/** A list that is always empty (what a missing key reads as). */
export const emptyIds = (): IdSource => EMPTY_LIST;
