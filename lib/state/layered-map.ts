/**
 * A Map that reads through to a shared, never-changed base and stores only its own writes. A
 * large realm's users all start from the same setting defaults: each keeps its few changes
 * instead of a full copy, which is what lets 100,000 users load quickly and fit in memory.
 * Deleting a key hides the base's value too. Everything else behaves as a plain Map.
 *
 * It implements Map rather than extending it: a Map subclass allocates a hash table for every
 * instance, which for 100,000 users costs more than everything else they hold, while most never
 * write anything. Its own table is made on the first write. (So `instanceof Map` is false: code
 * that walks values generically, such as the world snapshot, checks for it as well.)
 */
const NOTHING: ReadonlyMap<unknown, unknown> = new Map();

export class LayeredMap<K, V> implements Map<K, V> {
  private own: Map<K, V> | undefined;
  private hidden: Set<K> | undefined;

  /** A map over `base` (none by default); `base` must not change afterwards (take a copy of a map that will). */
  constructor(private readonly base: ReadonlyMap<K, V> = NOTHING as ReadonlyMap<K, V>) {}

  /** `new LayeredMap(base)`. */
  static over<K, V>(base: ReadonlyMap<K, V>): LayeredMap<K, V> {
    return new LayeredMap(base);
  }

  get(key: K): V | undefined {
    if (this.own?.has(key)) return this.own.get(key);
    return this.hidden?.has(key) ? undefined : this.base.get(key);
  }

  has(key: K): boolean {
    return this.own?.has(key) === true || (this.base.has(key) && !this.hidden?.has(key));
  }

  set(key: K, value: V): this {
    this.hidden?.delete(key);
    (this.own ??= new Map()).set(key, value);
    return this;
  }

  delete(key: K): boolean {
    const existed = this.has(key);
    this.own?.delete(key);
    if (this.base.has(key)) (this.hidden ??= new Set()).add(key);
    return existed;
  }

  clear(): void {
    this.own = undefined;
    this.hidden = new Set(this.base.keys());
  }

  get size(): number {
    let count = 0;
    for (const _ of this.keys()) count++;
    return count;
  }

  *entries(): MapIterator<[K, V]> {
    for (const key of this.keys()) yield [key, this.get(key) as V];
  }

  *keys(): MapIterator<K> {
    // Base keys first, in the base's order, so iteration order matches a full copy's.
    for (const key of this.base.keys()) if (this.has(key)) yield key;
    if (this.own) for (const key of this.own.keys()) if (!this.base.has(key)) yield key;
  }

  *values(): MapIterator<V> {
    for (const key of this.keys()) yield this.get(key) as V;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(callback: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }

  get [Symbol.toStringTag](): string {
    return 'LayeredMap';
  }
}
