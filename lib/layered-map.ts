/**
 * A Map that reads through to a shared, never-changed base and stores only its own writes. A
 * large realm's users all start from the same setting defaults: each keeps its few changes
 * instead of a full copy, which is what lets 100,000 users load quickly and fit in memory.
 * Deleting a key hides the base's value too. Everything else behaves as a plain Map.
 */
const NOTHING: ReadonlyMap<unknown, unknown> = new Map();

export class LayeredMap<K, V> extends Map<K, V> {
  // Assigned by `over`; a Map built by the constructor alone reads through to nothing.
  private base: ReadonlyMap<K, V> = NOTHING as ReadonlyMap<K, V>;
  private hidden: Set<K> | undefined;

  /** `base` must not change afterwards (take a copy of a map that will). */
  static over<K, V>(base: ReadonlyMap<K, V>): LayeredMap<K, V> {
    const map = new LayeredMap<K, V>();
    map.base = base;
    return map;
  }

  override get(key: K): V | undefined {
    if (super.has(key)) return super.get(key);
    return this.hidden?.has(key) ? undefined : this.base.get(key);
  }

  override has(key: K): boolean {
    return super.has(key) || (this.base.has(key) && !this.hidden?.has(key));
  }

  override set(key: K, value: V): this {
    this.hidden?.delete(key);
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    const existed = this.has(key);
    super.delete(key);
    if (this.base.has(key)) (this.hidden ??= new Set()).add(key);
    return existed;
  }

  override clear(): void {
    super.clear();
    this.hidden = new Set(this.base.keys());
  }

  override get size(): number {
    let count = 0;
    for (const _ of this.keys()) count++;
    return count;
  }

  override *entries(): MapIterator<[K, V]> {
    for (const key of this.keys()) yield [key, this.get(key) as V];
  }

  override *keys(): MapIterator<K> {
    // Base keys first, in the base's order, so iteration order matches a full copy's.
    for (const key of this.base.keys()) if (this.has(key)) yield key;
    for (const key of super.keys()) if (!this.base.has(key)) yield key;
  }

  override *values(): MapIterator<V> {
    for (const key of this.keys()) yield this.get(key) as V;
  }

  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  override forEach(callback: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }
}
