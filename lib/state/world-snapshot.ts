/**
 * The whole World as one versioned JSON document, and back. Every field of the World is walked
 * generically (users, streams, subscriptions, messages with flags and reactions, groups, drafts,
 * linkifiers, reminders, ...), so a field added to the World later is saved without changes here.
 * Maps (LayeredMaps too), Sets and bytes are tagged; an object reachable twice is saved once and
 * referenced, so the restored world shares it as the original did. Indexes that other fields
 * determine (`usersByEmail`, the per-user subscriptions) are not saved but rebuilt.
 * Not saved: the clock, the event hub and its queues (clients register again after a restore).
 *
 * Loading checks the whole document first (lib/state/snapshot/fields.ts has the schema of every
 * field): types, references between tables, ID counters; it reports every problem at once with
 * its JSON path, and builds a World only from a document without any.
 */
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import { LayeredMap } from './layered-map.js';
import { isRowView, MessageRows } from './history/message-rows.js';
import { MessageMap } from './message-map.js';
import { readSnapshot, SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from './snapshot/document.js';
import { type IdKind, World } from './world.js';

export { SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from './snapshot/document.js';

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

/** A document that is not a snapshot this code can restore: `problems` lists every reason, each with its place. */
export class SnapshotError extends Error {
  override readonly name = 'SnapshotError';

  constructor(readonly problems: readonly string[]) {
    super(problems.length === 1 ? (problems[0] as string) : `${problems.length} problems:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  }
}

/** World fields that are not state (or are saved separately), and indexes rebuilt on load. */
export const NOT_STATE: ReadonlySet<string> = new Set(['clock', 'events', 'ids', 'featureLevel', 'pushConfigured', 'navigationTourVideoUrl', 'delayed', 'usersByEmail', 'subscriptionsByUser', 'subscriptions']);

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
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) {
    if (typeof value === 'function' || typeof value === 'bigint' || typeof value === 'symbol') throw new SnapshotError([`cannot save ${path}: a ${typeof value}`]);
    return;
  }
  const seen = counts.get(value) ?? 0;
  counts.set(value, seen + 1);
  if (seen > 0) return;
  if (stack.has(value)) throw new SnapshotError([`cannot save ${path}: a cycle`]);
  stack.add(value);
  if (isMap(value)) for (const [key, inner] of value) countReferences(inner, counts, `${path}[${String(key)}]`, stack), countReferences(key, counts, path, stack);
  else if (isSet(value) || Array.isArray(value)) [...(value as Iterable<unknown>)].forEach((inner, i) => countReferences(inner, counts, `${path}[${i}]`, stack));
  else if (isPlain(value)) for (const [key, inner] of Object.entries(value)) countReferences(inner, counts, `${path}.${key}`, stack);
  else throw new SnapshotError([`cannot save ${path}: an instance of ${(value as { constructor?: { name?: string } }).constructor?.name ?? 'a class'}`]);
  stack.delete(value);
}

class Encoder {
  private readonly shared = new Map<object, number>();

  constructor(private readonly counts: Map<object, number>) {}

  encode(value: unknown): Encoded {
    if (value === undefined) return { $undefined: true };
    if (value === null || typeof value !== 'object') return value;
    if (value instanceof Uint8Array) return { $bytes: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
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

/** Reads the allocator's last IDs (its only state). */
function allocatorState(world: World): Array<[IdKind, number]> {
  // IdAllocator keeps its counters private; a snapshot is the one reader that needs them all.
  const last = (world.ids as unknown as { last?: unknown }).last;
  if (!(last instanceof Map)) throw new SnapshotError(['cannot save the ID counters: IdAllocator changed shape']);
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

/** Checks `document` whole (see the module comment); throws SnapshotError listing every problem. */
export function checkSnapshot(document: unknown): WorldSnapshot {
  const { problems } = readSnapshot(document);
  if (problems.length > 0) throw new SnapshotError(problems);
  return document as WorldSnapshot;
}

/**
 * A new World holding the snapshot's state, once the whole document was checked. Fields the
 * snapshot lacks (other than the realm) keep the empty state of a new World.
 */
export function restoreWorld(document: unknown, options: { clock?: Clock; navigationTourVideoUrl?: string | null } = {}): World {
  const read = readSnapshot(document);
  if (read.problems.length > 0) throw new SnapshotError(read.problems);
  const world = new World({ clock: options.clock ?? systemClock, featureLevel: read.featureLevel, pushConfigured: read.pushConfigured, navigationTourVideoUrl: options.navigationTourVideoUrl ?? null });
  for (const [kind, id] of read.counters) world.ids.reserve(kind, id);
  const target = world as unknown as Record<string, unknown>;
  for (const [name, value] of read.fields) {
    if (name === 'subscriptionsByStream') {
      // Through subscribersOf, so that the per-user index is rebuilt with them.
      for (const [streamId, subscribers] of value as Map<number, Map<number, never>>) for (const [userId, sub] of subscribers) world.subscribersOf(streamId).set(userId, sub);
      continue;
    }
    const current = target[name];
    // A saved history is indexed as a fixture's is: search postings sorted once at the end.
    if (current instanceof MessageMap) current.index.bulkLoad(() => {
      for (const [key, inner] of value as Map<number, never>) current.set(key, inner);
    });
    else if (current instanceof Map) for (const [key, inner] of value as Map<unknown, unknown>) current.set(key, inner);
    else if (current instanceof Set) for (const inner of value as Set<unknown>) current.add(inner);
    else if (Array.isArray(current)) for (const inner of value as unknown[]) current.push(inner);
    else target[name] = value;
  }
  for (const user of world.users.values()) world.addUser(user);
  return world;
}
