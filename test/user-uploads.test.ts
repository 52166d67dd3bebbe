import t from 'tap';
import { makeRequest } from '../server/app/request.js';
import { basic, testServer, type TestServer } from './support/harness.js';

const HAMLET = 'hamlet@zulip.com';

async function upload(s: TestServer, email: string, name: string, content: string, type = 'text/plain'): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([content], { type }), name);
  const encoded = new Response(form);
  const rawBody = { contentType: encoded.headers.get('content-type') as string, body: new Uint8Array(await encoded.arrayBuffer()) };
  const reply = await s.as(email).post('/user_uploads', {}, { rawBody });
  if (reply.status !== 200) throw new Error(reply.text);
  return reply.body.url as string;
}

/** A request outside the API, with HTTP Basic for `email` (none for a spectator). */
function fetchFile(s: TestServer, url: string, email?: string, method = 'GET') {
  const user = email === undefined ? undefined : s.world.usersByEmail.get(email.toLowerCase());
  const headers: Record<string, string> = user ? { authorization: basic(user.deliveryEmail, user.apiKey) } : {};
  return s.app.handle(makeRequest(method, url, { headers }));
}

async function send(s: TestServer, email: string, params: Record<string, unknown>): Promise<void> {
  const reply = await s.as(email).post('/messages', params);
  if (reply.status !== 200) throw new Error(reply.text);
}

const text = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? new Uint8Array()).toString('utf8');

t.test('the URL POST /user_uploads returns downloads the bytes with their type', async (t) => {
  const s = testServer();
  const url = await upload(s, HAMLET, 'notes.txt', 'hello bytes');
  const reply = await fetchFile(s, url, HAMLET);
  t.equal(reply.status, 200);
  t.equal(text(reply.bytes), 'hello bytes');
  t.equal(reply.headers['Content-Type'], 'text/plain');
  t.equal(reply.headers['Content-Disposition'], 'inline; filename="notes.txt"');
  t.equal(reply.headers['Cache-Control'], 'private, immutable');
  const head = await fetchFile(s, url, HAMLET, 'HEAD');
  t.equal(head.status, 200);
  t.equal(head.bytes, undefined, 'HEAD sends no content');
  t.equal((await fetchFile(s, url, HAMLET, 'POST')).status, 405);
});

t.test('types a browser should not show in place are sent as downloads, non-ASCII names per RFC 8187', async (t) => {
  const s = testServer();
  const zip = await fetchFile(s, await upload(s, HAMLET, 'archive.zip', 'PK', 'application/zip'), HAMLET);
  t.equal(zip.headers['Content-Disposition'], 'attachment; filename="archive.zip"');
  const html = await fetchFile(s, await upload(s, HAMLET, 'page.html', '<script></script>', 'text/html'), HAMLET);
  t.equal(html.headers['Content-Disposition'], 'attachment; filename="page.html"');
  const png = await fetchFile(s, await upload(s, HAMLET, 'café.png', 'x', 'image/png'), HAMLET);
  t.equal(png.headers['Content-Disposition'], "inline; filename*=utf-8''caf%C3%A9.png");
});

