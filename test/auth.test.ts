import t from 'tap';
import { basic, Client, errorOf, testServer } from './support/harness.js';

const unauthorizedWith = (msg: string) => ({ status: 401, code: 'UNAUTHORIZED', msg });
const iagoKey = (s: ReturnType<typeof testServer>) => s.world.usersByEmail.get('iago@zulip.com')!.apiKey;

t.test('HTTP Basic with the delivery email and API key authenticates, case-insensitively and trimmed', async (t) => {
  const s = testServer();
  for (const email of ['iago@zulip.com', 'IAGO@Zulip.com', '  iago@zulip.com ']) {
    const reply = await new Client(s.app, basic(email, iagoKey(s))).get('/users/me');
    t.equal(reply.status, 200, email);
    t.equal(reply.body.user_id, s.id('iago@zulip.com'));
  }
});

t.test('credential failures answer 401 UNAUTHORIZED with the real messages and a Basic challenge', async (t) => {
  const s = testServer();
  const key = iagoKey(s);
  const cases: Array<[string, string]> = [
    ['Basic !!!notbase64', 'Invalid authorization header for basic auth'],
    [`Basic ${Buffer.from('no-colon-here').toString('base64')}`, 'Invalid authorization header for basic auth'],
    [`Basic ${Buffer.from('a:b:c').toString('base64')}`, 'Invalid authorization header for basic auth'],
    ['Basic', 'Invalid authorization header for basic auth'],
    [basic('iago@zulip.com', 'short'), 'Malformed API key'],
    [basic('iago@zulip.com', ''), 'Malformed API key'],
    [basic('iago@zulip.com', 'A'.repeat(32)), 'Invalid API key'],
    [basic('hamlet@zulip.com', key), 'Invalid API key'],
    [basic('nobody@zulip.com', key), 'Invalid API key'],
    [basic(`user${s.id('iago@zulip.com')}@zulipdev.com`, key), 'Invalid API key'],
  ];
  for (const [header, msg] of cases) {
    const reply = await new Client(s.app, header).get('/users/me');
    t.same(errorOf(reply), unauthorizedWith(msg), header);
    t.equal(reply.headers['WWW-Authenticate'], 'Basic realm="zulip"');
  }
});

t.test('a scheme other than Basic is a 400 BAD_REQUEST', async (t) => {
  const s = testServer();
  const reply = await new Client(s.app, 'Bearer abcdef').get('/users/me');
  t.same(errorOf(reply), { status: 400, code: 'BAD_REQUEST', msg: 'This endpoint requires HTTP basic authentication.' });
});

t.test('a deactivated user loses API access at once', async (t) => {
  const s = testServer();
  const client = s.as('hamlet@zulip.com');
  t.equal((await client.get('/users/me')).status, 200);
  s.world.users.get(s.id('hamlet@zulip.com'))!.isActive = false;
  t.same(errorOf(await client.get('/users/me')), unauthorizedWith('Account is deactivated'));
});

t.test('incoming webhook bots cannot use normal endpoints', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as('webhook-bot@zulip.com').get('/users/me')), unauthorizedWith('This API is not available to incoming webhook bots.'));
  t.equal((await s.as('default-bot@zulip.com').get('/users/me')).status, 200, 'generic bots can');
});

t.test('fetch_api_key returns the key, the delivery email and (from level 171) the user ID', async (t) => {
  const s = testServer();
  const reply = await s.anonymous.post('/fetch_api_key', { username: 'Iago@zulip.com', password: 'iago-password' });
  t.same(reply.body, { result: 'success', msg: '', api_key: iagoKey(s), email: 'iago@zulip.com', user_id: s.id('iago@zulip.com') });
  const old = testServer({ featureLevel: 170 });
  const oldReply = await old.anonymous.post('/fetch_api_key', { username: 'iago@zulip.com', password: 'iago-password' });
  t.notOk('user_id' in oldReply.body);
});

t.test('fetch_api_key reports each failure with its own code', async (t) => {
  const s = testServer();
  const fetch = (username: string, password: string) => s.anonymous.post('/fetch_api_key', { username, password });
  t.same(errorOf(await fetch('iago@zulip.com', 'wrong')), { status: 401, code: 'AUTHENTICATION_FAILED', msg: 'Your username or password is incorrect' });
  t.same(errorOf(await fetch('nobody@zulip.com', 'x')), { status: 401, code: 'AUTHENTICATION_FAILED', msg: 'Your username or password is incorrect' });
  t.same(errorOf(await fetch('default-bot@zulip.com', 'x')), { status: 401, code: 'AUTHENTICATION_FAILED', msg: 'Your username or password is incorrect' });
  t.same(errorOf(await fetch('not an email', 'x')), { status: 400, code: 'BAD_REQUEST', msg: 'Enter a valid email address.' });
  t.same(errorOf(await fetch('notification-bot@zulip.com', 'x')), { status: 404, code: 'NONEXISTENT_SUBDOMAIN', msg: 'Invalid subdomain' });
  s.world.users.get(s.id('othello@zulip.com'))!.isActive = false;
  t.same(errorOf(await fetch('othello@zulip.com', 'wrong')), { status: 401, code: 'USER_DEACTIVATED', msg: 'Account is deactivated' }, 'even with a wrong password');
  s.world.realm.emailAuthEnabled = false;
  t.same(errorOf(await fetch('iago@zulip.com', 'iago-password')), {
    status: 401,
    code: 'PASSWORD_AUTH_DISABLED',
    msg: 'Password authentication is disabled in this organization',
  });
});

