/**
 * A sorted set of message IDs in chunks of at most CHUNK, so that adding or removing one ID in the
 * middle of a list of a million moves at most a chunk and a directory entry, and the nearest ID
 * at or below (or above) any point is two binary searches away. New messages take the highest ID
 * so far, and most lists only ever grow at the end.
 */

const CHUNK = 512;

/** A lazily walked, ascending set of IDs that can be sought from any point. */
export interface IdSource {
  /** The largest ID <= `id`, if any. */
  atMost(id: number): number | undefined;
  /** The smallest ID >= `id`, if any. */
  atLeast(id: number): number | undefined;
  /** How many IDs it holds at most: the cost of walking it whole, for picking the cheapest source. */
  readonly size: number;
}

/** The first index in ascending `values` whose value is > `id` (or >= when `inclusive`). */
function search(values: ArrayLike<number>, length: number, id: number, inclusive: boolean): number {
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
  /** Non-empty ascending chunks; every ID of a chunk is below every ID of the next. */
  private readonly chunks: number[][] = [];
  size = 0;

  /** The chunk that holds `id` or would: the first whose last ID is >= `id` (the last chunk when none). */
  private chunkFor(id: number): number {
    let low = 0;
    let high = this.chunks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const chunk = this.chunks[middle] as number[];
      if ((chunk[chunk.length - 1] as number) < id) low = middle + 1;
      else high = middle;
    }
    return Math.min(low, this.chunks.length - 1);
  }

  has(id: number): boolean {
    if (this.size === 0) return false;
    const chunk = this.chunks[this.chunkFor(id)] as number[];
    const at = search(chunk, chunk.length, id, true);
    return chunk[at] === id;
  }

  /** Adds `id`; false when it was there already. */
  add(id: number): boolean {
    const lastChunk = this.chunks[this.chunks.length - 1];
    if (!lastChunk || (lastChunk[lastChunk.length - 1] as number) < id) {
      if (!lastChunk || lastChunk.length >= CHUNK) this.chunks.push([id]);
      else lastChunk.push(id);
      this.size++;
      return true;
    }
    const index = this.chunkFor(id);
    const chunk = this.chunks[index] as number[];
    const at = search(chunk, chunk.length, id, true);
    if (chunk[at] === id) return false;
    chunk.splice(at, 0, id);
    if (chunk.length > CHUNK) this.chunks.splice(index + 1, 0, chunk.splice(CHUNK / 2));
    this.size++;
    return true;
  }

  /** Removes `id`; false when it was not there. */
  delete(id: number): boolean {
    if (this.size === 0) return false;
    const index = this.chunkFor(id);
    const chunk = this.chunks[index] as number[];
    const at = search(chunk, chunk.length, id, true);
    if (chunk[at] !== id) return false;
    chunk.splice(at, 1);
    if (chunk.length === 0) this.chunks.splice(index, 1);
    this.size--;
    return true;
  }

  atMost(id: number): number | undefined {
    if (this.size === 0) return undefined;
    let index = this.chunkFor(id);
    let chunk = this.chunks[index] as number[];
    const at = search(chunk, chunk.length, id, false);
    if (at > 0) return chunk[at - 1];
    if (index === 0) return undefined;
    chunk = this.chunks[--index] as number[];
    return chunk[chunk.length - 1];
  }

  atLeast(id: number): number | undefined {
    if (this.size === 0) return undefined;
    const chunk = this.chunks[this.chunkFor(id)] as number[];
    const at = search(chunk, chunk.length, id, true);
    return chunk[at];
  }

  get first(): number | undefined {
    return this.chunks[0]?.[0];
  }

  get last(): number | undefined {
    const chunk = this.chunks[this.chunks.length - 1];
    return chunk?.[chunk.length - 1];
  }

  *[Symbol.iterator](): IterableIterator<number> {
    for (const chunk of this.chunks) yield* chunk;
  }

  /** Every ID, ascending, in a new array. */
  toArray(): number[] {
    return this.chunks.flat();
  }

  clear(): void {
    this.chunks.length = 0;
    this.size = 0;
  }
}

const EMPTY_LIST = new IdList();

/** A list that is always empty (what a missing key reads as). */
export const emptyIds = (): IdSource => EMPTY_LIST;
