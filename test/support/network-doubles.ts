/**
 * Network pieces for testing how the CLI connects: a self-signed certificate made with openssl, a
 * TLS front that terminates HTTPS before a plain HTTP server, and a tiny HTTP CONNECT proxy that
 * records where it tunnelled. All on 127.0.0.1, all closed by their `close`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';

/** Whether openssl can be run (the TLS tests skip without it). */
export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A key and a self-signed certificate for 127.0.0.1 and localhost, written to `dir`. */
export function selfSignedCertificate(dir: string): { key: string; cert: string; certPath: string } {
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', keyPath, '-out', certPath], { stdio: 'ignore' });
  return { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8'), certPath };
}

function listening(server: Server, sockets: Set<Socket>): Promise<{ port: number; close: () => Promise<void> }> {
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      }),
    ),
  );
}

/** Two piped sockets: when either ends or fails, both close. */
function endTogether(a: Socket, b: Socket): void {
  const end = () => {
    a.destroy();
    b.destroy();
  };
  a.on('error', end).on('close', end);
  b.on('error', end).on('close', end);
}

/** HTTPS on a port of its own, forwarded as plain bytes to `targetPort`. */
export async function tlsFront(key: string, cert: string, targetPort: number): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTlsServer({ key, cert }, (socket) => {
    const upstream = connect(targetPort, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    endTogether(socket, upstream);
  });
  const { port, close } = await listening(server, sockets);
  return { url: `https://127.0.0.1:${port}`, close };
}

/** An HTTP proxy that only tunnels (CONNECT), as undici uses proxies; `tunnels` lists each `host:port` asked for. */
export async function connectProxy(): Promise<{ url: string; tunnels: string[]; close: () => Promise<void> }> {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((_request, response) => response.writeHead(405).end());
  server.on('connect', (request, client: Socket, head: Buffer) => {
    const target = request.url ?? '';
    tunnels.push(target);
    const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
    sockets.add(client);
    const upstream = connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    endTogether(client, upstream);
  });
  const { port, close } = await listening(server, sockets);
  return { url: `http://127.0.0.1:${port}`, tunnels, close };
}
