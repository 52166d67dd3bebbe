/**
 * Per-connection bookkeeping of the HTTP adapter:
 *
 * - Backpressure. A client may pipeline requests without reading the answers; node parses
 *   everything a read brings in, and each answer (a `/register` answer is large) would wait in
 *   memory. So a connection runs at most a few requests at once, starts the next only when the
 *   socket has taken what was written (no pending `drain`), stops reading while requests wait,
 *   and is closed when more than `maxPipelinedRequests` wait.
 * - Graceful shutdown: stop accepting, let requests in flight finish (bounded), close keep-alive
 *   connections as they go idle, then close the rest.
 * - Closing after an error answer without resetting the connection (see `closeAfterAnswer`).
 *
 * Everything a connection holds is dropped when its socket closes.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Requests of one connection handled at once; answers go out in order anyway. */
const IN_FLIGHT_PER_CONNECTION = 4;

/**
 * What `admit` runs for a request once its connection can take it. `fromBacklog` says it waited
 * for earlier answers of its connection (it starts as one of them closes, not as it is read).
 */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse, fromBacklog: boolean) => void;

class Connection {
  inFlight = 0;
  /** Requests received and not started, oldest first. */
  readonly backlog: Array<() => void> = [];
  pausedHere = false;
  waitingForDrain = false;

  /**
   * @param answerClosed Runs when an answer of this connection closes. One function per
   *   connection, so that starting a request allocates no closure.
   */
  constructor(
    readonly socket: Socket,
    readonly answerClosed: () => void,
  ) {}
}

export class Connections {
  private readonly open = new Map<Socket, Connection>();
  private whenIdle: Array<() => void> = [];
  private shuttingDown = false;

  constructor(
    private readonly server: Server,
    private readonly maxPipelined: number,
    private readonly lingerMs: number,
  ) {
    server.on('connection', (socket: Socket) => {
      const connection: Connection = new Connection(socket, () => {
        connection.inFlight--;
        this.pump(connection);
        this.settle();
      });
      this.open.set(socket, connection);
      socket.once('close', () => {
        connection.backlog.length = 0;
        this.open.delete(socket);
        this.settle();
      });
    });
  }

  /** True once `shutdown` started: answers then ask their client to close the connection. */
  get closing(): boolean {
    return this.shuttingDown;
  }

  /** Whether the socket has a request being answered (an answer may have begun on it). */
  answering(socket: Socket): boolean {
    return (this.open.get(socket)?.inFlight ?? 0) > 0;
  }

  /**
   * Runs `handle` for the request now, or once its connection can take another answer. A
   * connection with nothing waiting (one request at a time) takes the direct path: a counter and
   * one `close` listener.
   */
  admit(req: IncomingMessage, res: ServerResponse, handle: RequestHandler): void {
    const connection = this.open.get(req.socket);
    if (!connection) {
      res.once('close', () => this.settle());
      handle(req, res, false);
      return;
    }
    if (connection.backlog.length === 0 && this.canStart(connection)) {
      this.start(connection, req, res, handle, false);
      return;
    }
    if (connection.backlog.length >= this.maxPipelined) {
      connection.socket.destroy();
      return;
    }
    connection.backlog.push(() => this.start(connection, req, res, handle, true));
    if (!connection.socket.isPaused()) {
      connection.socket.pause();
      connection.pausedHere = true;
    }
    this.pump(connection);
  }

  private start(connection: Connection, req: IncomingMessage, res: ServerResponse, handle: RequestHandler, fromBacklog: boolean): void {
    connection.inFlight++;
    // A response closes once; `on` rather than `once` spares node's wrapper per request.
    res.on('close', connection.answerClosed);
    handle(req, res, fromBacklog);
  }

  /**
   * Stops accepting, ends each connection once it has no request left (its answers flushed
   * first), and after `graceMs` destroys whatever is still open. Resolves once all are closed.
   */
  async shutdown(graceMs: number): Promise<void> {
    this.shuttingDown = true;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.closeIdle();
    if (this.open.size > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        this.whenIdle.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    for (const connection of this.open.values()) connection.socket.destroy();
    await closed;
  }

  /**
   * Closes the socket once the answer written to it has gone out, without a reset: a socket
   * closed with unread input resets the connection, and the client can lose the answer with it.
   * So the socket only half-closes, and what the client still sends is read and discarded until
   * it closes its side or `lingerMs` passes. Node calls `destroySoon` after a `Connection: close`
   * answer has been written.
   */
  closeAfterAnswer(socket: Socket): void {
    socket.destroySoon = () => {
      if (socket.destroyed) return;
      const timer = setTimeout(() => socket.destroy(), this.lingerMs);
      timer.unref();
      socket.once('close', () => clearTimeout(timer));
      socket.once('end', () => socket.destroy());
      socket.on('data', () => undefined);
      socket.resume();
      socket.end();
    };
  }

  /**
   * Ends every connection with no request started: after what was written to it has gone out,
   * it half-closes, and the client closes its side. (node's `closeIdleConnections` leaves out
   * connections that never sent a request, and destroys rather than ends.)
   */
  private closeIdle(): void {
    for (const connection of this.open.values()) {
      if (connection.inFlight === 0 && connection.backlog.length === 0 && !connection.socket.writableEnded) connection.socket.end();
    }
  }

  private canStart(connection: Connection): boolean {
    return connection.inFlight < IN_FLIGHT_PER_CONNECTION && !connection.socket.writableNeedDrain;
  }

  private pump(connection: Connection): void {
    const { socket, backlog } = connection;
    while (backlog.length > 0 && this.canStart(connection)) (backlog.shift() as () => void)();
    if (backlog.length === 0) {
      if (connection.pausedHere && !socket.destroyed) socket.resume();
      connection.pausedHere = false;
    } else if (socket.writableNeedDrain && !connection.waitingForDrain) {
      connection.waitingForDrain = true;
      socket.once('drain', () => {
        connection.waitingForDrain = false;
        this.pump(connection);
      });
    }
  }

  private settle(): void {
    if (!this.shuttingDown) return;
    this.closeIdle();
    if (this.open.size > 0) return;
    const waiting = this.whenIdle;
    this.whenIdle = [];
    for (const resolve of waiting) resolve();
  }
}
