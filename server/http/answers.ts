/**
 * Writing ApiResponses to node:http responses, in batches: the answers worked out while node
 * handles one round of socket reads are written together once that round is over (the event
 * loop's check phase, `setImmediate`), in the order they were worked out.
 *
 * Why: each write to a socket whose peer sleeps waiting for it pays, in the writer's own system
 * call, for waking the peer (on a loopback connection the kernel also delivers the packet there).
 * When the server is the busier side, its clients sleep between answers, and writing each answer
 * as soon as it is ready wakes a client once per answer; writing the round's answers back to
 * back wakes it about once per round. An answer waits at most for the rest of its round to be
 * worked out, and a round is whatever the sockets had ready to read, so the delay stays bounded
 * by the work already queued. Order per connection is node's: a response is only sent after the
 * earlier responses of its connection. A connection whose client half-closes gets its answers at
 * once (see `flush`).
 */
import type { ServerResponse } from 'node:http';
import type { ApiResponse } from '../app/request.js';

/**
 * Writes `response` on `res` now: status, the answer's headers, `Content-Length`, and
 * `Connection: close` when `close`. Nothing happens when `res` already answered or is gone.
 */
export function writeResponse(res: ServerResponse, response: ApiResponse, close = false): void {
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

/** Answers of one server waiting for the end of the current round of reads. */
export class AnswerBatch {
  /** Flat `[res, response, res, response, ...]`: no pair object per answer. */
  private pending: Array<ServerResponse | ApiResponse> = [];
  private scheduled = false;

  /** @param closing Read at write time: whether answers should ask their client to close. */
  constructor(private readonly closing: () => boolean) {}

  /** Queues `response` for `res`; it is written once this round of reads is handled. */
  add(res: ServerResponse, response: ApiResponse): void {
    this.pending.push(res, response);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  /**
   * Writes every queued answer now. Called when a client half-closes: node then ends the
   * connection at once, and an answer already worked out for it must go out before that.
   */
  readonly flush = (): void => {
    if (!this.scheduled) return;
    this.scheduled = false;
    const answers = this.pending;
    this.pending = [];
    const close = this.closing();
    for (let i = 0; i < answers.length; i += 2) {
      const res = answers[i] as ServerResponse;
      try {
        writeResponse(res, answers[i + 1] as ApiResponse, close);
      } catch {
        // An answer node refuses to write (a header it rejects) ends its own connection only.
        res.destroy();
      }
    }
  };
}
