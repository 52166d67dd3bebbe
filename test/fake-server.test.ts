/**
 * The in-process fake for other projects' tests: the complete client test file of docs/library.md
 * runs as printed (node --test), `await using` closes a server and a fake at the end of a scope
 * (the global dispatcher put back), and requests for other origins pass through to the network.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { getGlobalDispatcher, request } from 'undici';
import { createFakeServer, startServer } from '../server/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const page = readFileSync(join(ROOT, 'docs/library.md'), 'utf8');
const section = page.slice(page.indexOf('## Testing a client library against the fake'));
const quiet = { logger: () => undefined };

t.test('the client test file in docs/library.md passes as printed, through fetch and undici', async (t) => {
  const file = /^```js\n([\s\S]*?)^```$/m.exec(section)?.[1];
  t.ok(file?.startsWith('// chat-client.test.mjs'), 'the section has the test file');
  // Inside the package, so that `import 'chat-api-reference'` resolves to this checkout, as for an installed package.
  const dir = join(ROOT, 'dist', 'doc-tests');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'chat-client.test.mjs');
  writeFileSync(path, file ?? '');
  const run = await new Promise<{ code: number; stdout: string }>((resolve) =>
    execFile(process.execPath, ['--test', '--test-reporter=tap', path], { cwd: dir }, (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout })),
  );
  t.equal(run.code, 0, 'node --test passed');
  t.match(run.stdout, /\n# pass 4\n/);
  t.match(run.stdout, /\n# fail 0\n/);
});

t.test('await using closes a started server and a fake at the end of the scope, the global dispatcher put back', async (t) => {
  const before = getGlobalDispatcher();
  let url = '';
  {
    await using server = await startServer(quiet);
    await using fake = createFakeServer(quiet).install();
    url = server.url;
    t.equal(getGlobalDispatcher(), fake.dispatcher, 'installed');
    const answer = await fetch('http://anything.test/api/v1/server_settings');
    t.equal(answer.status, 200, 'every origin is answered without origins');
    t.equal((await request(`${url}/api/v1/server_settings`, { dispatcher: fake.dispatcher })).statusCode, 200);
  }
  t.equal(getGlobalDispatcher(), before, 'the previous global dispatcher is back');
  await t.rejects(request(`${url}/api/v1/server_settings`), 'the server no longer listens');
});

t.test('other origins pass through to the network; chosen origins are answered in-process', async (t) => {
  const real = await startServer({ ...quiet, devEndpoints: false });
  const fake = createFakeServer({ ...quiet, origins: ['https://chat.example.com'] });
  t.teardown(async () => {
    await fake.close();
    await real.close();
  });
  const faked = await request('https://chat.example.com/__dev/realm', { dispatcher: fake.dispatcher });
  t.equal(faked.statusCode, 200, 'the fake serves its dev endpoints');
  await faked.body.dump();
  const passed = await request(`${real.url}/__dev/realm`, { dispatcher: fake.dispatcher });
  t.equal(passed.statusCode, 404, 'the real server (dev endpoints off) answered');
  await passed.body.dump();
  const sent = await request('https://chat.example.com/api/v1/dev_fetch_api_key', { method: 'POST', body: 'username=iago%40zulip.com', headers: { 'content-type': 'application/x-www-form-urlencoded' }, dispatcher: fake.dispatcher });
  t.equal(sent.statusCode, 200, 'bodies arrive');
  t.match(await sent.body.json(), { api_key: /^\w{32}$/ });
  t.equal(fake.world.users.size > 10, true);
});
