/**
 * The shapes a saved world's values must have (lib/state/snapshot/fields.ts lists them per World
 * field), and what their IDs refer to. A loader checks every value of a state file against these
 * before anything is restored (lib/state/snapshot/reader.ts).
 *
 * Object schemas keep their field names in a Map: a file's names are looked up there, never as
 * keys of a plain object, so `__proto__` or `constructor` in a file is only an unknown name.
 */
import type { IdKind } from '../world.js';

/** What an integer names: an entity of `kind`; `pastOnly` ones may have been deleted since. */
export interface Reference {
  readonly kind: IdKind;
  /** Only an ID handed out so far (at most the kind's counter); it may name a deleted entity. */
  readonly pastOnly?: boolean;
}

/** Checks across an object's fields, once each field has its type (`refer` records a reference). */
export type Refinement = (value: Readonly<Record<string, unknown>>, context: RefineContext) => void;

export interface RefineContext {
  refer(field: string, kind: IdKind, id: unknown): void;
  problem(field: string, message: string): void;
}

export type Schema =
  | { readonly type: 'integer'; readonly refers?: Reference; readonly defines?: IdKind }
  | { readonly type: 'number' }
  | { readonly type: 'string' }
  | { readonly type: 'boolean' }
  | { readonly type: 'bytes' }
  /** A setting's value: true/false, a number or a string. */
  | { readonly type: 'scalar' }
  | { readonly type: 'literal'; readonly values: ReadonlySet<string | number> }
  | { readonly type: 'nullable'; readonly inner: Schema }
  | { readonly type: 'optional'; readonly inner: Schema }
  | { readonly type: 'array'; readonly item: Schema }
  | { readonly type: 'set'; readonly item: Schema }
  | { readonly type: 'map'; readonly key: Schema; readonly value: Schema; readonly keyField?: string; readonly complete?: boolean }
  /** A plain object whose names are identifiers chosen by this server (never request text). */
  | { readonly type: 'record'; readonly value: Schema }
  | ObjectSchema
  | { readonly type: 'variant'; readonly name: string; readonly tag: string; readonly cases: ReadonlyMap<string, ObjectSchema> };

export interface ObjectSchema {
  readonly type: 'object';
  readonly name: string;
  readonly fields: ReadonlyMap<string, Schema>;
  readonly refine?: Refinement;
}

export const integer: Schema = { type: 'integer' };
export const number: Schema = { type: 'number' };
export const string: Schema = { type: 'string' };
export const boolean: Schema = { type: 'boolean' };
export const bytes: Schema = { type: 'bytes' };
export const scalar: Schema = { type: 'scalar' };

/** An ID of an existing entity of `kind`. */
export const ref = (kind: IdKind): Schema => ({ type: 'integer', refers: { kind } });
/** An ID of an entity of `kind` handed out at some point (it may have been deleted since). */
export const pastRef = (kind: IdKind): Schema => ({ type: 'integer', refers: { kind, pastOnly: true } });
/** The ID of an entity of `kind` kept in a list (each may appear once). */
export const defines = (kind: IdKind): Schema => ({ type: 'integer', defines: kind });

export const literal = (...values: ReadonlyArray<string | number>): Schema => ({ type: 'literal', values: new Set(values) });
export const nullable = (inner: Schema): Schema => ({ type: 'nullable', inner });
/** A field that may be absent (or saved as undefined). */
export const optional = (inner: Schema): Schema => ({ type: 'optional', inner });
export const array = (item: Schema): Schema => ({ type: 'array', item });
export const set = (item: Schema): Schema => ({ type: 'set', item });
export const map = (key: Schema, value: Schema): Schema => ({ type: 'map', key, value });
/** A map keyed by every one of `names` (a literal schema's values), each present. */
export const complete = (names: readonly string[], value: Schema): Schema => ({ type: 'map', key: literal(...names), value, complete: true });
export const record = (value: Schema): Schema => ({ type: 'record', value });

/** A table: entity ID to entity, whose `keyField` (default `id`) must equal its key. */
export const table = (kind: IdKind, value: Schema, keyField = 'id'): Schema => ({ type: 'map', key: defines(kind), value, keyField });
/** User ID to a per-user record whose `keyField` (when given) is that user's ID. */
export const perUser = (value: Schema, keyField?: string): Schema => ({ type: 'map', key: ref('user'), value, ...(keyField ? { keyField } : {}) });

/**
 * An object with exactly these fields (optional ones may be absent). Typed by the entity, so a
 * field added to the entity without a schema here does not compile.
 */
export function entity<T>(name: string, fields: { readonly [K in keyof T]-?: Schema }, refine?: Refinement): ObjectSchema {
  return { type: 'object', name, fields: new Map(Object.entries(fields) as Array<[string, Schema]>), ...(refine ? { refine } : {}) };
}

/** A union of objects told apart by the string field `tag`. */
export function variant(name: string, tag: string, cases: Readonly<Record<string, ObjectSchema>>): Schema {
  return { type: 'variant', name, tag, cases: new Map(Object.entries(cases)) };
}

/** The concrete schema under nullable/optional wrappers (what a shared object must match). */
export function unwrapped(schema: Schema): Schema {
  return schema.type === 'nullable' || schema.type === 'optional' ? unwrapped(schema.inner) : schema;
}
