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
  const headers: Record<string, string | number> = { ...response.headers, 'Content-Length': Buffer.byteLength(response.body) };
  if (close) headers.Connection = 'close';
  res.writeHead(response.status, headers);
  res.end(response.body);
}

/** The abort signal is made on first use: only long polls need it, and it costs per request. */
function lazySignal(res: ServerResponse): () => AbortSignal {
  let controller: AbortController | undefined;
  return () => {
    if (!controller) {
      const made = new AbortController();
      controller = made;
      if (res.destroyed) made.abort();
      else
        res.on('close', () => {
          if (!res.writableFinished) made.abort();
        });
    }
    return controller.signal;
  };
}

function toApiRequest(req: IncomingMessage, body: Uint8Array, signal: () => AbortSignal): ApiRequest {
  const target = req.url ?? '/';
  const mark = target.indexOf('?');
  const path = mark === -1 ? target : target.slice(0, mark);
  const query = mark === -1 ? [] : [...new URLSearchParams(target.slice(mark + 1))];
  const headers = new Map<string, string>();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    path,
    query,
    headers,
    body,
    get signal() {
      return signal();
    },
    ...(req.socket.remoteAddress ? { remote: req.socket.remoteAddress } : {}),
  };
}

/** Collects the body, or answers 413 without reading further once it passes the limit. */
function readBody(req: IncomingMessage, res: ServerResponse, maxBytes: number, done: (body: Uint8Array) => void): void {
  // Most requests (every GET) have no body: answer without waiting for the stream to end.
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    done(EMPTY);
    return;
  }
  const declared = Number(req.headers['content-length'] ?? 0);
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
  const server = createServer({ keepAlive: true }, (req, res) => {
    const signal = lazySignal(res);
    readBody(req, res, maxBytes, (body) => {
      app.handle(toApiRequest(req, body, signal)).then(
        (response) => writeResponse(res, response),
        () => res.destroy(),
      );
    });
  });
  // Long polls are held for up to a heartbeat interval; the default request timeout is longer.
  server.headersTimeout = 60_000;
  return server;
}
