import { request } from 'node:http';
import t from 'tap';
import { startServer } from '../server/index.js';

function send(url: string, method: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { 'content-length': String(Buffer.byteLength(body)), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

t.test('startServer listens on a free port on 127.0.0.1 and serves the API', async (t) => {
  const started = performance.now();
  const server = await startServer();
  const elapsed = performance.now() - started;
  t.teardown(() => server.close());
  t.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  const reply = await fetch(`${server.url}/api/v1/server_settings`);
  t.equal(reply.status, 200);
  t.equal(((await reply.json()) as { zulip_feature_level: number }).zulip_feature_level, 415);
  t.comment(`started in ${elapsed.toFixed(1)} ms`);
});

t.test('a body over the limit is answered 413 with a JSON error and not read further', async (t) => {
  const server = await startServer({ maxBodyBytes: 1024 });
  t.teardown(() => server.close());
  const reply = await send(`${server.url}/api/v1/fetch_api_key`, 'POST', 'x'.repeat(4096), { 'content-type': 'application/x-www-form-urlencoded' });
  t.equal(reply.status, 413);
  t.equal(JSON.parse(reply.text).result, 'error');
  const ok = await send(`${server.url}/api/v1/server_settings`, 'GET', '');
  t.equal(ok.status, 200, 'the server keeps serving');
});

t.test('close() stops the server', async (t) => {
  const server = await startServer();
  await server.close();
  await t.rejects(fetch(`${server.url}/api/v1/server_settings`));
});
