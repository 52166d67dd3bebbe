/**
 * The cap on open connections. node's own `server.maxConnections` drops a connection past it
 * without a word, which a client cannot tell from a crash; here a connection past the cap gets a
 * JSON 503 with `Retry-After` at once and is then closed: its requests are never handled, and
 * what it still sends is read and dropped for `lingerMs` so that the answer is not lost to a reset.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { ApiResponse } from '../app/request.js';
import { jsonResponse } from '../app/respond.js';
import { rawResponse } from './options.js';

/** Seconds a refused client is asked to wait before trying again. */
const RETRY_AFTER_SECONDS = 1;

export const tooManyConnections = (): ApiResponse => {
  const response = jsonResponse(503, { result: 'error', msg: 'Too many open connections', code: 'BAD_REQUEST' });
  return { ...response, headers: { ...response.headers, 'Retry-After': String(RETRY_AFTER_SECONDS) } };
};

export class ConnectionCap {
  private open = 0;
  private readonly refused = new WeakSet<Socket>();

  constructor(server: Server, max: number, lingerMs: number) {
    // Before node's own listener, so that the count is right before any request is parsed.
    server.prependListener('connection', (socket: Socket) => {
      if (this.open >= max) {
        this.refuse(socket, lingerMs);
        return;
      }
      this.open++;
      socket.once('close', () => this.open--);
    });
  }

  /** Whether requests arriving on `socket` are to be ignored (it was refused). */
  isRefused(socket: Socket): boolean {
    return this.refused.has(socket);
  }

  private refuse(socket: Socket, lingerMs: number): void {
    this.refused.add(socket);
    socket.end(rawResponse(tooManyConnections()));
    socket.setTimeout(lingerMs, () => socket.destroy());
  }
}
