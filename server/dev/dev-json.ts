/**
 * The JSON conventions of the development endpoints: answers in the API's envelope
 * (`result`, `msg`, data), errors as 400/404/405 with `code: "BAD_REQUEST"`, and request bodies
 * read as one JSON object whose fields are checked by name, unknown names refused (a typo such as
 * `delay` for `delay_ms` must not be silently ignored).
 */
import type { ApiRequest, ApiResponse } from '../app/request.js';
import { jsonResponse } from '../app/respond.js';

/** A request a development endpoint refuses; the front turns it into an error answer. */
export class DevRequestError extends Error {
  override readonly name = 'DevRequestError';
  constructor(
    readonly status: number,
    message: string,
    readonly data: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

export const devSuccess = (data: Readonly<Record<string, unknown>> = {}): ApiResponse => jsonResponse(200, { result: 'success', msg: '', ...data });

export const devError = (status: number, msg: string, data: Readonly<Record<string, unknown>> = {}): ApiResponse =>
  jsonResponse(status, { result: 'error', msg, ...data, code: 'BAD_REQUEST' });

/** The body as JSON (`{}` when empty), or a 400 naming the parse error. */
export function jsonBody(request: ApiRequest): unknown {
  if (request.body.length === 0) return {};
  try {
    return JSON.parse(new TextDecoder().decode(request.body)) as unknown;
  } catch (error) {
    throw new DevRequestError(400, `the request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** Named fields of a JSON object body, read once each; `finish` refuses the names never read. */
export class JsonFields {
  private readonly fields: ReadonlyMap<string, unknown>;
  private readonly read = new Set<string>();

  constructor(body: unknown) {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new DevRequestError(400, 'the request body must be a JSON object');
    this.fields = new Map(Object.entries(body));
  }

  static of(request: ApiRequest): JsonFields {
    return new JsonFields(jsonBody(request));
  }

  has(name: string): boolean {
    return this.fields.has(name) && this.fields.get(name) !== null;
  }

  /** The raw value (any JSON), or undefined when absent or null. */
  any(name: string): unknown {
    this.read.add(name);
    const value = this.fields.get(name);
    return value === null ? undefined : value;
  }

  string(name: string, maxLength: number): string | undefined {
    const value = this.any(name);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw new DevRequestError(400, `${name} must be a string`);
    if (value.length > maxLength) throw new DevRequestError(400, `${name} is longer than ${maxLength} characters`);
    return value;
  }

  boolean(name: string): boolean | undefined {
    const value = this.any(name);
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') throw new DevRequestError(400, `${name} must be true or false`);
    return value;
  }

  number(name: string, min: number, max: number, integer: boolean): number | undefined {
    const value = this.any(name);
    if (value === undefined) return undefined;
    const ok = typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max && (!integer || Number.isInteger(value));
    if (!ok) throw new DevRequestError(400, `${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
    return value as number;
  }

  /** Refuses fields that were never read (misspelt or unsupported). */
  finish(): void {
    const unknown = [...this.fields.keys()].filter((name) => !this.read.has(name));
    if (unknown.length > 0) throw new DevRequestError(400, `unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')} (known: ${[...this.read].join(', ')})`);
  }
}

/** One query parameter as an integer within bounds, or the fallback when absent. */
export function queryInteger(request: ApiRequest, name: string, fallback: number, min: number, max: number): number {
  const entry = request.query.find(([key]) => key === name);
  if (!entry) return fallback;
  const value = Number(entry[1]);
  if (!/^\d{1,15}$/.test(entry[1]) || value < min || value > max) throw new DevRequestError(400, `${name} must be an integer from ${min} to ${max}`);
  return value;
}
