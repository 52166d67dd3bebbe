/**
 * Fault injection for the development server: "the next N requests matching METHOD and PATH
 * answer STATUS with BODY (after DELAY)", or only wait DELAY and then reach the API. A fault that
 * answers is applied before the API sees the request, so the state is untouched; every answer a
 * fault touched carries `X-Injected-Fault` with the fault's ID. `Prefer: code=NNN` (as in Prism)
 * injects a status for one request without registering anything.
 *
 * Path patterns match whole segments, so matching is linear in the path: `*` is any one segment,
 * a final `**` any number of them (`/api/v1/messages/*`, `/api/v1/**`).
 */
import type { ApiRequest, ApiResponse } from '../app/request.js';
import { jsonResponse } from '../app/respond.js';
import { DevRequestError, type JsonFields } from './dev-json.js';

export const FAULT_HEADER = 'X-Injected-Fault';
const MAX_FAULTS = 1000;
const MAX_DELAY_MS = 60_000;
const METHODS = new Set(['*', 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export interface Fault {
  readonly id: number;
  /** Upper-case method, or `*` for any. */
  readonly method: string;
  readonly path: string;
  /** The status to answer with; undefined for a delay-only fault (the API then answers). */
  readonly status: number | undefined;
  /** A string is sent as text/plain, anything else as JSON; undefined means the default body. */
  readonly body: unknown;
  readonly delayMs: number;
  remaining: number;
  hits: number;
}

/** The pattern's segments; refuses what is not a path or puts `**` anywhere but last. */
function patternSegments(path: string): readonly string[] {
  if (!path.startsWith('/')) throw new DevRequestError(400, 'path must start with /');
  const segments = path.split('/');
  if (segments.slice(0, -1).includes('**')) throw new DevRequestError(400, '** may only be the last segment of path');
  return segments;
}

function matchesPath(pattern: readonly string[], path: string): boolean {
  const segments = path.split('/');
  const rest = pattern[pattern.length - 1] === '**';
  const fixed = rest ? pattern.length - 1 : pattern.length;
  if (rest ? segments.length < fixed : segments.length !== fixed) return false;
  for (let i = 0; i < fixed; i += 1) if (pattern[i] !== '*' && pattern[i] !== segments[i]) return false;
  return true;
}

/** The answer a fault gives: its body, or an envelope saying it was injected. */
function injectedAnswer(id: string, status: number, body: unknown): ApiResponse {
  const header = { [FAULT_HEADER]: id };
  if (status === 204 || status === 304) return { status, headers: header, body: '' };
  if (typeof body === 'string') return { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...header }, body };
  if (body !== undefined) return jsonResponse(status, body, header);
  const envelope = status >= 400 ? { result: 'error', msg: `Injected fault (HTTP ${status})`, code: 'BAD_REQUEST' } : { result: 'success', msg: '' };
  return jsonResponse(status, envelope, header);
}

const labelled = (id: string, response: ApiResponse): ApiResponse => ({ ...response, headers: { ...response.headers, [FAULT_HEADER]: id } });

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** `Prefer: code=503`: the status asked for, when the header asks for one from 200 to 599. */
function preferredStatus(request: ApiRequest): number | undefined {
  const header = request.headers.get('prefer');
  if (header === undefined || header.length > 1000) return undefined;
  for (const part of header.split(/[,;]/)) {
    const match = /^\s*code\s*=\s*"?(\d{3})"?\s*$/i.exec(part);
    const status = Number(match?.[1]);
    if (match && status >= 200 && status <= 599) return status;
  }
  return undefined;
}

export class FaultTable {
  private readonly faults: Array<{ readonly fault: Fault; readonly pattern: readonly string[] }> = [];
  private nextId = 1;

  /** Registers a fault from a request body (see docs/dev-server.md); returns it. */
  add(fields: JsonFields): Fault {
    const method = (fields.string('method', 10) ?? '*').toUpperCase();
    if (!METHODS.has(method)) throw new DevRequestError(400, `method must be one of ${[...METHODS].join(', ')}`);
    const path = fields.string('path', 2000);
    if (path === undefined) throw new DevRequestError(400, 'path is required (a path pattern such as /api/v1/messages or /api/v1/**)');
    const pattern = patternSegments(path);
    const body = fields.any('body');
    const status = fields.number('status', 200, 599, true) ?? (body === undefined ? undefined : 200);
    const delayMs = fields.number('delay_ms', 0, MAX_DELAY_MS, true) ?? 0;
    const times = fields.number('times', 1, 1_000_000, true) ?? 1;
    fields.finish();
    if (status === undefined && delayMs === 0) throw new DevRequestError(400, 'give status, body or delay_ms (a fault must change something)');
    if (this.faults.length >= MAX_FAULTS) throw new DevRequestError(400, `at most ${MAX_FAULTS} faults can be active; clear some first`);
    const fault: Fault = { id: this.nextId++, method, path, status, body, delayMs, remaining: times, hits: 0 };
    this.faults.push({ fault, pattern });
    return fault;
  }

  list(): readonly Fault[] {
    return this.faults.map(({ fault }) => fault);
  }

  /** Removes one fault (false when there is none with that ID), or every fault. */
  clear(id?: number): boolean {
    if (id === undefined) {
      this.faults.length = 0;
      return true;
    }
    const index = this.faults.findIndex(({ fault }) => fault.id === id);
    if (index >= 0) this.faults.splice(index, 1);
    return index >= 0;
  }

  /**
   * The answer for `request` when a fault (or its `Prefer` header) applies: the injected answer,
   * or, for a delay-only fault, the API's answer after the delay. Undefined when none applies.
   */
  intercept(request: ApiRequest, api: () => ApiResponse | Promise<ApiResponse>): ApiResponse | Promise<ApiResponse> | undefined {
    const preferred = preferredStatus(request);
    if (preferred !== undefined) return injectedAnswer('prefer', preferred, undefined);
    if (this.faults.length === 0) return undefined;
    const fault = this.take(request);
    if (!fault) return undefined;
    const id = String(fault.id);
    const answer = (): ApiResponse | Promise<ApiResponse> => {
      if (fault.status !== undefined) return injectedAnswer(id, fault.status, fault.body);
      const response = api();
      return response instanceof Promise ? response.then((done) => labelled(id, done)) : labelled(id, response);
    };
    return fault.delayMs > 0 ? wait(fault.delayMs).then(answer) : answer();
  }

  /** The first fault matching the request, counted; it is removed when used up. */
  private take(request: ApiRequest): Fault | undefined {
    const index = this.faults.findIndex(({ fault, pattern }) => (fault.method === '*' || fault.method === request.method) && matchesPath(pattern, request.path));
    const entry = this.faults[index];
    if (!entry) return undefined;
    entry.fault.remaining -= 1;
    entry.fault.hits += 1;
    if (entry.fault.remaining === 0) this.faults.splice(index, 1);
    return entry.fault;
  }
}

/** A fault as the development endpoints show it. */
export function faultJson(fault: Fault): Record<string, unknown> {
  return {
    id: fault.id,
    method: fault.method,
    path: fault.path,
    status: fault.status ?? null,
    ...(fault.body === undefined ? {} : { body: fault.body }),
    delay_ms: fault.delayMs,
    remaining: fault.remaining,
    hits: fault.hits,
  };
}
