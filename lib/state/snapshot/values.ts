/**
 * The encoded values of a saved world as the snapshot reader (lib/state/snapshot/reader.ts) sees
 * them: where each sits (a path in the file, and what it is in the world), how a value is shown in
 * a problem, and how a tagged container (`{"$map": [...]}`) is recognised.
 */
import type { Schema } from './schema.js';

/** Where a value sits: a step in the file and in the world, below its parent. */
export interface Location {
  readonly parent?: Location;
  readonly file: string;
  readonly logical: string;
}

export const location = (parent: Location | undefined, file: string, logical: string): Location => (parent ? { parent, file, logical } : { file, logical });

/** What a value is, then where it sits in the file. */
export function describeLocation(at: Location): string {
  const files: string[] = [];
  const logicals: string[] = [];
  for (let step: Location | undefined = at; step; step = step.parent) {
    files.push(step.file);
    logicals.push(step.logical);
  }
  return `${logicals.reverse().join('')} (at ${files.reverse().join('')})`;
}

/** Returned for a value that does not fit its schema (a problem was recorded). */
export const INVALID: unique symbol = Symbol('invalid');

const MAX_SHOWN = 40;
/** Names a record may have: those this server writes (template variables), so never `__proto__`. */
export const IDENTIFIER = /^[a-z][a-z0-9_]*$/;

export function shown(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The one tag of an encoded container (`{"$map": [...]}`), or undefined when it has another form. */
export function tagged(value: unknown, tag: string): unknown {
  if (!isRecord(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === tag ? value[tag] : undefined;
}

export const EXPECTED: Readonly<Record<Schema['type'], string>> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  bytes: 'bytes ({"$bytes": base64})',
  scalar: 'true, false, a number or a string',
  record: 'an object ({"$object": [[name, value], ...]})',
  literal: 'one of the known values',
  nullable: 'a value or null',
  optional: 'a value',
  array: 'an array',
  set: 'a set ({"$set": [...]})',
  map: 'a map ({"$map": [[key, value], ...]})',
  object: 'an object ({"$object": [[name, value], ...]})',
  variant: 'an object ({"$object": [[name, value], ...]})',
};

