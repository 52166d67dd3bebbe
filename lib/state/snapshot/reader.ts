/**
 * Reads the encoded values of a saved world (lib/state/world-snapshot.ts) against their schemas
 * (lib/state/snapshot/schema.ts), decoding as it goes. It never stops at the first problem: every
 * value that does not fit is reported with its place in the file (a JSON path such as
 * `$.state.users.$map[3][1].$object[2][1]`) and what it is (`users[10].fullName`), and
 * references are checked once everything is read, so a reference to an entity saved later in
 * the file is fine.
 */
import { type ObjectSchema, type Reference, type Schema, unwrapped } from './schema.js';
import { describeLocation, EXPECTED, IDENTIFIER, INVALID, isRecord, type Location, location, shown, tagged } from './values.js';
import type { IdKind } from '../world.js';


export class SnapshotReader {
  readonly problems: string[] = [];
  private readonly defined = new Map<IdKind, Set<number>>();
  private readonly references: Array<{ readonly at: Location; readonly reference: Reference; readonly id: number }> = [];
  private readonly shared = new Map<number, { readonly value: unknown; readonly schema: Schema }>();
  /** Shared values defined in fields that are not read (indexes rebuilt on load): read at their first reference. */
  private readonly unread = new Map<number, { readonly encoded: unknown; readonly at: Location }>();

  problem(at: Location, message: string): typeof INVALID {
    this.problems.push(`${describeLocation(at)}: ${message}`);
    return INVALID;
  }

  /** The decoded value, or INVALID (with the problems recorded). */
  read(schema: Schema, encoded: unknown, at: Location): unknown {
    if (schema.type === 'optional') return tagged(encoded, '$undefined') === true ? undefined : this.read(schema.inner, encoded, at);
    if (schema.type === 'nullable') return encoded === null ? null : this.read(schema.inner, encoded, at);
    const reference = tagged(encoded, '$ref');
    if (reference !== undefined) return this.readReference(schema, reference, at);
    if (isRecord(encoded) && Object.hasOwn(encoded, '$shared')) return this.readShared(schema, encoded, at);
    return this.readValue(schema, encoded, at);
  }

  /**
   * Remembers the shared values defined inside `encoded`, a field that is skipped (files of
   * version 1 saved the indexes that are now rebuilt, and defined shared values there).
   */
  skip(encoded: unknown, at: Location): void {
    if (Array.isArray(encoded)) return encoded.forEach((inner) => this.skip(inner, at));
    if (!isRecord(encoded)) return;
    if (typeof encoded.$shared === 'number' && !this.unread.has(encoded.$shared)) this.unread.set(encoded.$shared, { encoded, at });
    for (const inner of Object.values(encoded)) this.skip(inner, at);
  }

  private readReference(schema: Schema, id: unknown, at: Location): unknown {
    const unread = typeof id === 'number' && !this.shared.has(id) ? this.unread.get(id) : undefined;
    if (unread) {
      this.unread.delete(id as number);
      this.readShared(schema, unread.encoded as Record<string, unknown>, unread.at);
    }
    const known = typeof id === 'number' ? this.shared.get(id) : undefined;
    if (!known) return this.problem(at, `refers to shared value ${shown(id)}, which is not defined before this point`);
    if (known.schema !== unwrapped(schema)) return this.problem(at, `refers to shared value ${shown(id)}, which is of another type`);
    return known.value;
  }

  private readShared(schema: Schema, encoded: Record<string, unknown>, at: Location): unknown {
    const id = encoded.$shared;
    if (Object.keys(encoded).length !== 2 || !Object.hasOwn(encoded, 'value') || !Number.isSafeInteger(id)) {
      return this.problem(at, 'expected {"$shared": integer, "value": ...}');
    }
    if (this.shared.has(id as number)) return this.problem(at, `shared value ${id as number} is defined twice`);
    const value = this.readValue(unwrapped(schema), encoded.value, location(at, '.value', ''));
    if (value !== INVALID) this.shared.set(id as number, { value, schema: unwrapped(schema) });
    return value;
  }

