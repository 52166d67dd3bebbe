import t from 'tap';
import { errorOf, testServer } from './support/harness.js';

t.test('an unknown route answers 404 with a JSON error body', async (t) => {
  const s = testServer();
  const reply = await s.as('iago@zulip.com').get('/no/such/route');
  t.equal(reply.status, 404);
  t.equal(reply.body.result, 'error');
});

t.test('a wrong method answers 405 with the allowed methods, before authentication', async (t) => {
  const s = testServer();
  const reply = await s.anonymous.call('PUT', '/users/me');
  t.equal(reply.status, 405);
  t.same(reply.body, { result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'HEAD'] });
  t.equal(reply.headers.Allow, 'GET, HEAD');
});

t.test('unknown parameters are listed, sorted, in ignored_parameters_unsupported', async (t) => {
  const s = testServer();
  const reply = await s.as('iago@zulip.com').get('/users/me', { zeta: '1', alpha: '2', client: 'x' });
  t.equal(reply.status, 200);
  t.same(reply.body.ignored_parameters_unsupported, ['alpha', 'zeta']);
});

t.test('requests without credentials get 401 UNAUTHORIZED', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.anonymous.get('/users/me')), {
    status: 401,
    code: 'UNAUTHORIZED',
    msg: 'Not logged in: API authentication or user session required',
  });
});