t.test('fetch_api_key limits attempts per username: 5 per 30 minutes, then 429 even for the right password', async (t) => {
  const s = testServer();
  const fetch = (password: string) => s.anonymous.post('/fetch_api_key', { username: 'hamlet@zulip.com', password });
  for (let i = 0; i < 5; i++) t.equal((await fetch('wrong')).status, 401);
  const limited = await fetch('hamlet-password');
  t.equal(limited.status, 429);
  t.equal(limited.body.code, 'RATE_LIMIT_HIT');
  t.equal(limited.body.msg, 'API usage exceeded rate limit');
  t.ok(limited.body['retry-after'] > 0 && limited.body['retry-after'] <= 1800);
  t.equal(limited.headers['Retry-After'], String(limited.body['retry-after']));
  t.equal((await s.anonymous.post('/fetch_api_key', { username: 'iago@zulip.com', password: 'iago-password' })).status, 200, 'other usernames are unaffected');
  s.clock.advance(30 * 60_000 + 1);
  t.equal((await fetch('hamlet-password')).status, 200, 'allowed again after the window');
});

t.test('a successful login clears the failed-attempt count', async (t) => {
  const s = testServer();
  const fetch = (password: string) => s.anonymous.post('/fetch_api_key', { username: 'hamlet@zulip.com', password });
  for (let i = 0; i < 4; i++) await fetch('wrong');
  t.equal((await fetch('hamlet-password')).status, 200);
  for (let i = 0; i < 4; i++) t.equal((await fetch('wrong')).status, 401);
});

t.test('dev_fetch_api_key gives any user key without a password', async (t) => {
  const s = testServer();
  const reply = await s.anonymous.post('/dev_fetch_api_key', { username: 'hamlet@zulip.com' });
  t.equal(reply.body.api_key, s.world.usersByEmail.get('hamlet@zulip.com')!.apiKey);
  t.equal(reply.body.user_id, s.id('hamlet@zulip.com'));
  t.same(errorOf(await s.anonymous.post('/dev_fetch_api_key', { username: 'nobody@zulip.com' })), {
    status: 401,
    code: 'AUTHENTICATION_FAILED',
    msg: 'Your username or password is incorrect',
  });
  t.same(errorOf(await s.anonymous.post('/dev_fetch_api_key', {})), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'username' argument" });
});

t.test('dev_list_users lists active humans: administrators and owners apart from everyone else', async (t) => {
  const s = testServer();
  for (const method of ['GET', 'POST', 'DELETE']) {
    const reply = await s.anonymous.call(method, '/dev_list_users');
    t.equal(reply.status, 200, method);
    t.same(reply.body.direct_admins.map((u: { email: string }) => u.email), ['desdemona@zulip.com', 'iago@zulip.com']);
    t.ok(reply.body.direct_users.some((u: { email: string }) => u.email === 'polonius@zulip.com'), 'guests are users');
    t.notOk(reply.body.direct_users.some((u: { email: string }) => u.email.includes('bot')), 'no bots');
    t.equal(reply.body.direct_users[0].realm_url, 'http://localhost:9991');
  }
});

t.test('the development endpoints can be switched off', async (t) => {
  const s = testServer({ devEndpoints: false });
  t.equal((await s.anonymous.post('/dev_fetch_api_key', { username: 'hamlet@zulip.com' })).status, 404);
  t.equal((await s.anonymous.get('/dev_list_users')).status, 404);
  const settings = await s.anonymous.get('/server_settings');
  t.equal(settings.body.authentication_methods.dev, false);
});

t.test('a changed API key or email takes effect at once, even for a header that just worked', async (t) => {
  const s = testServer();
  const client = s.as('hamlet@zulip.com');
  t.equal((await client.get('/users/me')).status, 200);
  const hamlet = s.world.users.get(s.id('hamlet@zulip.com'))!;
  const key = hamlet.apiKey;
  hamlet.apiKey = 'B'.repeat(32);
  t.same(errorOf(await client.get('/users/me')), unauthorizedWith('Invalid API key'));
  hamlet.apiKey = key;
  t.equal((await client.get('/users/me')).status, 200);
  s.world.usersByEmail.delete('hamlet@zulip.com');
  hamlet.deliveryEmail = 'prince@zulip.com';
  s.world.usersByEmail.set('prince@zulip.com', hamlet);
  t.same(errorOf(await client.get('/users/me')), unauthorizedWith('Invalid API key'));
});
