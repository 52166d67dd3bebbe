/**
 * Assertion helpers for rules. They throw `RuleFailure` carrying the exchange they looked at, so
 * the report shows that request as a curl command. The suite asserts `result`, `code`, HTTP
 * status, response shape and state effects, never exact `msg` texts (they vary between versions;
 * design.md, contract rule 4).
 */
import type { JsonObject, Reply } from '../client/api-client.js';
import { RuleFailure } from '../errors.js';
import { preview, validate, type Validator } from './shape.js';

/** How a reply looked, for messages: `HTTP 400 {"result":"error",...}`. */
export function describeReply(reply: Reply): string {
  return `HTTP ${reply.status} ${preview(reply.body ?? reply.text, 1000)}`;
}

/** Fails the rule. */
export function fail(message: string, reply?: Reply): never {
  throw new RuleFailure(reply ? `${message}\n  got: ${describeReply(reply)}` : message, reply?.exchange);
}

/** Fails unless `condition` holds. */
export function check(condition: unknown, message: string | (() => string), reply?: Reply): asserts condition {
  if (!condition) fail(typeof message === 'function' ? message() : message, reply);
}

/** Structural equality of JSON-like values (object key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as JsonObject)[k], (b as JsonObject)[k]));
}

/** The path (`.a[2].b`) of the first place where two JSON-like values differ, or undefined. */
export function firstDifference(a: unknown, b: unknown, path = ''): { path: string; actual: unknown; expected: unknown } | undefined {
  if (jsonEqual(a, b)) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const inner = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (inner) return inner;
    }
    return { path: `${path}.length`, actual: a.length, expected: b.length };
  }
  const objects = a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b);
  if (!objects) return { path, actual: a, expected: b };
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  for (const key of keys) {
    const inner = firstDifference((a as JsonObject)[key], (b as JsonObject)[key], `${path}.${key}`);
    if (inner) return inner;
  }
  return { path, actual: a, expected: b };
}

export function expectEqual(actual: unknown, expected: unknown, what: string, reply?: Reply): void {
  if (jsonEqual(actual, expected)) return;
  // Whole values are cut for length: name the first difference so it is never cut off.
  const difference = firstDifference(actual, expected);
  const where = difference && difference.path !== '' ? `\n  first difference at ${what}${difference.path}: expected ${preview(difference.expected, 300)}, got ${preview(difference.actual, 300)}` : '';
  fail(`${what}: expected ${preview(expected, 300)}, got ${preview(actual, 300)}${where}`, reply);
}

/** The value conforms to `validator`; returns it typed. `what` names it in the message. */
export function expectShape<T>(value: unknown, validator: Validator<T>, what: string, reply?: Reply): T {
  const problems = validate(value, validator, what);
  if (problems.length > 0) fail(`response shape (${problems.length} problem${problems.length > 1 ? 's' : ''}):\n  - ${problems.slice(0, 200).join('\n  - ')}`, reply);
  return value as T;
}

export function expectStatus(reply: Reply, status: number | readonly number[], what = 'status'): void {
  const allowed = typeof status === 'number' ? [status] : status;
  if (!allowed.includes(reply.status)) fail(`${what}: expected HTTP ${allowed.join(' or ')}`, reply);
}

export interface SuccessExpectation {
  /**
   * Expected `ignored_parameters_unsupported`: the exact list, or `[]` for "key absent" (the
   * server omits it when empty). Left unchecked when undefined.
   */
  readonly ignored?: readonly string[];
}

/** HTTP 200, a JSON object with `result: "success"` and `msg: ""`. Returns the body. */
export function expectSuccess(reply: Reply, expectation: SuccessExpectation = {}): JsonObject {
  const body = reply.body;
  if (reply.status !== 200 || body?.result !== 'success') fail('expected a success (HTTP 200, result "success")', reply);
  check(body.msg === '', () => `success msg: expected "", got ${preview(body.msg)}`, reply);
  if (expectation.ignored !== undefined) {
    const actual = body.ignored_parameters_unsupported;
    if (expectation.ignored.length === 0) {
      check(actual === undefined, () => `ignored_parameters_unsupported: expected the key to be absent, got ${preview(actual)}`, reply);
    } else {
      expectEqual(actual, expectation.ignored, 'ignored_parameters_unsupported', reply);
    }
  }
  return body;
}

export interface ErrorExpectation {
  readonly status: number;
  readonly code: string;
}

/** The error envelope with this status and code (`result: "error"`, a string `msg`). Returns the body. */
export function expectError(reply: Reply, expected: ErrorExpectation): JsonObject {
  const body = reply.body;
  const label = `expected an error: HTTP ${expected.status}, code ${expected.code}`;
  if (reply.status !== expected.status || body?.result !== 'error' || body.code !== expected.code) {
    fail(`${label}; got HTTP ${reply.status}, result ${preview(body?.result)}, code ${preview(body?.code)}`, reply);
  }
  check(typeof body.msg === 'string', `${label}: msg must be a string`, reply);
  check(body.ignored_parameters_unsupported === undefined, `${label}: error responses never carry ignored_parameters_unsupported`, reply);
  return body;
}

/** `result: "error"` with any code (for checks where only failure matters). */
export function expectAnyError(reply: Reply, status: number): JsonObject {
  const body = reply.body;
  if (reply.status !== status || body?.result !== 'error' || typeof body.msg !== 'string') fail(`expected an error envelope with HTTP ${status}`, reply);
  return body;
}
