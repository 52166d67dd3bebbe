/**
 * Reads a request body within the adapter's limits: at most `maxBytes`, received within
 * `timeoutMs` of starting to read. A refusal stops collecting (what the client still sends is
 * discarded) and hands back the answer to write before closing the connection.
 */
import type { IncomingMessage } from 'node:http';
import type { ApiResponse } from '../app/request.js';
import { bodyTimedOut, bodyTooLarge } from './options.js';

export interface BodyLimits {
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

/** Whether the request announces a body (a length or a transfer coding); without one, there is none to read. */
export function hasBody(headers: ReadonlyMap<string, string>): boolean {
  return headers.has('content-length') || headers.has('transfer-encoding');
}

/**
 * Reads the body of a request that `hasBody`, then calls `done` with it, or `refuse` with the
 * answer to write when it is too large or too slow.
 */
export function readBody(
  req: IncomingMessage,
  headers: ReadonlyMap<string, string>,
  limits: BodyLimits,
  done: (body: Uint8Array) => void,
  refuse: (answer: ApiResponse) => void,
): void {
  const length = headers.get('content-length');
  let chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const stop = (answer: ApiResponse): void => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    chunks = [];
    req.removeListener('data', collect);
    req.resume();
    refuse(answer);
  };
  const collect = (chunk: Buffer): void => {
    size += chunk.length;
    if (size > limits.maxBytes) stop(bodyTooLarge());
    else chunks.push(chunk);
  };
  const timer = setTimeout(() => stop(bodyTimedOut()), limits.timeoutMs);
  if (Number(length ?? 0) > limits.maxBytes) {
    stop(bodyTooLarge());
    return;
  }
  req.on('data', collect);
  req.on('end', () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    done(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
  });
  req.on('error', () => {
    finished = true;
    clearTimeout(timer);
    req.destroy();
  });
  req.on('close', () => clearTimeout(timer));
}
