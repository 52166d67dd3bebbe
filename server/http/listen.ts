/**
 * The node:http adapter: reads the body within the limits (server/http/options.ts), turns the
 * request into an ApiRequest, and writes the ApiResponse (batched per round of reads, see
 * server/http/answers.ts). Nothing here knows about endpoints.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AnswerBatch, writeResponse } from './answers.js';
import { hasBody, readBody } from './body.js';
import { ConnectionCap } from './connection-cap.js';
import { Connections } from './connections.js';
import { clientErrorResponse, type HttpOptions, httpLimits, rawResponse } from './options.js';
import type { ApiRequest, ApiResponse } from '../app/request.js';

export { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_CONNECTIONS, type HttpOptions } from './options.js';
const EMPTY = new Uint8Array(0);

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

/** What the adapter asks for an answer (a `ChatApp`, or a front before one). */
export interface HttpHandler {
  answer(request: ApiRequest): ApiResponse | Promise<ApiResponse>;
}

/**
 * The node:http server for `app`, with the limits of `options` (see HttpOptions). Close it with
 * `closeHttpServer` to let requests in flight finish.
 */
export function createHttpServer(app: HttpHandler, options: HttpOptions = {}): Server {
  const limits = httpLimits(options);
  const bodyLimits = { maxBytes: limits.maxBodyBytes, timeoutMs: limits.bodyTimeoutMs };
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      // A backstop for the whole request; the body's own timer answers first, in JSON.
      requestTimeout: limits.headersTimeoutMs + limits.bodyTimeoutMs + 1000,
      // How often node checks those two timeouts (its default is every 30 s).
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    (req, res) => {
      // A refused connection already has its 503; what it sends is not handled.
      if (!cap.isRefused(req.socket)) connections.admit(req, res, answer);
    },
  );
  const cap = new ConnectionCap(server, limits.maxConnections, limits.lingerMs);
  const respond = (request: HttpApiRequest, res: ServerResponse, now: boolean): void => {
    let response: ApiResponse | Promise<ApiResponse>;
    try {
      response = app.answer(request);
    } catch {
      res.destroy();
      return;
    }
    // Most answers are ready at once: no promise hop.
    if (response instanceof Promise) response.then((ready) => batch.add(res, ready), () => res.destroy());
    else if (now) writeResponse(res, response, connections.closing);
    else batch.add(res, response);
  };
  /**
   * Answers a request as it is read go out with the others of its round of reads (see
   * server/http/answers.ts). One that waited in its connection's backlog starts as an earlier
   * answer closes, after that round: it is written at once, as the connection's next answer.
   */
  const answer = (req: IncomingMessage, res: ServerResponse, fromBacklog: boolean): void => {
    const request = new HttpApiRequest(req, res);
    // Most requests (every GET) have no body: answered without waiting for the stream to end.
    if (!hasBody(request.headers)) {
      respond(request, res, fromBacklog);
      return;
    }
    const refuse = (refusal: ApiResponse): void => {
      connections.closeAfterAnswer(req.socket);
      writeResponse(res, refusal, true);
    };
    readBody(req, request.headers, bodyLimits, (body) => {
      request.body = body;
      respond(request, res, fromBacklog);
    }, refuse);
  };
  const connections = new Connections(server, limits.maxPipelinedRequests, limits.lingerMs);
  const batch = new AnswerBatch(() => connections.closing);
  // Before node's own `end` handler, which ends the connection when its client half-closes.
  server.on('connection', (socket: Socket) => socket.prependListener('end', batch.flush));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // As node's own handler, but in the API's JSON envelope, and never over an answer in progress.
    if (socket.writable && !connections.answering(socket)) {
      connections.closeAfterAnswer(socket);
      socket.write(rawResponse(clientErrorResponse(error.code)));
      socket.destroySoon();
    } else {
      socket.destroy();
    }
  });
  shutdowns.set(server, (graceMs) => connections.shutdown(graceMs ?? limits.shutdownGraceMs));
  return server;
}

const shutdowns = new WeakMap<Server, (graceMs?: number) => Promise<void>>();

/**
 * Graceful close of a server made by `createHttpServer`: stops accepting connections, lets the
 * requests in flight finish (up to `graceMs`, default the server's `shutdownGraceMs`), closes
 * keep-alive connections as they go idle, then closes what is left.
 */
export function closeHttpServer(server: Server, graceMs?: number): Promise<void> {
  const shutdown = shutdowns.get(server);
  if (shutdown) return shutdown(graceMs);
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
