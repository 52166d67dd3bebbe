/**
 * With dev endpoints off (`devEndpoints: false`, `chat-server --no-dev-endpoints`) nothing of the
 * development tools is reachable: every `/__dev/*` endpoint, the page at `/` and `Prefer: code=`
 * answer exactly as an unknown route of the API does. The library follows its existing default
 * for dev endpoints (on), so `startServer()` serves them unless told not to.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { DEV_ROUTES } from '../server/dev/dev-routes.js';
import { api, devServer } from './support/dev-http.js';

const BIN = fileURLToPath(new URL('../bin/chat-server.js', import.meta.url));

/** Every development endpoint, as method and a concrete path. */
const ENDPOINTS = DEV_ROUTES.flatMap((route) => Object.keys(route.methods).map((method) => [method, route.path.replace('{id}', '1')] as const));
const ROOT = [['GET', '/'], ['HEAD', '/'], ['GET', '/__dev/'], ['POST', '/__dev/nothing']] as const;

interface Seen {
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
}

async function request(base: string, method: string, path: string): Promise<Seen> {
  const answer = await fetch(`${base}${path}`, { method, ...(method === 'GET' || method === 'HEAD' ? {} : { body: '{}' }) });
  return { status: answer.status, contentType: answer.headers.get('content-type'), text: await answer.text() };
}

/** What the API answers a route it does not have, for this method. */
const unknownRoute = (base: string, method: string) => request(base, method, '/no-such-route');

t.test('with devEndpoints: false every development endpoint and the page answer as an unknown route', async (t) => {
  const server = await devServer(t, { devEndpoints: false });
  t.ok(ENDPOINTS.length >= 15, `${ENDPOINTS.length} endpoints checked`);
  for (const [method, path] of [...ENDPOINTS, ...ROOT]) {
    const seen = await request(server.url, method, path);
    t.same(seen, await unknownRoute(server.url, method), `${method} ${path}`);
    t.equal(seen.status, 404, `${method} ${path} is 404`);
  }
  const preferred = await api(server, 'hamlet@zulip.com', 'GET', '/users/me', undefined, { prefer: 'code=503' });
  t.equal(preferred.status, 200, 'Prefer: code= is an ordinary header then');
});

t.test('the library default serves them, as it serves the other dev endpoints', async (t) => {
  const server = await devServer(t);
  for (const [method, path] of ENDPOINTS.filter(([method]) => method === 'GET')) t.equal((await request(server.url, method, path)).status, 200, `${method} ${path}`);
  t.equal((await request(server.url, 'GET', '/')).contentType, 'text/html; charset=utf-8');
});

t.test('chat-server --no-dev-endpoints serves no development endpoint and no page', async (t) => {
  const child = spawn(process.execPath, [BIN, '--port', '0', '--no-dev-endpoints'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.teardown(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  let output = '';
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve(url);
    });
    void exited.then(() => reject(new Error(`chat-server exited: ${output}`)));
  });
  t.notMatch(output, /__dev|page/, 'the banner offers none of them');
  for (const [method, path] of [...ENDPOINTS, ...ROOT]) t.same(await request(base, method, path), await unknownRoute(base, method), `${method} ${path}`);
});
