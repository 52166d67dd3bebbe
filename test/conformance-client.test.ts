/**
 * The conformance client and its plumbing: parameter encoding as real clients send it, the
 * in-process dispatcher (both undici handler styles), 429 handling, curl rendering that a shell
 * reads back exactly, zuliprc files and credential sources.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { request } from 'undici';
import { ApiClient } from '../conformance/client/api-client.js';
import { shellQuote, toCurl } from '../conformance/client/curl.js';
import { paramPairs } from '../conformance/client/encode.js';
import { Transcript } from '../conformance/client/exchange.js';
import { collectCredentials } from '../conformance/credentials/sources.js';
import { readZuliprc } from '../conformance/credentials/zuliprc.js';
import { UsageError } from '../conformance/errors.js';
import { InProcessDispatcher, type InProcessRequest, type InProcessResponse } from '../conformance/targets/in-process.js';
import { normalizeBaseUrl } from '../conformance/targets/url.js';

/** A dispatcher that echoes the request and answers from a script of responses. */
function echo(script: Array<Partial<InProcessResponse>> = []) {
  const seen: InProcessRequest[] = [];
  const dispatcher = new InProcessDispatcher(async (req) => {
    seen.push(req);
    const next = script.shift() ?? {};
    return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ result: 'success', msg: '' }), ...next };
  });
  const transcript = new Transcript();
  const client = new ApiClient({ baseUrl: 'http://localhost:9991/', dispatcher, transcript, rateLimit: { maxRetries: 3, maxWaitMs: 1_000 } });
  return { seen, client, transcript, dispatcher };
}

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

t.test('strings are sent raw and other values JSON-encoded; pairs keep order, repeats and __proto__', async (t) => {
  t.same(paramPairs({ a: 'x', b: 5, c: [1, 2], d: true, e: undefined, f: null }), [['a', 'x'], ['b', '5'], ['c', '[1,2]'], ['d', 'true'], ['f', 'null']]);
  t.same(paramPairs([['__proto__', 'p'], ['k', 1], ['k', 'two']]), [['__proto__', 'p'], ['k', '1'], ['k', 'two']]);
});

t.test('GET puts parameters in the query string, other methods in a form body; query works on any method', async (t) => {
  const { seen, client } = echo();
  await client.get('/users', { client_gravatar: false, name: 'a b&c' });
  await client.patch('/drafts/3', { draft: { to: [] } }, { query: { q: 'v' } });
  t.equal(seen[0]?.path, '/api/v1/users?client_gravatar=false&name=a+b%26c');
  t.equal(seen[0]?.body.length, 0);
  t.equal(seen[1]?.path, '/api/v1/drafts/3?q=v');
  t.equal(seen[1]?.headers['content-type'], 'application/x-www-form-urlencoded');
  t.equal(text(seen[1]!.body), 'draft=%7B%22to%22%3A%5B%5D%7D');
  t.equal(seen[1]?.headers.host, 'localhost:9991');
});

t.test('multipart bodies carry each field and file as a part', async (t) => {
  const { seen, client } = echo();
  await client.post('/user_uploads', { note: 'hi' }, { encoding: 'multipart', files: [{ name: 'file', filename: 'a.txt', contentType: 'text/plain', data: 'content' }] });
  const type = seen[0]?.headers['content-type'] ?? '';
  const boundary = /boundary=(\S+)$/.exec(type)?.[1];
  t.match(type, /^multipart\/form-data; boundary=/);
  const body = text(seen[0]!.body);
  t.match(body, `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n`);
  t.match(body, `Content-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\ncontent\r\n--${boundary}--\r\n`);
});

t.test('a 429 RATE_LIMIT_HIT is waited out and retried, up to the cap', async (t) => {
  const limited = { status: 429, headers: { 'retry-after': '0.05', 'content-type': 'application/json' }, body: '{"result":"error","msg":"API usage exceeded rate limit","code":"RATE_LIMIT_HIT","retry-after":0.05}' };
  const retried = echo([limited, limited]);
  const reply = await retried.client.get('/users/me');
  t.equal(reply.status, 200);
  t.same(retried.transcript.last(10).map((e) => e.status), [429, 429, 200]);
  const tooLong = echo([{ ...limited, headers: { 'retry-after': '1799.5' } }]);
  t.equal((await tooLong.client.get('/users/me')).status, 429, 'a wait longer than the cap returns the 429');
  const noRetry = echo([limited]);
  t.equal((await noRetry.client.get('/users/me', undefined, { retryRateLimited: false })).status, 429);
});

t.test('the in-process dispatcher serves undici.request and controller-style handlers', async (t) => {
  const { dispatcher } = echo([{ status: 201, headers: { 'X-Thing': 'yes' }, body: 'hello' }]);
  const response = await request('http://localhost:9991/api/v1/x', { dispatcher, method: 'POST', body: 'abc' });
  t.equal(response.statusCode, 201);
  t.equal(response.headers['x-thing'], 'yes');
  t.equal(await response.body.text(), 'hello');
  const chunks: Buffer[] = [];
  const status = await new Promise<number>((resolve, reject) => {
    let code = 0;
    dispatcher.dispatch(
      { origin: 'http://localhost:9991', path: '/api/v1/y', method: 'GET' },
      {
        onRequestStart: () => undefined,
        onResponseStart: (_c, s) => void (code = s),
        onResponseData: (_c, chunk) => void chunks.push(chunk),
        onResponseEnd: () => resolve(code),
        onResponseError: (_c, error) => reject(error),
      },
    );
  });
  t.equal(status, 200);
  t.match(Buffer.concat(chunks).toString(), /"result":"success"/);
});

