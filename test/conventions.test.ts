import t from 'tap';
import { errorOf, testServer } from './support/harness.js';

const iago = 'iago@zulip.com';

t.test('an unknown route answers 404 with a JSON error body', async (t) => {
  const s = testServer();
  for (const path of ['/api/v1/no/such/route', '/api/v2/users', '/elsewhere', '/api/v1/users/10/nothing']) {
    const reply = await s.as(iago).get(path);
    t.equal(reply.status, 404, path);
    t.equal(reply.body.result, 'error', path);
    t.type(reply.body.msg, 'string', path);
  }
});

t.test('a wrong method answers 405 with the allowed methods, before authentication', async (t) => {
  const s = testServer();
  // `/users/me` takes GET (HEAD) and DELETE (leaving the organization), as on the real server.
  const reply = await s.anonymous.call('PUT', '/users/me');
  t.equal(reply.status, 405);
  t.same(reply.body, { result: 'error', msg: 'Method Not Allowed', allowed_methods: ['DELETE', 'GET', 'HEAD'] });
  t.equal(reply.headers.Allow, 'DELETE, GET, HEAD');
  const post = await s.anonymous.call('GET', '/fetch_api_key');
  t.same(post.body.allowed_methods, ['POST'], 'POST-only views list only POST');
});

t.test('OPTIONS answers 204 with the sorted methods and no body, without authentication', async (t) => {
  const s = testServer();
  const reply = await s.anonymous.call('OPTIONS', '/users/me');
  t.equal(reply.status, 204);
  t.equal(reply.text, '');
  t.equal(reply.headers.Allow, 'DELETE, GET, HEAD');
});

t.test('HEAD runs the GET view and sends no body', async (t) => {
  const s = testServer();
  const reply = await s.as(iago).call('HEAD', '/users/me');
  t.equal(reply.status, 200);
  t.equal(reply.text, '');
});

t.test('a form POST may name another method in its method field, which is then reported as ignored', async (t) => {
  const s = testServer();
  const reply = await s.as(iago).post('/users/10', { method: 'GET' });
  t.equal(reply.status, 200);
  t.equal(reply.body.user.user_id, 10);
  t.same(reply.body.ignored_parameters_unsupported, ['method']);
});

t.test('views without the parsing decorator never report ignored parameters (GET /users/me)', async (t) => {
  const s = testServer();
  const reply = await s.as(iago).get('/users/me', { junk: '1' });
  t.equal(reply.status, 200);
  t.notOk('ignored_parameters_unsupported' in reply.body);
});

t.test('unknown parameters are listed, sorted, in ignored_parameters_unsupported; client never is', async (t) => {
  const s = testServer();
  const reply = await s.as(iago).get('/users/10', { zeta: '1', alpha: '2', client: 'x', Beta: '3' });
  t.equal(reply.status, 200);
  t.same(reply.body.ignored_parameters_unsupported, ['Beta', 'alpha', 'zeta']);
  const clean = await s.as(iago).get('/users/10', { client: 'x' });
  t.notOk('ignored_parameters_unsupported' in clean.body, 'absent rather than empty');
});

t.test('ignored parameters are never reported on errors', async (t) => {
  const s = testServer();
  const reply = await s.as(iago).get('/users/99999', { junk: '1' });
  t.equal(reply.status, 400);
  t.notOk('ignored_parameters_unsupported' in reply.body);
});

t.test('before feature level 167 success responses carry no ignored_parameters_unsupported', async (t) => {
  const s = testServer({ featureLevel: 166 });
  const reply = await s.as(iago).get('/users/10', { junk: '1' });
  t.equal(reply.status, 200);
  t.notOk('ignored_parameters_unsupported' in reply.body);
});

t.test('parameter names such as __proto__ and constructor are ordinary data', async (t) => {
  const s = testServer();
  const reply = await s.as(iago).get('/users/10', { __proto__x: '1', constructor: '2', ['__proto__']: '3', toString: '4' });
  t.equal(reply.status, 200);
  t.same(reply.body.ignored_parameters_unsupported, ['__proto__', '__proto__x', 'constructor', 'toString']);
  t.equal(({} as Record<string, unknown>).polluted, undefined);
});

