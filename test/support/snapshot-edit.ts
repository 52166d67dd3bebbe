/**
 * Editing a saved world's JSON document in tests, the way a person or a broken tool would edit a
 * state file: find a table entry, change or add an entity's field, change a counter.
 */

/** The JSON document of a saved world, as parsed from the file. */
export type Document = Record<string, unknown> & { state: Record<string, unknown>; ids: Array<[string, number]> };

type Pairs = Array<[unknown, unknown]>;

/** The value inside a shared-value wrapper (`{"$shared": n, "value": ...}`), or the value itself. */
function unwrap(value: unknown): Record<string, unknown> {
  const record = value as Record<string, unknown>;
  return (Object.hasOwn(record, '$shared') ? record.value : record) as Record<string, unknown>;
}

/** The `[key, value]` pairs of a map-valued state field. */
export function mapEntries(doc: Document, field: string): Pairs {
  return unwrap(doc.state[field]).$map as Pairs;
}

/** The index of `key` among the field's map entries (its place in JSON paths). */
export function entryIndex(doc: Document, field: string, key: unknown): number {
  const index = mapEntries(doc, field).findIndex(([candidate]) => candidate === key);
  if (index < 0) throw new Error(`no ${String(key)} in ${field}`);
  return index;
}

/** The encoded entity stored under `key` in a map-valued state field. */
export function entity(doc: Document, field: string, key: unknown): Record<string, unknown> {
  return unwrap(mapEntries(doc, field)[entryIndex(doc, field, key)]?.[1]);
}

/** The `[name, value]` pairs of an encoded entity. */
export const pairsOf = (encoded: Record<string, unknown>): Pairs => unwrap(encoded).$object as Pairs;

/** The index of the field `name` among an entity's pairs. */
export function fieldIndex(encoded: Record<string, unknown>, name: string): number {
  const index = pairsOf(encoded).findIndex(([candidate]) => candidate === name);
  if (index < 0) throw new Error(`no field ${name}`);
  return index;
}

/** Sets an entity's field (adding it when absent). */
export function setField(encoded: Record<string, unknown>, name: string, value: unknown): void {
  const pairs = pairsOf(encoded);
  const index = pairs.findIndex(([candidate]) => candidate === name);
  if (index >= 0) (pairs[index] as [unknown, unknown])[1] = value;
  else pairs.push([name, value]);
}

export function removeField(encoded: Record<string, unknown>, name: string): void {
  pairsOf(encoded).splice(fieldIndex(encoded, name), 1);
}

/** Sets the last ID handed out for `kind`. */
export function setCounter(doc: Document, kind: string, last: number): void {
  const entry = doc.ids.find(([candidate]) => candidate === kind);
  if (entry) entry[1] = last;
  else doc.ids.push([kind, last]);
}

/** A regular expression matching `text` literally. */
export const literally = (text: string): RegExp => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
