/**
 * Checks an event against the real server's event schemas (the real OpenAPI get-events description, extracted to
 * event-schemas.json by extract-event-schemas.py). The validator knows the keywords those
 * schemas use: `$ref`, `allOf` (merged, so `additionalProperties: false` covers the union of
 * the parts' properties), `oneOf`/`anyOf` (any alternative; exclusivity is not checked),
 * `type` with `nullable`, `enum`, `properties`, `additionalProperties`, `required`, `items`.
 *
 * An event is valid when at least one event schema with its `type` (and `op`, when the schema
 * names ops) accepts it. Few schemas list `required` keys, so tests also assert exact payloads.
 */
import type { Test } from 'tap';
import { readFileSync } from 'node:fs';
import type { ApiEvent } from './reducers/registry.js';

interface Schema {
  readonly $ref?: string;
  readonly type?: string;
  readonly nullable?: boolean;
  readonly enum?: readonly unknown[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly additionalProperties?: boolean | Schema;
  readonly required?: readonly string[];
  readonly items?: Schema;
  readonly allOf?: readonly Schema[];
  readonly oneOf?: readonly Schema[];
  readonly anyOf?: readonly Schema[];
}

interface SchemaFile {
  readonly root: string;
  readonly schemas: Readonly<Record<string, Schema>>;
}

// Read from the source tree: tests run from dist/test/support/.
const FILE = JSON.parse(readFileSync(new URL('../../../test/support/event-schemas.json', import.meta.url), 'utf8')) as SchemaFile;

function resolve(schema: Schema): Schema {
  let current = schema;
  while (current.$ref !== undefined) {
    const target = FILE.schemas[current.$ref.slice(current.$ref.lastIndexOf('/') + 1)];
    if (!target) throw new Error(`unknown schema ${current.$ref}`);
    current = target;
  }
  return current;
}

/** `allOf` folded into one schema: the parts' properties, required keys and constraints together. */
function flatten(schema: Schema): Schema {
  const base = resolve(schema);
  if (!base.allOf) return base;
  const parts = [{ ...base, allOf: undefined }, ...base.allOf.map(flatten)];
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  let closed = false;
  const merged: { -readonly [K in keyof Schema]: Schema[K] } = {};
  for (const part of parts) {
    Object.assign(properties, part.properties ?? {});
    required.push(...(part.required ?? []));
    if (part.additionalProperties === false) closed = true;
    for (const key of ['type', 'nullable', 'enum', 'items', 'oneOf', 'anyOf'] as const) {
      if (part[key] !== undefined) (merged as Record<string, unknown>)[key] = part[key];
    }
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.length > 0) merged.required = required;
  if (closed) merged.additionalProperties = false;
  return merged;
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'string':
    case 'boolean':
      return typeof value === type;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return true;
  }
}

/** Every way `value` breaks `schema`, as `path: problem` strings (empty when valid). */
export function schemaErrors(schema: Schema, value: unknown, path = '$'): string[] {
  const s = flatten(schema);
  if (value === null) return s.nullable || s.type === undefined ? [] : [`${path}: null is not allowed`];
  if (s.type !== undefined && !typeMatches(s.type, value)) return [`${path}: expected ${s.type}, got ${JSON.stringify(value)}`];
  if (s.enum && !s.enum.includes(value)) return [`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(s.enum)}`];
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives) {
    const failures = alternatives.map((alt) => schemaErrors(alt, value, path));
    if (!failures.some((f) => f.length === 0)) return [`${path}: matches no alternative (${failures.map((f) => f.join('; ')).join(' | ')})`];
  }
  const errors: string[] = [];
  if (Array.isArray(value) && s.items) value.forEach((item, i) => errors.push(...schemaErrors(s.items as Schema, item, `${path}[${i}]`)));
  if (typeMatches('object', value) && (s.properties || s.additionalProperties !== undefined || s.required)) {
    const record = value as Record<string, unknown>;
    for (const key of s.required ?? []) if (!(key in record)) errors.push(`${path}: missing ${key}`);
    for (const [key, item] of Object.entries(record)) {
      const property = s.properties?.[key];
      if (property) errors.push(...schemaErrors(property, item, `${path}.${key}`));
      else if (s.additionalProperties === false) errors.push(`${path}: unexpected key ${key}`);
      else if (typeof s.additionalProperties === 'object') errors.push(...schemaErrors(s.additionalProperties, item, `${path}.${key}`));
    }
  }
  return errors;
}

const EVENT_SCHEMAS: readonly Schema[] = (resolve(FILE.schemas[FILE.root] as Schema).oneOf ?? []).map(flatten);

const enumOf = (schema: Schema | undefined): readonly unknown[] | undefined => (schema ? flatten(schema).enum : undefined);

/**
 * Why `event` matches none of the event schemas for its type and op (empty when one accepts
 * it). An event type the description does not know is an error too.
 */
export function eventSchemaErrors(event: ApiEvent): string[] {
  const candidates = EVENT_SCHEMAS.filter((schema) => {
    const types = enumOf(schema.properties?.type);
    const ops = enumOf(schema.properties?.op);
    return types?.includes(event.type) === true && (ops === undefined || ops.includes(event.op));
  });
  if (candidates.length === 0) return [`no event schema for type ${event.type} op ${String(event.op)}`];
  const failures = candidates.map((schema) => schemaErrors(schema, event));
  if (failures.some((f) => f.length === 0)) return [];
  return failures.reduce((best, f) => (f.length < best.length ? f : best));
}

/** Asserts that every event (heartbeats aside) matches its the real OpenAPI get-events description schema. */
export function checkEventShapes(t: Test, events: readonly ApiEvent[]): void {
  for (const event of events) {
    if (event.type === 'heartbeat') continue;
    const name = event.op === undefined ? event.type : `${event.type}/${String(event.op)}`;
    t.same(eventSchemaErrors(event), [], `${name} matches its the real OpenAPI get-events description schema`);
  }
}
