/**
 * The limits the HTTP adapter enforces on each client, so that no client can stall or exhaust
 * the server for the others, and the JSON errors it answers when a client passes one.
 */
import { STATUS_CODES } from 'node:http';
import type { ApiResponse } from '../app/request.js';
import { jsonResponse } from '../app/respond.js';

export interface HttpOptions {
  /** Largest request body accepted (default 32 MiB); a larger one is answered 413. */
  readonly maxBodyBytes?: number;
  /** Time allowed to receive a request's headers (default 20 s); then 408. */
  readonly headersTimeoutMs?: number;
  /** Time allowed to receive a request's body once its headers are in (default 30 s); then 408. */
  readonly bodyTimeoutMs?: number;
  /**
   * Open connections at once (default 1024; `Infinity` for no cap). A connection past it is
   * answered 503 `Too many open connections` with `Retry-After: 1` and closed.
   */
  readonly maxConnections?: number;
  /**
   * Requests one connection may have received and not yet been answered (pipelined; default 64).
   * A connection past it is closed: its client is sending without reading the answers.
   */
  readonly maxPipelinedRequests?: number;
  /** How long `close()` waits for requests in flight (default 10 s) before closing their connections. */
  readonly shutdownGraceMs?: number;
  /** How long a connection closed after an error answer keeps discarding what its client still sends (default 2 s). */
  readonly lingerMs?: number;
}

export type HttpLimits = Required<HttpOptions>;

export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
/** Far more than a development server's clients hold (one long poll each, plus a few requests), well under usual descriptor limits. */
export const DEFAULT_MAX_CONNECTIONS = 1024;

export function httpLimits(options: HttpOptions): HttpLimits {
  return {
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    headersTimeoutMs: options.headersTimeoutMs ?? 20_000,
    bodyTimeoutMs: options.bodyTimeoutMs ?? 30_000,
    maxConnections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    maxPipelinedRequests: options.maxPipelinedRequests ?? 64,
    shutdownGraceMs: options.shutdownGraceMs ?? 10_000,
    lingerMs: options.lingerMs ?? 2_000,
  };
}

const envelope = (status: number, msg: string): ApiResponse => jsonResponse(status, { result: 'error', msg, code: 'BAD_REQUEST' });

export const bodyTooLarge = (): ApiResponse => envelope(413, 'Request body is too large');
export const bodyTimedOut = (): ApiResponse => envelope(408, 'Request body not received in time');

/** The answer to a request node's parser refused or timed out, by node's error code. */
export function clientErrorResponse(code: string | undefined): ApiResponse {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return envelope(431, 'Request header fields too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return envelope(408, 'Request headers not received in time');
    default:
      return envelope(400, 'Malformed HTTP request');
  }
}

/** A whole HTTP/1.1 response as bytes, for writing straight to a socket that has no ServerResponse. */
export function rawResponse(response: ApiResponse): string {
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`];
  for (const name in response.headers) lines.push(`${name}: ${response.headers[name] as string}`);
  lines.push(`Content-Length: ${Buffer.byteLength(response.body)}`, 'Connection: close', '', '');
  return lines.join('\r\n') + response.body;
}
