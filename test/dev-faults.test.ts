/**
 * Fault injection over HTTP (`/__dev/faults`, `Prefer: code=NNN`): the next N requests matching a
 * method and a path pattern get the injected status, body and delay, before the API sees them;
 * then the API answers again. Faults are listed, cleared, and refused when malformed.
 */
import t from 'tap';
import type { RunningServer } from '../server/index.js';
import { api, dev, devServer as withServer, sendMessage } from './support/dev-http.js';

const send = (server: RunningServer, content: string) => api(server, 'hamlet@zulip.com', 'POST', '/messages', { type: 'stream', to: 'Denmark', topic: 'faults', content });

t.test('an injected status answers the next N matching requests before the API sees them, then the API answers again', async (t) => {
  const server = await withServer(t);
  const added = await dev(server, 'POST', '/__dev/faults', { method: 'post', path: '/api/v1/messages', status: 503, times: 2 });
  t.equal(added.status, 200);
  t.match(added.body.fault, { id: Number, method: 'POST', path: '/api/v1/messages', status: 503, delay_ms: 0, remaining: 2, hits: 0 });
  const id = String((added.body.fault as { id: number }).id);
  const before = server.world.messages.size;
  for (const attempt of [1, 2]) {
    const faulted = await send(server, `attempt ${attempt}`);
    t.equal(faulted.status, 503, `attempt ${attempt} is faulted`);
    t.equal(faulted.headers.get('x-injected-fault'), id, 'the answer says which fault made it');
    t.same(faulted.body, { result: 'error', msg: 'Injected fault (HTTP 503)', code: 'BAD_REQUEST' });
  }
  t.equal(server.world.messages.size, before, 'the faulted requests changed nothing');
  const third = await send(server, 'attempt 3');
  t.equal(third.status, 200, 'the fault is used up');
  t.equal(third.headers.get('x-injected-fault'), null);
  t.equal(server.world.messages.size, before + 1);
  t.same((await dev(server, 'GET', '/__dev/faults')).body.faults, [], 'a used-up fault is no longer listed');
});

t.test('a fault matches its method and its path pattern only: * is one segment, a final ** any number', async (t) => {
  const server = await withServer(t);
  await dev(server, 'POST', '/__dev/faults', { method: 'GET', path: '/api/v1/users/*', status: 500, times: 100 });
  await dev(server, 'POST', '/__dev/faults', { path: '/api/v1/streams/**', status: 502, times: 100 });
  // The injected status, or undefined when the API answers.
  const cases: Array<[string, string, number | undefined]> = [
    ['GET', '/users/10', 500],
    ['GET', '/users/me', 500],
    ['GET', '/users', undefined],
    ['GET', '/users/10/subscriptions/1', undefined],
    ['PATCH', '/users/10', undefined],
    ['GET', '/streams', 502],
    ['GET', '/streams/1/members', 502],
    ['DELETE', '/streams/99999', 502],
    ['GET', '/server_settings', undefined],
  ];
  for (const [method, path, injected] of cases) {
    const answer = await api(server, 'iago@zulip.com', method, path);
    t.equal(answer.headers.get('x-injected-fault') === null ? undefined : answer.status, injected, `${method} ${path}: ${injected ?? 'the API answers'}`);
    if (injected === undefined) t.ok(answer.status < 500, `${method} ${path} reached the API`);
  }
  const listed = (await dev(server, 'GET', '/__dev/faults')).body.faults as Array<{ hits: number; remaining: number }>;
  t.same(
    listed.map(({ hits, remaining }) => [hits, remaining]),
    [
      [2, 98],
      [3, 97],
    ],
    'each fault counts what it answered',
  );
});

t.test('a fault body is sent as JSON, or as text when it is a string; a body alone answers 200', async (t) => {
  const server = await withServer(t);
  await dev(server, 'POST', '/__dev/faults', { path: '/api/v1/users/me', status: 429, body: { result: 'error', msg: 'slow down', code: 'RATE_LIMIT_HIT', 'retry-after': 3 } });
  await dev(server, 'POST', '/__dev/faults', { path: '/api/v1/users/me', body: 'plain <b>text</b>' });
  const json = await api(server, 'hamlet@zulip.com', 'GET', '/users/me');
  t.same([json.status, json.headers.get('content-type'), json.body], [429, 'application/json', { result: 'error', msg: 'slow down', code: 'RATE_LIMIT_HIT', 'retry-after': 3 }]);
  const text = await api(server, 'hamlet@zulip.com', 'GET', '/users/me');
  t.same([text.status, text.headers.get('content-type'), text.text], [200, 'text/plain; charset=utf-8', 'plain <b>text</b>']);
  t.equal((await api(server, 'hamlet@zulip.com', 'GET', '/users/me')).body.email, 'user10@zulipdev.com', 'then the API answers');
});

