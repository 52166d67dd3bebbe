/**
 * Assertion helpers for rules. They throw `RuleFailure` carrying the exchange they looked at, so
 * the report shows that request as a curl command, and what they checked in machine-readable
 * form (`RecordedCheck`: kind, JSON path, expected and received value), so a reproduction script
 * can re-run the check. The suite asserts `result`, `code`, HTTP status, response shape and state
 * effects, never exact `msg` texts (they vary between versions; design.md, contract rule 4).
 */
import type { JsonObject, Reply } from '../client/api-client.js';
import { RuleFailure } from '../errors.js';
import { firstDifference, jsonEqual } from './json-equal.js';
import { locateValue, pathStep, type RecordedCheck, toJsonValue, valueAt } from './recorded-check.js';
import { preview, validate, type Validator } from './shape.js';

export { firstDifference, jsonEqual } from './json-equal.js';

/** How a reply looked, for messages: `HTTP 400 {"result":"error",...}`. */
export function describeReply(reply: Reply): string {
  return `HTTP ${reply.status} ${preview(reply.body ?? reply.text, 1000)}`;
}

/** A recorded check on `reply` (its exchange named), with JSON copies of the values. */
function recorded(reply: Reply | undefined, check: { kind: RecordedCheck['kind']; path?: string | undefined; expected?: unknown; received?: unknown }): RecordedCheck {
  const expected = toJsonValue(check.expected);
  const received = toJsonValue(check.received);
  return {
    kind: check.kind,
    ...(check.path === undefined ? {} : { path: check.path }),
    ...(expected === undefined ? {} : { expected }),
    ...(received === undefined ? {} : { received }),
    ...(reply ? { exchange: reply.exchange.seq } : {}),
  };
}

/** Fails the rule. `check` says what failed (default: a condition the rule computed). */
export function fail(message: string, reply?: Reply, check?: RecordedCheck): never {
  throw new RuleFailure(reply ? `${message}\n  got: ${describeReply(reply)}` : message, reply?.exchange, check ?? recorded(reply, { kind: 'condition' }));
}

/** Fails unless `condition` holds. */
export function check(condition: unknown, message: string | (() => string), reply?: Reply): asserts condition {
  if (!condition) fail(typeof message === 'function' ? message() : message, reply);
}

export function expectEqual(actual: unknown, expected: unknown, what: string, reply?: Reply): void {
  if (jsonEqual(actual, expected)) return;
  const path = reply ? locateValue(reply.json, actual, what) : undefined;
  failEqual(actual, expected, what, reply, path);
}

/** The value at `path` of the reply's body equals `expected`. */
function expectEqualAt(reply: Reply, path: string, expected: unknown, what: string): void {
  const actual = valueAt(reply.json, path).value;
  if (!jsonEqual(actual, expected)) failEqual(actual, expected, what, reply, path);
}

function failEqual(actual: unknown, expected: unknown, what: string, reply: Reply | undefined, path: string | undefined): never {
  // Whole values are cut for length: name the first difference so it is never cut off.
  const difference = firstDifference(actual, expected);
  const where = difference && difference.path !== '' ? `\n  first difference at ${what}${difference.path}: expected ${preview(difference.expected, 300)}, got ${preview(difference.actual, 300)}` : '';
  const message = `${what}: expected ${preview(expected, 300)}, got ${preview(actual, 300)}${where}`;
  const checked = recorded(reply, { kind: 'equal', path, expected, received: actual });
  if (reply) fail(message, reply, checked);
  throw new RuleFailure(message, undefined, checked, { value: actual, label: what });
}

/**
 * The check of the first shape problem (`body.user.role: expected one of 100, 200, got 500`, `body:
 * missing key 'x'`), its path made relative to the reply's body when `value` is part of it.
 */
function shapeCheck(problem: string, value: unknown, what: string, reply: Reply | undefined): RecordedCheck {
  const match = /^(.*?): (?:missing key '(.*)'|unexpected key '(.*)'|expected (.*?), got .*|(.*))$/s.exec(problem);
  const base = reply ? (value === reply.json ? '' : locateValue(reply.json, value, '')) : undefined;
  if (!match || base === undefined || !match[1]!.startsWith(what)) return recorded(reply, { kind: 'shape', expected: problem });
  const inner = match[1]!.slice(what.length);
  const missing = match[2];
  const unexpected = match[3];
  const key = missing ?? unexpected;
  const path = base + inner + (key === undefined ? '' : pathStep(key));
  if (missing !== undefined) return recorded(reply, { kind: 'shape', path, expected: 'present' });
  return recorded(reply, { kind: 'shape', path, expected: unexpected !== undefined ? 'absent' : (match[4] ?? match[5]), received: valueAt(reply?.json, path).value });
}

