/**
 * The HTTP adapter's limits over real sockets: an oversized chunked body gets its 413 before the
 * connection closes, a trickled body or header times out with a JSON 408, malformed framing and
 * oversized headers get JSON 400 and 431, and connections past the cap are refused.
 * Timeouts are configured tiny so the tests run fast.
 */
import { once } from 'node:events';
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { type RunningServer, type ServerOptions, startServer } from '../server/index.js';
import { firstResponse, open, type RawConnection, statuses } from './support/raw-http.js';
import { DEFAULT_MAX_CONNECTIONS } from '../server/http/listen.js';

async function serve(t: Test, options: ServerOptions): Promise<RunningServer> {
  const server = await startServer({ logger: () => undefined, lingerMs: 500, ...options });
  t.teardown(() => server.close());
  return server;
}

const FORM = 'Content-Type: application/x-www-form-urlencoded\r\n';
const errorEnvelope = { result: 'error', code: 'BAD_REQUEST' };

t.test('a chunked body past the limit is answered 413 in JSON before the connection closes', async (t) => {
  const server = await serve(t, { maxBodyBytes: 1024 });
  const conn = await open(server.url);
  conn.socket.write(`POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: x\r\n${FORM}Transfer-Encoding: chunked\r\n\r\n`);
  const chunk = `1000\r\n${'x'.repeat(0x1000)}\r\n`;
  // The client goes on sending after the limit, as a real uploader does.
  for (let i = 0; i < 64 && !conn.socket.destroyed; i++) {
    conn.socket.write(chunk);
    await sleep(2);
  }
  const reply = await conn.closed();
  const { status, body } = firstResponse(reply.text);
  t.equal(status, 413, `status line received (client error: ${reply.error ?? 'none'})`);
  t.match(body, { ...errorEnvelope, msg: 'Request body is too large' });
  t.ok(reply.closedAfterMs < Infinity, 'the server closes the connection');
});