t.test('a delay-only fault holds the request, then the API answers it (and does its work)', async (t) => {
  const server = await withServer(t);
  await dev(server, 'POST', '/__dev/faults', { method: 'POST', path: '/api/v1/messages', delay_ms: 300 });
  const before = server.world.messages.size;
  const started = performance.now();
  const answer = await send(server, 'late but delivered');
  t.ok(performance.now() - started >= 280, 'held for the delay');
  t.equal(answer.status, 200);
  t.ok(answer.headers.get('x-injected-fault'), 'marked as touched by the fault');
  t.equal(server.world.messages.size, before + 1, 'the API did its work');
  const both = await dev(server, 'POST', '/__dev/faults', { path: '/api/v1/messages', status: 504, delay_ms: 200 });
  t.equal(both.status, 200);
  const timedOut = performance.now();
  t.equal((await send(server, 'never stored')).status, 504);
  t.ok(performance.now() - timedOut >= 180, 'a status after a delay');
  t.equal(server.world.messages.size, before + 1);
});

t.test('Prefer: code=NNN injects that status for one request, as Prism does; other preferences are ignored', async (t) => {
  const server = await withServer(t);
  const faulted = await api(server, 'hamlet@zulip.com', 'POST', '/messages', { type: 'stream', to: 'Denmark', topic: 'prefer', content: 'x' }, { prefer: 'code=502' });
  t.same([faulted.status, faulted.headers.get('x-injected-fault'), faulted.body.msg], [502, 'prefer', 'Injected fault (HTTP 502)']);
  const ignored = await api(server, 'hamlet@zulip.com', 'GET', '/users/me', undefined, { prefer: 'return=minimal, code=99' });
  t.equal(ignored.status, 200);
  await sendMessage(server, 'hamlet@zulip.com', 'after the preference');
});

t.test('faults are cleared one by one or all at once; an unknown fault is 404', async (t) => {
  const server = await withServer(t);
  const ids: number[] = [];
  for (const status of [500, 501, 502]) ids.push(((await dev(server, 'POST', '/__dev/faults', { path: `/api/v1/x${status}`, status })).body.fault as { id: number }).id);
  t.same((await dev(server, 'DELETE', `/__dev/faults/${ids[1]}`)).body, { result: 'success', msg: '', cleared: 1 });
  t.same(((await dev(server, 'GET', '/__dev/faults')).body.faults as Array<{ id: number }>).map((fault) => fault.id), [ids[0], ids[2]]);
  t.equal((await dev(server, 'DELETE', `/__dev/faults/${ids[1]}`)).status, 404);
  t.equal((await dev(server, 'DELETE', '/__dev/faults/abc')).status, 404);
  t.same((await dev(server, 'DELETE', '/__dev/faults')).body, { result: 'success', msg: '', cleared: 2 });
  t.same((await dev(server, 'GET', '/__dev/faults')).body.faults, []);
});

t.test('a malformed fault is refused with 400 naming the problem, and nothing is registered', async (t) => {
  const server = await withServer(t);
  const cases: Array<[unknown, RegExp]> = [
    [{ status: 500 }, /path is required/],
    [{ path: 'api/v1/messages', status: 500 }, /path must start with \//],
    [{ path: '/api/**/messages', status: 500 }, /\*\* may only be the last segment/],
    [{ path: '/x', status: 700 }, /status must be an integer from 200 to 599/],
    [{ path: '/x', status: '500' }, /status must be an integer/],
    [{ path: '/x', delay_ms: 600_000 }, /delay_ms must be an integer from 0 to 60000/],
    [{ path: '/x', status: 500, times: 0 }, /times must be an integer from 1/],
    [{ path: '/x', method: 'FETCH', status: 500 }, /method must be one of/],
    [{ path: '/x', status: 500, delay: 5 }, /unknown field: delay/],
    [{ path: '/x' }, /give status, body or delay_ms/],
    [[1, 2], /must be a JSON object/],
    ['{"path": ', /not valid JSON/],
  ];
  for (const [body, message] of cases) {
    const answer = await dev(server, 'POST', '/__dev/faults', body);
    t.equal(answer.status, 400, String(message));
    t.match(answer.body, { result: 'error', msg: message, code: 'BAD_REQUEST' });
  }
  t.same((await dev(server, 'GET', '/__dev/faults')).body.faults, []);
});

t.test('faults never touch the development endpoints or the page, so a fault on every path can still be cleared', async (t) => {
  const server = await withServer(t);
  await dev(server, 'POST', '/__dev/faults', { path: '/**', status: 500, times: 1000 });
  t.equal((await api(server, 'hamlet@zulip.com', 'GET', '/users/me')).status, 500);
  t.equal((await dev(server, 'GET', '/__dev/users')).status, 200);
  t.equal((await fetch(`${server.url}/`)).status, 200);
  t.equal((await dev(server, 'DELETE', '/__dev/faults')).status, 200);
  t.equal((await api(server, 'hamlet@zulip.com', 'GET', '/users/me')).status, 200);
});
