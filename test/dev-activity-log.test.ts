/**
 * The activity log behind the page's live log: `GET /__dev/log` shows the API's requests (with the
 * user, the status and the fault that touched them) and the events sent, numbered so a reader asks
 * only for what is new; the development tools' own requests are left out, and the log is bounded.
 */
import t from 'tap';
import { makeRequest } from '../server/index.js';
import { ActivityLog } from '../server/dev/activity-log.js';
import { api, dev, devServer, sendMessage } from './support/dev-http.js';

interface Entry {
  readonly seq: number;
  readonly kind: string;
  readonly [field: string]: unknown;
}

t.test('the log shows requests with user, status and fault, and the events they caused, after a given number', async (t) => {
  const server = await devServer(t);
  const start = (await dev(server, 'GET', '/__dev/log')).body.last_seq as number;
  await dev(server, 'POST', '/__dev/faults', { path: '/api/v1/users/me', status: 503 });
  await api(server, 'hamlet@zulip.com', 'GET', '/users/me');
  await sendMessage(server, 'iago@zulip.com', 'logged');
  await fetch(`${server.url}/`);
  const log = await dev(server, 'GET', `/__dev/log?after=${start}`);
  const entries = log.body.entries as Entry[];
  t.match(entries, [
    { seq: start + 1, kind: 'request', method: 'GET', path: '/api/v1/users/me', status: 503, user: 'hamlet@zulip.com', fault: '1', at: Number, ms: Number },
    { seq: start + 2, kind: 'event', type: 'message', op: null, user_ids: Array, user_count: Number },
    { seq: start + 3, kind: 'request', method: 'POST', path: '/api/v1/messages', status: 200, user: 'iago@zulip.com', fault: null },
  ]);
  t.equal(entries.length, 3, 'the page and the /__dev requests are left out');
  t.equal(log.body.last_seq, start + 3);
  t.same((await dev(server, 'GET', `/__dev/log?after=${start + 3}`)).body.entries, [], 'nothing newer');
  t.same(((await dev(server, 'GET', `/__dev/log?after=${start}&limit=1`)).body.entries as Entry[]).map((entry) => entry.seq), [start + 3], 'limit keeps the newest');
  t.equal((await dev(server, 'GET', '/__dev/log?after=-1')).status, 400);
});

t.test('the log keeps only its last entries, in order, whatever was recorded before', async (t) => {
  const log = new ActivityLog(50);
  const request = makeRequest('GET', '/api/v1/users/me', { headers: { authorization: `Basic ${Buffer.from('someone@example.com:key').toString('base64')}` } });
  for (let i = 0; i < 120; i += 1) log.recordRequest(request, { status: 200, headers: {}, body: '' }, 1.234, undefined);
  const { entries, lastSeq } = log.since(0, 1000);
  t.equal(lastSeq, 120);
  t.same(
    entries.map((entry) => entry.seq),
    Array.from({ length: 50 }, (_, i) => 71 + i),
  );
  t.match(entries[0], { kind: 'request', user: 'someone@example.com', ms: 1.2 });
  t.same(
    log.since(115, 1000).entries.map((entry) => entry.seq),
    [116, 117, 118, 119, 120],
  );
});
