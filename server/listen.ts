/**
 * The node:http adapter: reads the body within a size limit, turns the request into an
 * ApiRequest, and writes the ApiResponse. Nothing here knows about endpoints.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ChatApp } from './app.js';
import type { ApiRequest, ApiResponse } from './request.js';
import { jsonResponse } from './respond.js';

export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
const EMPTY = new Uint8Array(0);

const tooLarge = (): ApiResponse =>
  jsonResponse(413, { result: 'error', msg: 'Request body is too large', code: 'BAD_REQUEST' });

function writeResponse(res: ServerResponse, response: ApiResponse, close = false): void {
  if (res.headersSent || res.destroyed) return;
  // A flat [name, value, ...] list is the cheapest form node:http accepts.
  const headers: string[] = [];
  for (const name in response.headers) headers.push(name, response.headers[name] as string);
  const payload = response.bytes ?? response.body;
  headers.push('Content-Length', String(Buffer.byteLength(payload)));
  if (close) headers.push('Connection', 'close');
  res.writeHead(response.status, headers);
  res.end(payload);
}

/**
 * An ApiRequest read from node:http. The abort signal is made on first use: only long polls need
 * it, and an AbortController plus a `close` listener on every response cost real throughput.
 */
class HttpApiRequest implements ApiRequest {
  readonly method: string;
  readonly path: string;
  readonly query: ReadonlyArray<readonly [string, string]>;
  readonly headers: ReadonlyMap<string, string>;
  private controller: AbortController | undefined;

  /** Filled in once the body has been read. */
  body: Uint8Array = EMPTY;

  constructor(
    req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    const target = req.url ?? '/';
    const mark = target.indexOf('?');
    this.path = mark === -1 ? target : target.slice(0, mark);
    this.query = mark === -1 ? NO_QUERY : [...new URLSearchParams(target.slice(mark + 1))];
    this.method = (req.method ?? 'GET').toUpperCase();
    // From the raw list: building node's lazy `req.headers` object as well would cost per request.
    this.headers = headerMap(req.rawHeaders);
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      const controller = new AbortController();
      this.controller = controller;
      const res = this.res;
      if (res.destroyed) controller.abort();
      else
        res.on('close', () => {
          if (!res.writableFinished) controller.abort();
        });
    }
    return this.controller.signal;
  }
}

const NO_QUERY: ReadonlyArray<readonly [string, string]> = [];

/** Lower-cased names; repeated headers joined with ", " as node:http does for most of them. */
function headerMap(raw: readonly string[]): Map<string, string> {
  const headers = new Map<string, string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    const previous = headers.get(name);
    headers.set(name, previous === undefined ? value : `${previous}, ${value}`);
  }
  return headers;
}

/** Collects the body, or answers 413 without reading further once it passes the limit. */
function readBody(
  req: IncomingMessage,
  res: ServerResponse,
  headers: ReadonlyMap<string, string>,
  maxBytes: number,
  done: (body: Uint8Array) => void,
): void {
  // Most requests (every GET) have no body: answer without waiting for the stream to end.
  const length = headers.get('content-length');
  if (length === undefined && !headers.has('transfer-encoding')) {
    done(EMPTY);
    return;
  }
  const declared = Number(length ?? 0);
  if (declared > maxBytes) {
    writeResponse(res, tooLarge(), true);
    req.destroy();
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      writeResponse(res, tooLarge(), true);
      req.destroy();
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (size <= maxBytes) done(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
  });
  req.on('error', () => req.destroy());
}

export function createHttpServer(app: ChatApp, options: { maxBodyBytes?: number } = {}): Server {
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const server = createServer((req, res) => {
    const request = new HttpApiRequest(req, res);
    readBody(req, res, request.headers, maxBytes, (body) => {
      request.body = body;
      app.handle(request).then(
        (response) => writeResponse(res, response),
        () => res.destroy(),
      );
    });
  });
  // Long polls are held for up to a heartbeat interval; the default request timeout is longer.
  server.headersTimeout = 60_000;
  return server;
}