t.test('an HTTP client streaming a chunked body past the limit receives the 413 answer, not a reset', async (t) => {
  const server = await serve(t, { maxBodyBytes: 1024 });
  const outcome = await new Promise<{ status: number; text: string } | { error: string }>((resolve) => {
    const req = request(`${server.url}/api/v1/fetch_api_key`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    let sent = 0;
    const pump = (): void => {
      while (sent < 256 && !req.destroyed) {
        sent++;
        if (!req.write('x'.repeat(4096))) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
  t.match(outcome, { status: 413 }, JSON.stringify(outcome).slice(0, 200));
  if ('text' in outcome) t.match(JSON.parse(outcome.text), { ...errorEnvelope, msg: 'Request body is too large' });
});

t.test('a declared Content-Length past the limit is answered 413 in JSON while the client still sends', async (t) => {
  const server = await serve(t, { maxBodyBytes: 1024 });
  const conn = await open(server.url);
  conn.socket.write(`POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: x\r\n${FORM}Content-Length: 262144\r\n\r\n`);
  for (let i = 0; i < 64 && !conn.socket.destroyed; i++) {
    conn.socket.write('x'.repeat(4096));
    await sleep(2);
  }
  const { status, body } = firstResponse((await conn.closed()).text);
  t.equal(status, 413);
  t.match(body, { ...errorEnvelope, msg: 'Request body is too large' });
});

t.test('a body trickled slower than bodyTimeoutMs is answered 408 in JSON and the connection closed', async (t) => {
  const server = await serve(t, { bodyTimeoutMs: 300 });
  const conn = await open(server.url);
  conn.socket.write(`POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: x\r\n${FORM}Content-Length: 100\r\n\r\n`);
  const trickle = setInterval(() => conn.socket.writable && conn.socket.write('x'), 100);
  const reply = await conn.closed(3000);
  clearInterval(trickle);
  t.ok(reply.closedAfterMs < 3000, `closed after ${reply.closedAfterMs.toFixed(0)} ms`);
  const { status, body } = firstResponse(reply.text);
  t.equal(status, 408);
  t.match(body, { ...errorEnvelope, msg: 'Request body not received in time' });
});

t.test('headers trickled slower than headersTimeoutMs are answered 408 in JSON', async (t) => {
  const server = await serve(t, { headersTimeoutMs: 200 });
  const conn = await open(server.url);
  conn.socket.write('GET /api/v1/server_settings HTTP/1.1\r\nHost: x\r\n');
  const reply = await conn.closed(3000);
  t.ok(reply.closedAfterMs < 3000, `closed after ${reply.closedAfterMs.toFixed(0)} ms`);
  const { status, body } = firstResponse(reply.text);
  t.equal(status, 408);
  t.match(body, { ...errorEnvelope, msg: 'Request headers not received in time' });
});

const framingCases: ReadonlyArray<readonly [string, string, number, string]> = [
  ['malformed framing', 'NOT HTTP AT ALL\r\n\r\n', 400, 'Malformed HTTP request'],
  ['a bad Content-Length', `POST /api/v1/fetch_api_key HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n`, 400, 'Malformed HTTP request'],
  ['oversized headers', `GET /api/v1/server_settings HTTP/1.1\r\nHost: x\r\nX-Big: ${'y'.repeat(20_000)}\r\n\r\n`, 431, 'Request header fields too large'],
];

for (const [what, request, expected, msg] of framingCases) {
  t.test(`${what} is answered ${expected} with the JSON error envelope`, async (t) => {
    const server = await serve(t, {});
    const conn = await open(server.url);
    conn.socket.write(request);
    const reply = await conn.closed();
    const { status, body } = firstResponse(reply.text);
    t.equal(status, expected);
    t.match(body, { ...errorEnvelope, msg });
    const again = await fetch(`${server.url}/api/v1/server_settings`);
    t.equal(again.status, 200, 'the server keeps serving');
  });
}

/** Opens `count` connections and has each answered once, so that each is surely accepted. */
async function admitted(url: string, count: number): Promise<RawConnection[]> {
  const connections = await Promise.all(Array.from({ length: count }, () => open(url)));
  await Promise.all(
    connections.map((conn) => {
      const answered = once(conn.socket, 'data');
      conn.socket.write('GET /api/v1/server_settings HTTP/1.1\r\nHost: x\r\n\r\n');
      return answered;
    }),
  );
  return connections;
}

/** What a connection past the cap gets: a JSON 503 asking to retry, then the close, at once. */
async function checkRefused(t: Test, url: string): Promise<void> {
  const extra = await open(url);
  extra.socket.write('GET /api/v1/server_settings HTTP/1.1\r\nHost: x\r\n\r\n');
  const refused = await extra.closed(2000);
  t.ok(refused.closedAfterMs < 2000, 'the connection past the cap is closed');
  const { status, body } = firstResponse(refused.text);
  t.equal(status, 503);
  t.same(body, { ...errorEnvelope, msg: 'Too many open connections' });
  t.match(refused.text, /\r\nRetry-After: 1\r\n/i);
  t.same(statuses(refused.text), [503], 'its request is not answered');
}

t.test('connections past maxConnections get a 503 and are closed; the others are served', async (t) => {
  const server = await serve(t, { maxConnections: 2 });
  const [first, second] = (await admitted(server.url, 2)) as [RawConnection, RawConnection];
  await checkRefused(t, server.url);
  first.socket.write('GET /api/v1/server_settings HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  t.same(statuses((await first.closed()).text), [200, 200], 'an admitted connection is served');
  second.socket.destroy();
  await sleep(20);
  const later = await fetch(`${server.url}/api/v1/server_settings`);
  t.equal(later.status, 200, 'a new connection is admitted once others closed');
});

t.test(`by default ${DEFAULT_MAX_CONNECTIONS} connections are open at most`, async (t) => {
  const server = await serve(t, {});
  const connections = await admitted(server.url, DEFAULT_MAX_CONNECTIONS);
  await checkRefused(t, server.url);
  for (const conn of connections) conn.socket.destroy();
});