t.test('who may download: the uploader, readers of a linking message, members for public channels, spectators for web-public ones', async (t) => {
  const s = testServer();
  const unlinked = await upload(s, HAMLET, 'unlinked.txt', 'a');
  const inDm = await upload(s, HAMLET, 'dm.txt', 'b');
  const inPrivate = await upload(s, HAMLET, 'private.txt', 'c');
  const inPublic = await upload(s, HAMLET, 'public.txt', 'd');
  const inWebPublic = await upload(s, HAMLET, 'web.txt', 'e');
  await send(s, HAMLET, { type: 'direct', to: JSON.stringify([s.id('cordelia@zulip.com')]), content: `[dm](${inDm})` });
  await send(s, HAMLET, { type: 'stream', to: 'core team', topic: 'files', content: `[p](${inPrivate})` });
  await send(s, HAMLET, { type: 'stream', to: 'Denmark', topic: 'files', content: `[p](${inPublic})` });
  await send(s, HAMLET, { type: 'stream', to: 'Rome', topic: 'files', content: `[w](${inWebPublic})` });
  const cases: ReadonlyArray<readonly [string, string, string | undefined, number]> = [
    ['the uploader, for a file no message links', unlinked, HAMLET, 200],
    ['another member, for a file no message links', unlinked, 'othello@zulip.com', 403],
    ['a recipient of the linking DM', inDm, 'cordelia@zulip.com', 200],
    ['a member outside the DM', inDm, 'othello@zulip.com', 403],
    ['a subscriber of the private channel', inPrivate, 'iago@zulip.com', 200],
    ['a member not subscribed to the private channel', inPrivate, 'othello@zulip.com', 403],
    ['a member not subscribed to the public channel', inPublic, 'AARON@zulip.com', 200],
    ['a guest not subscribed to the public channel', inPublic, 'polonius@zulip.com', 403],
    ['a spectator, for a web-public channel', inWebPublic, undefined, 200],
  ];
  for (const [who, url, email, status] of cases) t.equal((await fetchFile(s, url, email)).status, status, who);
  const forbidden = await fetchFile(s, inDm, 'othello@zulip.com');
  t.same([forbidden.headers['Content-Type'], forbidden.body], ['text/html; charset=utf-8', '<p>You are not authorized to view this file.</p>']);
  const spectator = await fetchFile(s, inPublic);
  t.equal(spectator.status, 302, 'a spectator is sent to log in for other files');
  t.equal(spectator.headers.Location, `/login/?next=${inPublic}`);
  const missing = await fetchFile(s, '/user_uploads/2/zz/nothing/here.txt', HAMLET);
  t.same([missing.status, missing.body], [404, '<p>This file does not exist or has been deleted.</p>']);
  t.equal((await s.app.handle(makeRequest('GET', unlinked, { headers: { authorization: basic('hamlet@zulip.com', 'x'.repeat(32)) } }))).status, 401);
});

t.test('GET /api/v1/user_uploads answers a temporary URL that works without credentials for 60 seconds', async (t) => {
  const s = testServer();
  const url = await upload(s, HAMLET, 'report.txt', 'temporary bytes');
  const reply = await s.as(HAMLET).get(url);
  t.equal(reply.status, 200);
  t.same(Object.keys(reply.body).sort(), ['msg', 'result', 'url']);
  t.match(reply.body.url, /^\/user_uploads\/temporary\/[0-9A-F]+\/report\.txt$/);
  const download = await fetchFile(s, reply.body.url);
  t.same([download.status, text(download.bytes), download.headers['Content-Type']], [200, 'temporary bytes', 'text/plain']);
  const renamed = await fetchFile(s, reply.body.url.replace(/report\.txt$/, 'other.txt'));
  t.same([renamed.status, JSON.parse(renamed.body).msg], [400, 'Invalid filename']);
  const forged = await fetchFile(s, reply.body.url.replace(/\/temporary\/[0-9A-F]{4}/, '/temporary/ABCD'));
  t.same([forged.status, JSON.parse(forged.body).msg], [400, 'Invalid token']);
  s.clock.advance(61_000);
  const expired = await fetchFile(s, reply.body.url);
  t.same([expired.status, JSON.parse(expired.body).code, JSON.parse(expired.body).msg], [400, 'BAD_REQUEST', 'Invalid token']);
});

t.test('GET /api/v1/user_uploads refuses files the caller may not see, with the real HTML errors', async (t) => {
  const s = testServer();
  const url = await upload(s, HAMLET, 'mine.txt', 'x');
  const forbidden = await fetchFile(s, `/api/v1${url}`, 'othello@zulip.com');
  t.same([forbidden.status, forbidden.body], [403, '<p>You are not authorized to view this file.</p>']);
  const missing = await fetchFile(s, '/api/v1/user_uploads/2/ab/none/none.txt', 'othello@zulip.com');
  t.same([missing.status, missing.body], [404, '<p>This file does not exist or has been deleted.</p>']);
  t.equal((await fetchFile(s, `/api/v1${url}`)).status, 401);
});