  private readValue(schema: Schema, encoded: unknown, at: Location): unknown {
    const wrong = () => this.problem(at, `expected ${EXPECTED[schema.type]}, got ${shown(encoded)}`);
    switch (schema.type) {
      case 'integer': {
        if (typeof encoded !== 'number' || !Number.isSafeInteger(encoded)) return wrong();
        if ((schema.refers || schema.defines) && encoded < 1) return this.problem(at, `expected an ID (a positive integer), got ${encoded}`);
        if (schema.refers) this.references.push({ at, reference: schema.refers, id: encoded });
        if (schema.defines) this.define(schema.defines, encoded, at);
        return encoded;
      }
      case 'number':
        return typeof encoded === 'number' && Number.isFinite(encoded) ? encoded : wrong();
      case 'string':
        return typeof encoded === 'string' ? encoded : wrong();
      case 'boolean':
        return typeof encoded === 'boolean' ? encoded : wrong();
      case 'scalar':
        return typeof encoded === 'boolean' || typeof encoded === 'string' || (typeof encoded === 'number' && Number.isFinite(encoded)) ? encoded : wrong();
      case 'record': {
        const pairs = tagged(encoded, '$object');
        return Array.isArray(pairs) ? this.readRecord(schema.value, pairs, at) : wrong();
      }
      case 'literal':
        return (typeof encoded === 'string' || typeof encoded === 'number') && schema.values.has(encoded)
          ? encoded
          : this.problem(at, `expected one of ${[...schema.values].map((value) => JSON.stringify(value)).join(', ')}, got ${shown(encoded)}`);
      case 'bytes': {
        const text = tagged(encoded, '$bytes');
        if (typeof text !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return wrong();
        return new Uint8Array(Buffer.from(text, 'base64'));
      }
      case 'array':
        return Array.isArray(encoded) ? this.readItems(schema.item, encoded, at, '') : wrong();
      case 'set': {
        const items = tagged(encoded, '$set');
        return Array.isArray(items) ? this.readSet(schema.item, items, at) : wrong();
      }
      case 'map': {
        const entries = tagged(encoded, '$map');
        return Array.isArray(entries) ? this.readMap(schema, entries, at) : wrong();
      }
      case 'object':
      case 'variant': {
        const pairs = tagged(encoded, '$object');
        return Array.isArray(pairs) ? this.readObject(schema, pairs, at) : wrong();
      }
      default:
        return this.read(schema, encoded, at);
    }
  }

  /** Whether any entity of `kind` was read (false for no kind). */
  definedAny(kind: IdKind | undefined): boolean {
    return kind !== undefined && (this.defined.get(kind)?.size ?? 0) > 0;
  }

  private define(kind: IdKind, id: number, at: Location): void {
    let ids = this.defined.get(kind);
    if (!ids) this.defined.set(kind, (ids = new Set()));
    if (ids.has(id)) this.problem(at, `a second ${kind} with ID ${id}`);
    ids.add(id);
  }

  private readItems(item: Schema, encoded: readonly unknown[], at: Location, tagStep: string): unknown[] | typeof INVALID {
    const out: unknown[] = [];
    let valid = true;
    encoded.forEach((inner, i) => {
      const value = this.read(item, inner, location(at, `${tagStep}[${i}]`, `[${i}]`));
      if (value === INVALID) valid = false;
      else out.push(value);
    });
    return valid ? out : INVALID;
  }

  private readSet(item: Schema, encoded: readonly unknown[], at: Location): Set<unknown> | typeof INVALID {
    const items = this.readItems(item, encoded, at, '.$set');
    if (items === INVALID) return INVALID;
    const out = new Set(items);
    return out.size === items.length ? out : this.problem(at, 'a set holds a value twice');
  }

  private readMap(schema: Extract<Schema, { type: 'map' }>, entries: readonly unknown[], at: Location): Map<unknown, unknown> | typeof INVALID {
    const out = new Map<unknown, unknown>();
    let valid = true;
    entries.forEach((entry, i) => {
      const here = location(at, `.$map[${i}]`, `[${i}]`);
      if (!Array.isArray(entry) || entry.length !== 2) {
        valid = false;
        this.problem(here, `expected a [key, value] pair, got ${shown(entry)}`);
        return;
      }
      // Keys are strings or numbers, read as they are: a repeated one is reported once, as such.
      if (out.has(entry[0])) {
        valid = false;
        this.problem(here, `the key ${shown(entry[0])} appears twice`);
        return;
      }
      const key = this.read(schema.key, entry[0], location(at, `.$map[${i}][0]`, `[key ${shown(entry[0])}]`));
      const value = this.read(schema.value, entry[1], location(at, `.$map[${i}][1]`, `[${shown(entry[0])}]`));
      if (key === INVALID || value === INVALID) return void (valid = false);
      if (schema.keyField !== undefined && (value as Record<string, unknown>)[schema.keyField] !== key) {
        valid = false;
        this.problem(here, `the entry under ${shown(key)} has ${schema.keyField} ${shown((value as Record<string, unknown>)[schema.keyField])}`);
        return;
      }
      out.set(key, value);
    });
    if (valid && schema.complete && schema.key.type === 'literal') {
      const missing = [...schema.key.values].filter((name) => !out.has(name));
      if (missing.length > 0) return this.problem(at, `lacks ${missing.map((name) => JSON.stringify(name)).join(', ')}`);
    }
    return valid ? out : INVALID;
  }

  private readRecord(item: Schema, pairs: readonly unknown[], at: Location): Record<string, unknown> | typeof INVALID {
    const out: Record<string, unknown> = {};
    let valid = true;
    pairs.forEach((pair, i) => {
      const name = Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string' && IDENTIFIER.test(pair[0]) ? pair[0] : undefined;
      if (name === undefined || Object.hasOwn(out, name)) {
        valid = false;
        this.problem(location(at, `.$object[${i}]`, `[${i}]`), name === undefined ? `expected a [name, value] pair with a lower-case identifier, got ${shown(pair)}` : 'the name appears twice');
        return;
      }
      const value = this.read(item, (pair as unknown[])[1], location(at, `.$object[${i}][1]`, `.${name}`));
      if (value === INVALID) valid = false;
      else Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
    });
    return valid ? out : INVALID;
  }

  private readObject(schema: ObjectSchema | Extract<Schema, { type: 'variant' }>, pairs: readonly unknown[], at: Location): Record<string, unknown> | typeof INVALID {
    let shape: ObjectSchema | undefined;
    if (schema.type === 'variant') {
      const tagPair = pairs.find((pair) => Array.isArray(pair) && pair[0] === schema.tag) as unknown[] | undefined;
      shape = typeof tagPair?.[1] === 'string' ? schema.cases.get(tagPair[1]) : undefined;
      if (!shape) return this.problem(at, `a ${schema.name} needs ${schema.tag} set to one of ${[...schema.cases.keys()].map((name) => JSON.stringify(name)).join(', ')}`);
    } else shape = schema;
    // Field names come from the schema's Map: a file's `__proto__` is an unknown name, never a key.
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    let valid = true;
    pairs.forEach((pair, i) => {
      const name = Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string' ? pair[0] : undefined;
      const here = location(at, `.$object[${i}]`, name === undefined ? `[${i}]` : `.${name}`);
      const field = name === undefined ? undefined : shape.fields.get(name);
      if (name === undefined || field === undefined) {
        valid = false;
        this.problem(here, name === undefined ? `expected a [name, value] pair, got ${shown(pair)}` : `a ${shape.name} has no field ${JSON.stringify(name)}`);
        return;
      }
      if (seen.has(name)) {
        valid = false;
        this.problem(here, 'the field appears twice');
        return;
      }
      seen.add(name);
      const value = this.read(field, (pair as unknown[])[1], location(at, `.$object[${i}][1]`, `.${name}`));
      if (value === INVALID) valid = false;
      else Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
    });
    for (const [name, field] of shape.fields) {
      if (seen.has(name) || field.type === 'optional') continue;
      valid = false;
      this.problem(at, `a ${shape.name} needs the field ${name}`);
    }
    if (valid && shape.refine) this.refine(shape, out, at);
    return valid ? out : INVALID;
  }

  private refine(shape: ObjectSchema, value: Record<string, unknown>, at: Location): void {
    shape.refine?.(value, {
      refer: (field, kind, id) => {
        if (typeof id === 'number') this.references.push({ at: location(at, '', `.${field}`), reference: { kind }, id });
      },
      problem: (field, message) => void this.problem(location(at, '', `.${field}`), message),
    });
  }

  /**
   * Checks references and ID counters once every value was read. Kinds whose table could not be
   * read at all are skipped (that table's problem is reported once), and so are the counters when
   * they could not be read.
   */
  finish(counters: ReadonlyMap<IdKind, number> | undefined, unreadable: ReadonlySet<IdKind>): void {
    // IDs handed out: up to the counter, or to the highest existing ID when the counter is behind (reported once).
    const handedOut = new Map<IdKind, number>();
    for (const [kind, ids] of this.defined) {
      let highest = 0;
      for (const id of ids) highest = Math.max(highest, id);
      const counter = counters?.get(kind) ?? 0;
      if (counters && highest > counter) this.problems.push(`ids (at $.ids): the ${kind} counter is ${counter}, behind the existing ${kind} ${highest} (the next ${kind} would take an ID in use)`);
      handedOut.set(kind, Math.max(highest, counter));
    }
    for (const { at, reference, id } of this.references) {
      if (unreadable.has(reference.kind) || (reference.pastOnly && !counters)) continue;
      const known = reference.pastOnly ? id <= (handedOut.get(reference.kind) ?? counters?.get(reference.kind) ?? 0) : this.defined.get(reference.kind)?.has(id) === true;
      if (!known) this.problem(at, `refers to ${reference.pastOnly ? 'a never-created' : 'an unknown'} ${reference.kind} ${id}`);
    }
  }
}
