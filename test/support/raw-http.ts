/** Raw HTTP/1.1 over a TCP socket, for tests of the adapter's framing, limits and timeouts. */
import { connect, type Socket } from 'node:net';

export interface RawReply {
  /** Everything the server sent, as text. */
  readonly text: string;
  /** The socket error the client saw (`ECONNRESET`), if any. */
  readonly error: string | undefined;
  /** Milliseconds from `open` until the server closed the connection. */
  readonly closedAfterMs: number;
}

export interface RawConnection {
  readonly socket: Socket;
  /** Resolves once the server has closed the connection (or `limitMs` passed: then `closedAfterMs` is Infinity). */
  closed(limitMs?: number): Promise<RawReply>;
}

/** Opens a connection to a server URL such as `http://127.0.0.1:1234`. */
export async function open(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const started = performance.now();
  const chunks: Buffer[] = [];
  let error: string | undefined;
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', (e: NodeJS.ErrnoException) => {
    error ??= e.code ?? e.message;
  });
  const ended = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now() - started)));
  return {
    socket,
    async closed(limitMs = 5000) {
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<number>((resolve) => (timer = setTimeout(() => resolve(Infinity), limitMs)));
      const closedAfterMs = await Promise.race([ended, limit]);
      clearTimeout(timer);
      if (closedAfterMs === Infinity) socket.destroy();
      return { text: Buffer.concat(chunks).toString('latin1'), error, closedAfterMs };
    },
  };
}

/** The status code and parsed JSON body of the first response in `text`. */
export function firstResponse(text: string): { status: number; body: unknown } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
  const split = text.indexOf('\r\n\r\n');
  const length = Number(/\r\ncontent-length: (\d+)/i.exec(text.slice(0, split))?.[1] ?? -1);
  const raw = split === -1 || length < 0 ? '' : text.slice(split + 4, split + 4 + length);
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    body = undefined;
  }
  return { status, body };
}

/** Every status code of the responses in `text`, in order. */
export const statuses = (text: string): number[] => [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
