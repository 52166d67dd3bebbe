/**
 * The whole World as one versioned JSON document, and back. Every field of the World is walked
 * generically (users, streams, subscriptions, messages with flags and reactions, groups, drafts,
 * linkifiers, reminders, ...), so a field added to the World later is saved without changes here.
 * Maps (LayeredMaps too) and Sets are tagged; objects reachable twice (a user in `users` and in
 * `usersByEmail`) are saved once and referenced, so restored indexes share their entities as the
 * original did.
 * Not saved: the clock, the event hub and its queues (clients register again after a restore).
 */
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import { LayeredMap } from './layered-map.js';
import { isRowView, MessageRows } from './history/message-rows.js';
import { MessageMap } from './message-map.js';
import { type IdKind, World } from './world.js';

export const SNAPSHOT_FORMAT = 'chat-api-reference/world';
export const SNAPSHOT_VERSION = 1;

/** JSON of a World (see the module comment). */
export interface WorldSnapshot {
  readonly format: typeof SNAPSHOT_FORMAT;
  readonly version: number;
  readonly featureLevel: number;
  readonly pushConfigured: boolean;
  /** Last ID handed out per kind. */
  readonly ids: ReadonlyArray<readonly [IdKind, number]>;
  /** Every other World field, encoded. */
  readonly state: Readonly<Record<string, unknown>>;
}

/** A document that is not a snapshot this code can restore. */
export class SnapshotError extends Error {
  override readonly name = 'SnapshotError';
}

/** World fields that are not state (or are saved separately). */
const NOT_STATE = new Set(['clock', 'events', 'ids', 'featureLevel', 'pushConfigured']);

type Encoded = unknown;

/** A Map, or a LayeredMap or a message's rows (each saved as the Map it reads as, and restored as one). */
const isMap = (value: object): value is Iterable<[unknown, unknown]> => value instanceof Map || value instanceof LayeredMap || value instanceof MessageRows;

/** A Set, or one user's row of a message (saved as the Set of flags it reads as). */
const isSet = (value: object): value is Iterable<unknown> => value instanceof Set || isRowView(value);

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Counts how often each object is reachable, refusing cycles and class instances. */
function countReferences(value: unknown, counts: Map<object, number>, path: string, stack: Set<object>): void {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'function' || typeof value === 'bigint' || typeof value === 'symbol') throw new SnapshotError(`cannot save ${path}: a ${typeof value}`);
    return;
  }
  const seen = counts.get(value) ?? 0;
  counts.set(value, seen + 1);
  if (seen > 0) return;
  if (stack.has(value)) throw new SnapshotError(`cannot save ${path}: a cycle`);
  stack.add(value);
  if (isMap(value)) for (const [key, inner] of value) countReferences(inner, counts, `${path}[${String(key)}]`, stack), countReferences(key, counts, path, stack);
  else if (isSet(value) || Array.isArray(value)) [...(value as Iterable<unknown>)].forEach((inner, i) => countReferences(inner, counts, `${path}[${i}]`, stack));
  else if (isPlain(value)) for (const [key, inner] of Object.entries(value)) countReferences(inner, counts, `${path}.${key}`, stack);
  else throw new SnapshotError(`cannot save ${path}: an instance of ${(value as { constructor?: { name?: string } }).constructor?.name ?? 'a class'}`);
  stack.delete(value);
}

class Encoder {
  private readonly shared = new Map<object, number>();

  constructor(private readonly counts: Map<object, number>) {}

  encode(value: unknown): Encoded {
    if (value === undefined) return { $undefined: true };
    if (value === null || typeof value !== 'object') return value;
    const known = this.shared.get(value);
    if (known !== undefined) return { $ref: known };
    if ((this.counts.get(value) ?? 0) > 1) {
      const id = this.shared.size + 1;
      this.shared.set(value, id);
      return { $shared: id, value: this.inner(value) };
    }
    return this.inner(value);
  }

  private inner(value: object): Encoded {
    if (isMap(value)) return { $map: [...value].map(([key, inner]) => [this.encode(key), this.encode(inner)]) };
    if (isSet(value)) return { $set: [...value].map((inner) => this.encode(inner)) };
    if (Array.isArray(value)) return value.map((inner) => this.encode(inner));
    return { $object: Object.entries(value).map(([key, inner]) => [key, this.encode(inner)]) };
  }
}

class Decoder {
  private readonly shared = new Map<number, unknown>();