/** The value conforms to `validator`; returns it typed. `what` names it in the message. */
export function expectShape<T>(value: unknown, validator: Validator<T>, what: string, reply?: Reply): T {
  const problems = validate(value, validator, what);
  if (problems.length > 0) {
    const message = `response shape (${problems.length} problem${problems.length > 1 ? 's' : ''}):\n  - ${problems.slice(0, 200).join('\n  - ')}`;
    const checked = shapeCheck(problems[0]!, value, what, reply);
    if (reply) fail(message, reply, checked);
    throw new RuleFailure(message, undefined, checked);
  }
  return value as T;
}

export function expectStatus(reply: Reply, status: number | readonly number[], what = 'status'): void {
  const allowed = typeof status === 'number' ? [status] : status;
  if (!allowed.includes(reply.status)) fail(`${what}: expected HTTP ${allowed.join(' or ')}`, reply, recorded(reply, { kind: 'status', expected: allowed, received: reply.status }));
}

export interface SuccessExpectation {
  /**
   * Expected `ignored_parameters_unsupported`: the exact list, or `[]` for "key absent" (the
   * server omits it when empty). Left unchecked when undefined.
   */
  readonly ignored?: readonly string[];
}

/** The key is absent from the reply's body. */
function expectAbsent(reply: Reply, key: string, message: () => string): void {
  const at = valueAt(reply.json, pathStep(key));
  if (at.found) fail(message(), reply, recorded(reply, { kind: 'absent', path: pathStep(key), received: at.value }));
}

/** HTTP 200, a JSON object with `result: "success"` and `msg: ""`. Returns the body. */
export function expectSuccess(reply: Reply, expectation: SuccessExpectation = {}): JsonObject {
  const body = reply.body;
  if (reply.status !== 200 || body?.result !== 'success') {
    const checked = recorded(reply, { kind: 'success', expected: { status: 200, result: 'success' }, received: { status: reply.status, result: body?.result } });
    fail('expected a success (HTTP 200, result "success")', reply, checked);
  }
  if (body.msg !== '') fail(`success msg: expected "", got ${preview(body.msg)}`, reply, recorded(reply, { kind: 'equal', path: '.msg', expected: '', received: body.msg }));
  if (expectation.ignored !== undefined) {
    const actual = body.ignored_parameters_unsupported;
    if (expectation.ignored.length === 0) expectAbsent(reply, 'ignored_parameters_unsupported', () => `ignored_parameters_unsupported: expected the key to be absent, got ${preview(actual)}`);
    else expectEqualAt(reply, '.ignored_parameters_unsupported', expectation.ignored, 'ignored_parameters_unsupported');
  }
  return body;
}

export interface ErrorExpectation {
  readonly status: number;
  readonly code: string;
}

type ErrorAnswer = { readonly status: number; readonly code?: string };

/** Fails: the reply is none of the error answers `expected` (any code when a code is unset). */
export function failAsError(reply: Reply, expected: readonly ErrorAnswer[], message: string): never {
  const body = reply.body;
  fail(message, reply, recorded(reply, { kind: 'error', expected: expected.length === 1 ? expected[0] : expected, received: { status: reply.status, result: body?.result, code: body?.code } }));
}

function failUnlessError(reply: Reply, expected: ErrorAnswer, message: string): JsonObject {
  const body = reply.body;
  if (reply.status === expected.status && body?.result === 'error' && (expected.code === undefined || body.code === expected.code)) return body;
  failAsError(reply, [expected], message);
}

/** The error envelope with this status and code (`result: "error"`, a string `msg`). Returns the body. */
export function expectError(reply: Reply, expected: ErrorExpectation): JsonObject {
  const label = `expected an error: HTTP ${expected.status}, code ${expected.code}`;
  const body = failUnlessError(reply, expected, `${label}; got HTTP ${reply.status}, result ${preview(reply.body?.result)}, code ${preview(reply.body?.code)}`);
  if (typeof body.msg !== 'string') fail(`${label}: msg must be a string`, reply, recorded(reply, { kind: 'shape', path: '.msg', expected: 'string', received: body.msg }));
  expectAbsent(reply, 'ignored_parameters_unsupported', () => `${label}: error responses never carry ignored_parameters_unsupported`);
  return body;
}

/** `result: "error"` with any code (for checks where only failure matters). */
export function expectAnyError(reply: Reply, status: number): JsonObject {
  const body = failUnlessError(reply, { status }, `expected an error envelope with HTTP ${status}`);
  if (typeof body.msg !== 'string') fail(`expected an error envelope with HTTP ${status}`, reply, recorded(reply, { kind: 'shape', path: '.msg', expected: 'string', received: body.msg }));
  return body;
}