t.test('the client gets from the in-process dispatcher directly what undici.request gets, HEAD without a body', async (t) => {
  const answer = { status: 201, headers: { 'X-Thing': 'yes', 'content-type': 'application/json' }, body: '{"result":"success","msg":"","n":1}' };
  const { client, dispatcher, seen } = echo([answer, answer, answer]);
  const direct = await client.post('/x', { a: 'b' });
  const viaUndici = await request('http://localhost:9991/api/v1/x', { dispatcher, method: 'POST', body: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  t.same([direct.status, direct.headers, direct.text], [viaUndici.statusCode, viaUndici.headers, await viaUndici.body.text()]);
  t.same([seen[0]?.headers.host, text(seen[0]!.body)], [seen[1]?.headers.host, text(seen[1]!.body)]);
  t.equal((await client.call('HEAD', '/x')).text, '');
});

t.test('a request timeout gives up on an in-process handler that never answers, and aborts its signal', async (t) => {
  let signal: AbortSignal | undefined;
  const dispatcher = new InProcessDispatcher((req) => {
    signal = req.signal;
    return new Promise<never>(() => undefined);
  });
  const client = new ApiClient({ baseUrl: 'http://localhost:9991/', dispatcher, transcript: new Transcript(), requestTimeoutMs: 50 });
  await t.rejects(client.get('/events'), /no answer within 50 ms/);
  t.equal(signal?.aborted, true);
});

t.test('curl commands quote every argument so a shell reads it back exactly', async (t) => {
  for (const value of ["it's", 'a\nb\tc\r', '$HOME `x` "q" \\', 'ünïcode 😀', '\u0001\u007f']) {
    t.equal(execFileSync('bash', ['-c', `printf '%s' ${shellQuote(value)}`]).toString(), value, JSON.stringify(value));
  }
  const { client, transcript } = echo();
  await client.withCredentials('iago@zulip.com', 'KEY').post('/typing', { op: 'start', to: [10] });
  await client.withAuthorization('Bearer abc').get('/users/me');
  const [post, get] = transcript.last(2).map(toCurl);
  t.equal(post, "curl -sS -i -X POST 'http://localhost:9991/api/v1/typing' -u 'iago@zulip.com:KEY' -H 'accept: application/json' -H 'content-type: application/x-www-form-urlencoded' --data-binary 'op=start&to=%5B10%5D'");
  t.equal(get, "curl -sS -i 'http://localhost:9991/api/v1/users/me' -H 'Authorization: Bearer abc' -H 'accept: application/json'");
});

t.test('zuliprc files give the [api] credential; incomplete files are a usage error', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'zuliprc-'));
  writeFileSync(join(dir, 'good'), '# comment\n[api]\nemail: iago@zulip.com\n; other comment\nkey = abc\nsite=https://chat.example.com/\n');
  writeFileSync(join(dir, 'bad'), '[api]\nemail = x@y.z\n');
  t.same(readZuliprc(join(dir, 'good')), { email: 'iago@zulip.com', apiKey: 'abc', source: 'zuliprc', site: 'https://chat.example.com/' });
  t.throws(() => readZuliprc(join(dir, 'bad')), UsageError);
  t.throws(() => readZuliprc(join(dir, 'missing')), UsageError);
});

t.test('environment credentials apply only to a URL target on the same site', async (t) => {
  const env = { ZULIP_EMAIL: 'a@b.c', ZULIP_API_KEY: 'k', ZULIP_SITE: 'chat.example.com' };
  t.same(collectCredentials({ env }, { kind: 'url', baseUrl: 'https://chat.example.com' }).credentials, [{ email: 'a@b.c', apiKey: 'k', source: 'env', site: 'chat.example.com' }]);
  t.same(collectCredentials({ env }, { kind: 'embedded', baseUrl: 'http://localhost:9991' }).credentials, []);
  const other = collectCredentials({ env }, { kind: 'url', baseUrl: 'https://elsewhere.example.com' });
  t.same(other.credentials, []);
  t.match(other.warnings[0], /ZULIP_SITE chat\.example\.com is not the target/);
  t.same(collectCredentials({ pairs: [{ email: 'x@y.z', apiKey: 'q' }] }, { kind: 'embedded', baseUrl: 'http://localhost:9991' }).credentials, [{ email: 'x@y.z', apiKey: 'q', source: 'flags' }]);
});

t.test('base URLs are normalised to scheme and host; other schemes are refused', async (t) => {
  t.equal(normalizeBaseUrl('http://127.0.0.1:9991/api/v1/'), 'http://127.0.0.1:9991');
  t.equal(normalizeBaseUrl('https://chat.example.com/'), 'https://chat.example.com');
  t.throws(() => normalizeBaseUrl('ftp://x'), UsageError);
  t.throws(() => normalizeBaseUrl('not a url'), UsageError);
});