  decode(value: Encoded, path: string): unknown {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((inner, i) => this.decode(inner, `${path}[${i}]`));
    const tagged = value as Record<string, unknown>;
    if (tagged.$undefined === true) return undefined;
    if (typeof tagged.$ref === 'number') {
      if (!this.shared.has(tagged.$ref)) throw new SnapshotError(`${path}: reference to an object not seen before`);
      return this.shared.get(tagged.$ref);
    }
    if (typeof tagged.$shared === 'number') {
      const decoded = this.decode(tagged.value, path);
      this.shared.set(tagged.$shared, decoded);
      return decoded;
    }
    if (Array.isArray(tagged.$map)) return new Map(tagged.$map.map((entry, i) => this.pair(entry, `${path}[${i}]`)));
    if (Array.isArray(tagged.$set)) return new Set(tagged.$set.map((inner, i) => this.decode(inner, `${path}[${i}]`)));
    if (Array.isArray(tagged.$object)) return Object.fromEntries(tagged.$object.map((entry, i) => this.pair(entry, `${path}.${i}`)));
    throw new SnapshotError(`${path}: not a snapshot value`);
  }

  private pair(entry: unknown, path: string): [unknown, unknown] {
    if (!Array.isArray(entry) || entry.length !== 2) throw new SnapshotError(`${path}: expected a [key, value] pair`);
    return [this.decode(entry[0], path), this.decode(entry[1], path)];
  }
}

/** Reads the allocator's last IDs (its only state). */
function allocatorState(world: World): Array<[IdKind, number]> {
  // IdAllocator keeps its counters private; a snapshot is the one reader that needs them all.
  const last = (world.ids as unknown as { last?: unknown }).last;
  if (!(last instanceof Map)) throw new SnapshotError('cannot save the ID counters: IdAllocator changed shape');
  return [...(last as Map<IdKind, number>)];
}

/** The whole World as a JSON-ready document. */
export function snapshotWorld(world: World): WorldSnapshot {
  const fields = Object.entries(world).filter(([name]) => !NOT_STATE.has(name));
  const counts = new Map<object, number>();
  const stack = new Set<object>();
  for (const [name, value] of fields) countReferences(value, counts, name, stack);
  const encoder = new Encoder(counts);
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    featureLevel: world.featureLevel,
    pushConfigured: world.pushConfigured,
    ids: allocatorState(world),
    state: Object.fromEntries(fields.map(([name, value]) => [name, encoder.encode(value)])),
  };
}

/** Checks that `document` is a snapshot this version restores; returns it typed. */
export function checkSnapshot(document: unknown): WorldSnapshot {
  const doc = document as Partial<WorldSnapshot> | null;
  if (doc === null || typeof doc !== 'object' || doc.format !== SNAPSHOT_FORMAT) throw new SnapshotError(`not a saved world (expected format "${SNAPSHOT_FORMAT}")`);
  if (doc.version !== SNAPSHOT_VERSION) throw new SnapshotError(`saved world version ${String(doc.version)} is not supported (this server reads version ${SNAPSHOT_VERSION})`);
  if (typeof doc.featureLevel !== 'number' || typeof doc.pushConfigured !== 'boolean' || !Array.isArray(doc.ids) || doc.state === null || typeof doc.state !== 'object') {
    throw new SnapshotError('saved world is incomplete (featureLevel, pushConfigured, ids and state are required)');
  }
  return doc as WorldSnapshot;
}

/**
 * A new World holding the snapshot's state. Fields the snapshot lacks keep the empty state of a
 * new World; fields this World does not have are refused (a file from another program or version).
 */
export function restoreWorld(document: unknown, options: { clock?: Clock } = {}): World {
  const snapshot = checkSnapshot(document);
  const world = new World({ clock: options.clock ?? systemClock, featureLevel: snapshot.featureLevel, pushConfigured: snapshot.pushConfigured });
  for (const [kind, id] of snapshot.ids) world.ids.reserve(kind, id);
  const target = world as unknown as Record<string, unknown>;
  const decoder = new Decoder();
  for (const [name, encoded] of Object.entries(snapshot.state)) {
    if (NOT_STATE.has(name) || !Object.hasOwn(world, name)) throw new SnapshotError(`saved world has a field this server does not know: ${name}`);
    const value = decoder.decode(encoded, name);
    const current = target[name];
    const wrongType = () => new SnapshotError(`saved world field ${name} has the wrong type`);
    if (current instanceof Map) {
      if (!(value instanceof Map)) throw wrongType();
      const fill = () => {
        for (const [key, inner] of value) current.set(key, inner);
      };
      // A saved history is indexed as a fixture's is: search postings sorted once at the end.
      if (current instanceof MessageMap) current.index.bulkLoad(fill);
      else fill();
    } else if (current instanceof Set) {
      if (!(value instanceof Set)) throw wrongType();
      for (const inner of value) current.add(inner);
    } else if (Array.isArray(current)) {
      if (!Array.isArray(value)) throw wrongType();
      current.push(...(value as unknown[]));
    } else if (current === undefined || (typeof current === typeof value && !(value instanceof Map) && !(value instanceof Set) && !Array.isArray(value))) {
      target[name] = value;
    } else throw wrongType();
  }
  return world;
}
