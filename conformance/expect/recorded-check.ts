/**
 * The machine-readable form of a failing assertion: what kind of check, where in which answer it
 * looked (a JSON path into the response body), what it expected and what it received. Reproduction
 * scripts re-run the check on a fresh answer; the HTML report highlights the field. The assertion
 * helpers fill it in; where the checked value cannot be found in the answer, `path` stays unset
 * and the check is shown but cannot be re-run.
 */
import { jsonEqual } from './json-equal.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * - `status`: the HTTP status is one of `expected` (an array of numbers).
 * - `success`: HTTP 200 with `result: "success"`; `expected`/`received` hold `{status, result}`.
 * - `error`: this HTTP status and `code`; `expected` holds `{status, code}`, `received` `{status, result, code}`.
 * - `equal`: the value at `path` equals `expected` (JSON equality, key order ignored).
 * - `absent`: no value at `path` (the key is missing).
 * - `shape`: the value at `path` has the shape `expected` describes (a text); re-checked as "the same
 *   wrong value, or the same missing key, is still there".
 * - `condition`: a condition the rule computed (`check`, `fail`): not re-checkable from the answer.
 */
export type CheckKind = 'status' | 'success' | 'error' | 'equal' | 'absent' | 'shape' | 'condition';

export interface RecordedCheck {
  readonly kind: CheckKind;
  /**
   * JSON path into the response body of the checked exchange (`.a[2].b`, `["odd key"]`; `''` is the
   * whole body). Unset for `status`, `success`, `error` and `condition`, and when the checked value
   * was not found in the answer.
   */
  readonly path?: string;
  /** Unset when the value is absent (a missing key) or not recordable. */
  readonly expected?: JsonValue;
  readonly received?: JsonValue;
  /** The checked exchange: its `seq` in the rule's transcript (unset when no answer was checked). */
  readonly exchange?: number;
}

/** Values larger than this (as JSON) are not recorded: the report keeps the message only. */
const MAX_RECORDED_CHARS = 64 * 1024;
/** Nodes visited when searching an answer for a value. */
const MAX_VISITED = 20_000;

/** A JSON copy of `value`, or undefined when it is undefined, not JSON, or too large. */
export function toJsonValue(value: unknown): JsonValue | undefined {
  if (value === undefined) return undefined;
  try {
    const text = JSON.stringify(value);
    if (text === undefined || text.length > MAX_RECORDED_CHARS) return undefined;
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** One step of a path as text: `.name` or `["odd key"]` or `[3]`. */
export function pathStep(key: string | number): string {
  if (typeof key === 'number') return `[${key}]`;
  return IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** The steps of a path written by `pathStep` (undefined when it is not one). Copied into reproduction scripts: self-contained. */
export function parsePath(path: string): Array<string | number> | undefined {
  const steps: Array<string | number> = [];
  const step = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  let at = 0;
  while (at < path.length) {
    step.lastIndex = at;
    const match = step.exec(path);
    if (!match) return undefined;
    steps.push(match[1] ?? (match[2] !== undefined ? Number(match[2]) : (JSON.parse(match[3]!) as string)));
    at = step.lastIndex;
  }
  return steps;
}

/** The value at `path` in `root`, and whether every step existed. Copied into reproduction scripts with `parsePath`. */
export function valueAt(root: unknown, path: string): { found: boolean; value: unknown } {
  const steps = parsePath(path);
  if (!steps) return { found: false, value: undefined };
  let value = root;
  for (const key of steps) {
    if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, key)) return { found: false, value: undefined };
    value = (value as Record<string, unknown>)[key];
  }
  return { found: true, value };
}

/** Every path in `root` whose value satisfies `match`, up to `limit` of them. */
function findPaths(root: unknown, match: (value: unknown) => boolean, limit: number): string[] {
  const found: string[] = [];
  const stack: Array<[unknown, string]> = [[root, '']];
  let visited = 0;
  while (stack.length > 0 && found.length < limit && visited++ < MAX_VISITED) {
    const [value, path] = stack.pop()!;
    if (match(value)) {
      found.push(path);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], path + pathStep(entries[i]![0])]);
  }
  return found;
}

/**
 * Where in `body` the rule took `value` from, or undefined when that cannot be told for sure:
 * 1. the field the label names (`presence.aggregated.status when ...`) holds an equal value;
 * 2. `value` is an object or array of `body` itself (the rule passed `body.users`);
 * 3. exactly one place in `body` holds an equal string, number or non-empty object or array
 *    (never a boolean or null, which stand in many places and would name the wrong field).
 */
export function locateValue(body: unknown, value: unknown, label: string): string | undefined {
  const named = /^(?:body(?=[.[]))?((?:\.?[A-Za-z_][\w]*)(?:\.[A-Za-z_][\w]*|\[\d+\])*)[:,]?(?:\s|$)/.exec(label)?.[1];
  if (named !== undefined) {
    const path = named.startsWith('.') ? named : `.${named}`;
    const at = valueAt(body, path);
    if (at.found === (value !== undefined) && jsonEqual(at.value, value)) return path;
  }
  if (value !== null && typeof value === 'object') {
    const same = findPaths(body, (node) => node === value, 1);
    if (same.length === 1) return same[0];
    if (Object.keys(value).length === 0) return undefined;
  } else if (typeof value !== 'string' && typeof value !== 'number') {
    return undefined;
  }
  const equals = findPaths(body, (node) => jsonEqual(node, value), 2);
  return equals.length === 1 ? equals[0] : undefined;
}
