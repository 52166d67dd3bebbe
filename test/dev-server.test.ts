/**
 * startServer as a development server: option validation, the request log, CORS preflights,
 * reset (library and POST /__dev/reset, off with devEndpoints: false), and the state file
 * (saved atomically by close({ saveState: true }), loaded at start, refused when corrupt or
 * foreign and then left untouched).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { type RunningServer, startServer, StateFileError } from '../server/index.js';

const quiet = { logger: () => undefined } as const;
const tempDir = () => mkdtempSync(join(tmpdir(), 'dev-server-'));

function auth(server: RunningServer, email: string): string {
  const user = server.world.usersByEmail.get(email)!;
  return `Basic ${Buffer.from(`${user.deliveryEmail}:${user.apiKey}`).toString('base64')}`;
}

async function send(server: RunningServer, content: string): Promise<number> {
  const reply = await fetch(`${server.url}/api/v1/messages`, {
    method: 'POST',
    headers: { authorization: auth(server, 'hamlet@zulip.com'), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'stream', to: 'Denmark', topic: 'dev', content }),
  });
  return ((await reply.json()) as { id: number }).id;
}

t.test('startServer refuses options that cannot work, naming the option', async (t) => {
  const cases: Array<[Parameters<typeof startServer>[0], RegExp]> = [
    [{ featureLevel: 0 }, /featureLevel must be an integer from 1 to 415, got 0/],
    [{ featureLevel: 416 }, /featureLevel must be an integer from 1 to 415, got 416/],
    [{ featureLevel: 2.5 }, /featureLevel must be an integer from 1 to 415, got 2\.5/],
    [{ port: 70000 }, /port must be an integer from 0 to 65535/],
    [{ maxBodyBytes: 0 }, /maxBodyBytes must be a positive integer/],
  ];
  for (const [options, message] of cases) await t.rejects(startServer({ ...quiet, ...options }), { message }, String(message));
});

t.test('the request log shows method, path, status, user and time; it is off unless asked for', async (t) => {
  const lines: string[] = [];
  const server = await startServer({ ...quiet, log: (line) => void lines.push(line) });
  t.teardown(() => server.close());
  await fetch(`${server.url}/api/v1/users/me`, { headers: { authorization: auth(server, 'iago@zulip.com') } });
  await fetch(`${server.url}/api/v1/users/me`);
  t.match(lines[0], /^\d{4}-\d\d-\d\dT[\d:.]+Z GET \/api\/v1\/users\/me 200 iago@zulip\.com \d+(\.\d)?ms$/);
  t.match(lines[1], /^\S+ GET \/api\/v1\/users\/me 401 - \d+(\.\d)?ms$/);
  t.equal(lines.length, 2);
});

t.test('with cors, a preflight is answered with the Access-Control headers a browser needs, Authorization included', async (t) => {
  const server = await startServer({ ...quiet, cors: true });
  const plain = await startServer(quiet);
  t.teardown(async () => {
    await server.close();
    await plain.close();
  });
  const preflight = { method: 'OPTIONS', headers: { origin: 'http://app.example:3000', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } };
  const answer = await fetch(`${server.url}/api/v1/messages`, preflight);
  t.equal(answer.status, 204);
  t.equal(answer.headers.get('access-control-allow-origin'), 'http://app.example:3000');
  t.match(answer.headers.get('access-control-allow-methods'), /\bPOST\b.*\bPATCH\b.*\bDELETE\b/);
  t.match(answer.headers.get('access-control-allow-headers'), /\bAuthorization\b/);
  t.match(answer.headers.get('vary'), /Origin/);
  const get = await fetch(`${server.url}/api/v1/server_settings`, { headers: { origin: 'http://app.example:3000' } });
  t.equal(get.headers.get('access-control-allow-origin'), 'http://app.example:3000', 'answers are readable cross-origin');
  const exposed = (get.headers.get('access-control-expose-headers') ?? '').split(/,\s*/).map((name) => name.toLowerCase());
  for (const name of ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-injected-fault']) t.ok(exposed.includes(name), `${name} is readable cross-origin`);
  const without = await fetch(`${plain.url}/api/v1/messages`, preflight);
  t.equal(without.headers.get('access-control-allow-origin'), null, 'without cors, no CORS headers');
});

t.test('reset() and POST /__dev/reset return to the starting state; dev endpoints can be turned off', async (t) => {
  const server = await startServer(quiet);
  const locked = await startServer({ ...quiet, devEndpoints: false });
  t.teardown(async () => {
    await server.close();
    await locked.close();
  });
  const start = server.world.messages.size;
  const first = await send(server, 'one');
  t.equal(server.world.messages.size, start + 1);
  server.reset();
  t.equal(server.world.messages.size, start, 'reset() drops the new message');
  t.equal(await send(server, 'again'), first, 'IDs start over');
  const reset = await fetch(`${server.url}/__dev/reset`, { method: 'POST' });
  t.same([reset.status, await reset.json()], [200, { result: 'success', msg: '' }]);
  t.equal(server.world.messages.size, start);
  t.equal((await fetch(`${server.url}/__dev/reset`)).status, 405, 'GET is not a reset');
  t.equal((await fetch(`${server.url}/api/v1/__dev/reset`, { method: 'POST' })).status, 404, 'not part of the API');
  t.equal((await fetch(`${locked.url}/__dev/reset`, { method: 'POST' })).status, 404, 'off with devEndpoints: false');
});

t.test('the state file: saved atomically on close, loaded at start, refused and left alone when corrupt or foreign', async (t) => {
  const dir = tempDir();
  const path = join(dir, 'state.json');
  const first = await startServer({ ...quiet, statePath: path });
  t.notOk(first.stateLoaded);
  const id = await send(first, 'kept across restarts');
  await first.close({ saveState: true });
  t.same(readdirSync(dir), ['state.json'], 'no temporary file left behind');
  t.match(JSON.parse(readFileSync(path, 'utf8')), { format: 'chat-api-reference/world', version: 2, featureLevel: 415 });
  const second = await startServer({ ...quiet, statePath: path });
  t.ok(second.stateLoaded);
  t.equal(second.world.messages.get(id)?.content, 'kept across restarts');
  await second.close();
  await t.rejects(startServer({ ...quiet, statePath: path, featureLevel: 300 }), /saved at feature level 415, not 300/);

  for (const [text, message] of [
    ['{"format": "chat-api-reference/world", "version": 1, "featureLe', /is not valid JSON .*it was left as it is/],
    ['{"users": []}', /cannot be loaded, it was left as it is: not a saved world/],
  ] as const) {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, text);
    await t.rejects(startServer({ ...quiet, statePath: bad }), { name: 'StateFileError', message }, String(message));
    t.equal(readFileSync(bad, 'utf8'), text, 'the file is untouched');
  }
  t.ok(new StateFileError('x') instanceof Error);
  t.notOk(existsSync(join(dir, 'missing.json')));
  const fresh = await startServer({ ...quiet, statePath: join(dir, 'missing.json') });
  t.notOk(fresh.stateLoaded, 'a missing file means a new world');
  await fresh.close();
  t.notOk(existsSync(join(dir, 'missing.json')), 'closing without saveState writes nothing');
});
