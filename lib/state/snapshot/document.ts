/**
 * A saved world's document checked whole: its header (format, version, feature level), the ID
 * counters, then every state field against its schema (lib/state/snapshot/fields.ts), and last
 * the references and counters across fields. Every problem is listed, each with its JSON path.
 */
import { MAX_FEATURE_LEVEL, MIN_FEATURE_LEVEL } from '../../features/feature-levels.js';
import { SKIPPED_FIELDS, REQUIRED_FIELDS, WORLD_FIELDS } from './fields.js';
import { SnapshotReader } from './reader.js';
import { INVALID, location } from './values.js';
import type { Schema } from './schema.js';
import type { IdKind } from '../world.js';

export const SNAPSHOT_FORMAT = 'chat-api-reference/world';
/** 2 added bytes (`$bytes`) and left out the rebuilt indexes; version 1 files are read too. */
export const SNAPSHOT_VERSION = 2;
export const READABLE_VERSIONS: ReadonlySet<number> = new Set([1, 2]);

const ID_KINDS = [
  'user', 'group', 'stream', 'message', 'draft', 'linkifier', 'reminder', 'attachment', 'profileField', 'emoji', 'playground', 'invite', 'multiuseInvite', 'realmExport', 'savedSnippet', 'defaultStreamGroup',
  'channelFolder', 'scheduledMessage', 'realmDomain',
] as const satisfies readonly IdKind[];
// A kind added to IdKind must be added above (or this line stops compiling).
const everyKindListed: [Exclude<IdKind, (typeof ID_KINDS)[number]>] extends [never] ? true : never = true;
void everyKindListed;
const KNOWN_KINDS: ReadonlySet<string> = new Set(ID_KINDS);

const HEADER = new Set(['format', 'version', 'featureLevel', 'pushConfigured', 'ids', 'state']);

export interface ReadSnapshot {
  /** Empty when the document can be restored. */
  readonly problems: readonly string[];
  readonly featureLevel: number;
  readonly pushConfigured: boolean;
  readonly counters: ReadonlyMap<IdKind, number>;
  /** Decoded state fields, by World field name. */
  readonly fields: ReadonlyMap<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The counters, or undefined when they cannot be read (then nothing is checked against them). */
function readCounters(ids: unknown, problems: string[]): Map<IdKind, number> | undefined {
  const counters = new Map<IdKind, number>();
  if (!Array.isArray(ids)) {
    problems.push('ids (at $.ids): expected an array of [kind, last ID] pairs');
    return undefined;
  }
  const before = problems.length;
  ids.forEach((entry: unknown, i) => {
    const at = `ids[${i}] (at $.ids[${i}])`;
    if (!Array.isArray(entry) || entry.length !== 2) return void problems.push(`${at}: expected a [kind, last ID] pair`);
    const [kind, last] = entry as [unknown, unknown];
    if (typeof kind !== 'string' || !KNOWN_KINDS.has(kind)) return void problems.push(`${at}: unknown ID kind ${JSON.stringify(kind)}`);
    if (typeof last !== 'number' || !Number.isSafeInteger(last) || last < 0) return void problems.push(`${at}: the last ${kind} ID must be a non-negative integer, got ${JSON.stringify(last)}`);
    if (counters.has(kind as IdKind)) return void problems.push(`${at}: a second counter for ${kind}`);
    counters.set(kind as IdKind, last);
  });
  return problems.length === before ? counters : undefined;
}

/** The kind of ID a table field holds (its keys, or its items' `id`), if it is one. */
function tableKind(schema: Schema): IdKind | undefined {
  if (schema.type === 'map' && schema.key.type === 'integer') return schema.key.defines;
  if (schema.type === 'array' && schema.item.type === 'object') {
    const id = schema.item.fields.get('id');
    return id?.type === 'integer' ? id.defines : undefined;
  }
  return undefined;
}

function readHeader(doc: Record<string, unknown>, problems: string[]): { featureLevel: number; pushConfigured: boolean } {
  for (const key of Object.keys(doc)) if (!HEADER.has(key)) problems.push(`${JSON.stringify(key)} (at $[${JSON.stringify(key)}]): not part of a saved world`);
  const level = doc.featureLevel;
  if (typeof level !== 'number' || !Number.isInteger(level) || level < MIN_FEATURE_LEVEL || level > MAX_FEATURE_LEVEL) {
    problems.push(`featureLevel (at $.featureLevel): expected an integer from ${MIN_FEATURE_LEVEL} to ${MAX_FEATURE_LEVEL}, got ${JSON.stringify(level)}`);
  }
  if (typeof doc.pushConfigured !== 'boolean') problems.push(`pushConfigured (at $.pushConfigured): expected true or false, got ${JSON.stringify(doc.pushConfigured)}`);
  return { featureLevel: typeof level === 'number' ? level : MAX_FEATURE_LEVEL, pushConfigured: doc.pushConfigured === true };
}

/** Reads and checks `document`; see ReadSnapshot. */
export function readSnapshot(document: unknown): ReadSnapshot {
  const empty = (problem: string): ReadSnapshot => ({ problems: [problem], featureLevel: MAX_FEATURE_LEVEL, pushConfigured: false, counters: new Map(), fields: new Map() });
  if (!isRecord(document) || document.format !== SNAPSHOT_FORMAT) return empty(`not a saved world (expected format "${SNAPSHOT_FORMAT}")`);
  if (typeof document.version !== 'number' || !READABLE_VERSIONS.has(document.version)) {
    return empty(`saved world version ${JSON.stringify(document.version)} is not supported (this server reads versions ${[...READABLE_VERSIONS].join(' and ')})`);
  }
  const problems: string[] = [];
  const header = readHeader(document, problems);
  const counters = readCounters(document.ids, problems);
  const fields = new Map<string, unknown>();
  const state = document.state;
  if (!isRecord(state)) {
    problems.push('state (at $.state): expected an object of World fields');
    return { problems, ...header, counters: counters ?? new Map(), fields };
  }
  const reader = new SnapshotReader();
  const unreadable = new Set<IdKind>();
  for (const name of Object.keys(state)) {
    const schema = WORLD_FIELDS.get(name);
    if (schema === undefined) {
      if (SKIPPED_FIELDS.has(name)) reader.skip(state[name], location(undefined, `$.state.${name}`, name));
      else problems.push(`${name} (at $.state[${JSON.stringify(name)}]): a field this server does not know`);
      continue;
    }
    const value = reader.read(schema, state[name], location(undefined, `$.state.${name}`, name));
    if (value !== INVALID) fields.set(name, value);
    else if (!reader.definedAny(tableKind(schema))) unreadable.add(tableKind(schema) as IdKind);
  }
  for (const name of REQUIRED_FIELDS) if (!Object.hasOwn(state, name)) problems.push(`${name} (at $.state.${name}): required`);
  reader.finish(counters, unreadable);
  return { problems: [...problems, ...reader.problems], ...header, counters: counters ?? new Map(), fields };
}