t.test('JSON-encoded parameters are validated strictly with the real server texts', async (t) => {
  const s = testServer();
  const cases: Array<[Record<string, string>, string]> = [
    [{ client_gravatar: 'yes' }, 'client_gravatar is not valid JSON'],
    [{ client_gravatar: 'True' }, 'client_gravatar is not valid JSON'],
    [{ client_gravatar: '1' }, 'client_gravatar is not a boolean'],
    [{ client_gravatar: '"true"' }, 'client_gravatar is not a boolean'],
    [{ user_ids: '5' }, 'user_ids is not a list'],
    [{ user_ids: '[1,"a"]' }, 'user_ids[1] is not an integer'],
    [{ user_ids: '[1,2.0]' }, 'user_ids[1] is not an integer'],
    [{ user_ids: '[1e3]' }, 'user_ids[0] is not an integer'],
    [{ user_ids: '[' }, 'user_ids is not valid JSON'],
  ];
  for (const [params, msg] of cases) {
    t.same(errorOf(await s.as(iago).get('/users', params)), { status: 400, code: 'BAD_REQUEST', msg }, JSON.stringify(params));
  }
});

t.test('a missing required argument is REQUEST_VARIABLE_MISSING with var_name', async (t) => {
  const s = testServer();
  const reply = await s.anonymous.post('/fetch_api_key', { password: 'x' });
  t.equal(reply.status, 400);
  t.same(reply.body, { result: 'error', msg: "Missing 'username' argument", var_name: 'username', code: 'REQUEST_VARIABLE_MISSING' });
  t.same(Object.keys(reply.body), ['result', 'msg', 'var_name', 'code'], 'the real server orders result, msg, data, code');
});

t.test('the body wins over the query string and the last duplicate key wins', async (t) => {
  const s = testServer();
  const reply = await s.anonymous.post(
    '/fetch_api_key',
    { username: 'iago@zulip.com', password: 'iago-password' },
    { query: { username: 'hamlet@zulip.com' } },
  );
  t.equal(reply.body.email, 'iago@zulip.com');
  const dup = await s.as(iago).get('/users/10?client_gravatar=1&client_gravatar=false');
  t.equal(dup.status, 200, 'only the last value is read');
});

t.test('a JSON request body is not read: its fields count as absent', async (t) => {
  const s = testServer();
  const reply = await s.anonymous.post('/fetch_api_key', {}, {
    rawBody: { contentType: 'application/json', body: JSON.stringify({ username: 'iago@zulip.com', password: 'iago-password' }) },
  });
  t.equal(reply.body.code, 'REQUEST_VARIABLE_MISSING');
});

t.test('multipart bodies are read, as zulip-js sends them', async (t) => {
  const s = testServer();
  const form = new FormData();
  form.append('username', 'iago@zulip.com');
  form.append('password', 'iago-password');
  const request = new Response(form);
  const body = new Uint8Array(await request.arrayBuffer());
  const reply = await s.anonymous.post('/fetch_api_key', {}, {
    rawBody: { contentType: request.headers.get('content-type') as string, body },
  });
  t.equal(reply.status, 200);
  t.equal(reply.body.user_id, s.id(iago));
});

t.test('a malformed multipart body is a 400, not a crash', async (t) => {
  const s = testServer();
  const reply = await s.anonymous.post('/fetch_api_key', {}, {
    rawBody: { contentType: 'multipart/form-data; boundary=xyz', body: '--xyz\r\nnot a part' },
  });
  t.equal(reply.status, 400);
  t.equal(reply.body.result, 'error');
});

t.test('an unexpected exception answers 500 with the JSON envelope and the server keeps serving', async (t) => {
  const logged: string[] = [];
  const s = testServer({ logger: (message) => logged.push(message) });
  const realm = s.world.realm;
  Object.defineProperty(s.world, 'realm', { configurable: true, get: () => { throw new Error('boom'); } });
  const reply = await s.anonymous.get('/server_settings');
  t.equal(reply.status, 500);
  t.same(reply.body, { result: 'error', msg: 'Internal server error' });
  t.equal(logged.length, 1);
  Object.defineProperty(s.world, 'realm', { configurable: true, writable: true, value: realm });
  t.equal((await s.anonymous.get('/server_settings')).status, 200);
});

t.test('success bodies are compact JSON with a trailing newline', async (t) => {
  const s = testServer();
  const reply = await s.as(iago).get('/users/me');
  t.ok(reply.text.endsWith('}\n'));
  t.equal(reply.headers['Content-Type'], 'application/json');
});
