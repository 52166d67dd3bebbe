import t from 'tap';
import { linkAttachmentsInContent, onMessageDeleted, sweepUnusedAttachments, UNCLAIMED_ATTACHMENT_LIFETIME_MS } from '../lib/actions/personal/attachments.js';
import { recordEvents } from './support/events.js';
import { bad, errorOf, type Reply, testServer, type TestServer } from './support/harness.js';

const hamlet = 'hamlet@zulip.com';
const othello = 'othello@zulip.com';

type Part = readonly [field: string, fileName: string, content: string | Uint8Array];

/** A multipart body built by the platform's FormData, as a real client would send it. */
async function multipart(parts: readonly Part[], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [field, fileName, content] of parts) form.append(field, new Blob([content]), fileName);
  const response = new Response(form);
  return { contentType: response.headers.get('content-type') as string, body: new Uint8Array(await response.arrayBuffer()) };
}

async function upload(s: TestServer, email: string, parts: readonly Part[], fields?: Record<string, string>): Promise<Reply> {
  return s.as(email).post('/user_uploads', {}, { rawBody: await multipart(parts, fields) });
}

/** A message stored directly, without the send path (which links uploads itself). */
function storeMessage(s: TestServer, email: string, content: string): number {
  const id = s.world.ids.next('message');
  s.world.messages.set(id, {
    id,
    senderId: s.id(email),
    recipient: { kind: 'stream', streamId: s.streamId('Verona'), topic: 'files' },
    content,
    renderedContent: content,
    sentAt: s.world.now(),
    editHistory: [],
    lastEditAt: null,
    lastMovedAt: null,
    flags: new Map(),
    client: 'test',
    reactions: [],
  });
  return id;
}

const PATH = (realmId: number, name: string) => new RegExp(`^/user_uploads/${realmId}/[0-9a-f]{2}/[A-Za-z0-9_-]{24}/${name.replace(/[.]/g, '\\.')}$`);

t.test('an upload answers uri, url and filename, stores the bytes and tells the owner', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  const reply = await upload(s, hamlet, [['file', 'zulip.txt', 'zulip!']]);
  t.equal(reply.status, 200);
  t.same(Object.keys(reply.body), ['result', 'msg', 'uri', 'url', 'filename']);
  t.match(reply.body.url, PATH(s.world.realm.id, 'zulip.txt'));
  t.equal(reply.body.uri, reply.body.url);
  t.equal(reply.body.filename, 'zulip.txt');
  const [attachment] = [...s.world.attachments.values()];
  t.equal(Buffer.from(attachment!.bytes).toString(), 'zulip!');
  t.equal(`/user_uploads/${attachment!.pathId}`, reply.body.url);
  const api = { id: attachment!.id, name: 'zulip.txt', path_id: attachment!.pathId, size: 6, create_time: s.world.now(), messages: [] };
  t.same(events, [{ event: { type: 'attachment', op: 'add', attachment: api, upload_space_used: 6 }, userIds: [s.id(hamlet)] }]);
  t.same((await s.as(hamlet).get('/attachments')).body, { result: 'success', msg: '', attachments: [api], upload_space_used: 6 });
});

t.test('the stored name is the client name unquoted; the path uses a sanitized copy', async (t) => {
  const s = testServer();
  const cases: Array<[string, string, string]> = [
    ['my file (1).png', 'my file (1).png', 'my-file-1.png'],
    ['%E2%9C%94 done.txt', '✔ done.txt', 'done.txt'],
    ['../../etc/passwd', 'passwd', 'passwd'],
    ['C:\\Users\\me\\report.pdf', 'report.pdf', 'report.pdf'],
    ['???', '???', 'uploaded-file'],
    ['__proto__', '__proto__', '__proto__'],
    ['ﬁle.txt', 'ﬁle.txt', 'file.txt'],
  ];
  for (const [sent, filename, basename] of cases) {
    const reply = await upload(s, hamlet, [['f', sent, 'x']]);
    t.equal(reply.body.filename, filename, sent);
    t.equal(reply.body.url.split('/').at(-1), basename, sent);
  }
});

t.test('upload errors: no file, more than one file, too large; nothing is stored', async (t) => {
  const s = testServer();
  const events = recordEvents(s);
  t.same(errorOf(await s.as(hamlet).post('/user_uploads', { file: 'not a file' })), bad('You must specify a file to upload'));
  t.same(errorOf(await upload(s, hamlet, [], { note: 'only a field' })), bad('You must specify a file to upload'));
  t.same(errorOf(await upload(s, hamlet, [['a', 'a.txt', 'a'], ['b', 'b.txt', 'b']])), bad('You may only upload one file at a time'));
  s.world.realm.maxFileUploadSizeMib = 1;
  const tooBig = new Uint8Array(1024 * 1024 + 1);
  t.same(errorOf(await upload(s, hamlet, [['f', 'big.bin', tooBig]])), bad("File is larger than this server's configured maximum upload size (1 MiB)."));
  t.equal(s.world.attachments.size, 0);
  t.equal(events.length, 0);
  t.equal((await upload(s, hamlet, [['f', 'max.bin', tooBig.subarray(1)]])).status, 200, 'exactly the limit is accepted');
});

t.test('files are counted per field name, as the real multipart layer does; the last one wins', async (t) => {
  const s = testServer();
  const reply = await upload(s, hamlet, [['file', 'first.txt', '1'], ['file', 'second.txt', '22']]);
  t.equal(reply.status, 200);
  t.equal(reply.body.filename, 'second.txt');
});

t.test('the response fields follow the level: url from 272, filename from 285', async (t) => {
  for (const [level, keys] of [[271, ['uri']], [284, ['uri', 'url']], [285, ['uri', 'url', 'filename']]] as const) {
    const s = testServer({ featureLevel: level });
    const reply = await upload(s, hamlet, [['f', 'a.txt', 'a']]);
    t.same(Object.keys(reply.body).slice(2), keys, `level ${level}`);
  }
});

t.test('GET /attachments lists only your files, but counts the whole realm in upload_space_used', async (t) => {
  const s = testServer();
  await upload(s, hamlet, [['f', 'h.txt', 'hamlet']]);
  await upload(s, othello, [['f', 'o.txt', 'othello!']]);
  const mine = (await s.as(hamlet).get('/attachments', { junk: 1 })).body;
  t.same(mine.attachments.map((a: { name: string }) => a.name), ['h.txt']);
  t.equal(mine.upload_space_used, 14);
  t.notOk('ignored_parameters_unsupported' in mine, 'a plain view');
  t.same((await s.as('iago@zulip.com').get('/attachments')).body.attachments, [], 'administrators see only their own too');
});

t.test('messages that reference a file are listed with their send time (name before level 22)', async (t) => {
  for (const [level, key] of [[415, 'date_sent'], [21, 'name']] as const) {
    const s = testServer({ featureLevel: level });
    const url = (await upload(s, hamlet, [['f', 'a.txt', 'a']])).body.uri;
    const messageId = storeMessage(s, hamlet, `[a.txt](${url})`);
    linkAttachmentsInContent(s.world, messageId, `[a.txt](${url})`);
    const [attachment] = (await s.as(hamlet).get('/attachments')).body.attachments;
    t.same(attachment.messages, [{ id: messageId, [key]: s.world.now() }], `level ${level}`);
  }
});

t.test("linking claims only the sender's own uploads, updates on edits, and tells the owner", async (t) => {
  const s = testServer();
  const mine = (await upload(s, hamlet, [['f', 'mine.txt', 'm']])).body.url;
  const theirs = (await upload(s, othello, [['f', 'theirs.txt', 't']])).body.url;
  const events = recordEvents(s);
  const content = `see [mine](${mine}) and http://localhost:9991${theirs}`;
  const messageId = storeMessage(s, hamlet, content);
  linkAttachmentsInContent(s.world, messageId, content);
  const [own, other] = [...s.world.attachments.values()];
  t.same([...own!.messageIds], [messageId]);
  t.same([...other!.messageIds], [], "another user's upload is not claimed");
  t.same(events.map((e) => [e.event.op, e.userIds]), [['update', [s.id(hamlet)]]]);
  t.same((events[0]!.event.attachment as { messages: unknown[] }).messages, [{ id: messageId, date_sent: s.world.now() }]);
  linkAttachmentsInContent(s.world, messageId, content);
  t.equal(events.length, 1, 'an unchanged reference sends nothing');
  linkAttachmentsInContent(s.world, messageId, 'the link was edited away');
  t.same([...own!.messageIds], []);
  t.equal(events.length, 2);
});

t.test('DELETE /attachments/{id}: only your own, with a remove event; others get Invalid attachment', async (t) => {
  const s = testServer();
  await upload(s, hamlet, [['f', 'h.txt', 'hamlet']]);
  const hamletFile = [...s.world.attachments.values()][0]!;
  await upload(s, othello, [['f', 'o.txt', 'o']]);
  const events = recordEvents(s);
  t.same(errorOf(await s.as(othello).delete(`/attachments/${hamletFile.id}`)), bad('Invalid attachment'));
  t.same(errorOf(await s.as(hamlet).delete('/attachments/999')), bad('Invalid attachment'));
  t.same(errorOf(await s.anonymous.delete(`/attachments/${hamletFile.id}`)), { status: 401, code: 'UNAUTHORIZED', msg: 'Not logged in: API authentication or user session required' });
  t.equal(s.world.attachments.size, 2);
  t.equal(events.length, 0);
  const messageId = storeMessage(s, hamlet, `/user_uploads/${hamletFile.pathId}`);
  linkAttachmentsInContent(s.world, messageId, `/user_uploads/${hamletFile.pathId}`);
  events.length = 0;
  const reply = await s.as(hamlet).delete(`/attachments/${hamletFile.id}`);
  t.same(reply.body, { result: 'success', msg: '' }, 'a file still referenced by a message can be deleted');
  t.same(events, [{ event: { type: 'attachment', op: 'remove', attachment: { id: hamletFile.id }, upload_space_used: 1 }, userIds: [s.id(hamlet)] }]);
  t.notOk(s.world.attachments.has(hamletFile.id));
});

t.test('a file is deleted when the last message referencing it is deleted', async (t) => {
  const s = testServer();
  const url = (await upload(s, hamlet, [['f', 'a.txt', 'abc']])).body.url;
  const [attachment] = [...s.world.attachments.values()];
  const first = storeMessage(s, hamlet, url);
  const second = storeMessage(s, hamlet, url);
  linkAttachmentsInContent(s.world, first, url);
  linkAttachmentsInContent(s.world, second, url);
  const events = recordEvents(s);
  onMessageDeleted(s.world, first);
  t.ok(s.world.attachments.has(attachment!.id), 'still referenced by the second message');
  t.equal(events.length, 0);
  onMessageDeleted(s.world, second);
  t.notOk(s.world.attachments.has(attachment!.id));
  t.same(events.map((e) => e.event), [{ type: 'attachment', op: 'remove', attachment: { id: attachment!.id }, upload_space_used: 0 }]);
  onMessageDeleted(s.world, second);
  t.equal(events.length, 1, 'deleting an unrelated message does nothing');
});

t.test('files never used are deleted a few weeks after upload, on the world clock', async (t) => {
  const s = testServer();
  await upload(s, hamlet, [['f', 'unused.txt', 'u']]);
  const usedUrl = (await upload(s, hamlet, [['f', 'used.txt', 'used']])).body.url;
  const messageId = storeMessage(s, hamlet, usedUrl);
  linkAttachmentsInContent(s.world, messageId, usedUrl);
  s.clock.advance(UNCLAIMED_ATTACHMENT_LIFETIME_MS);
  t.same(sweepUnusedAttachments(s.world), [], 'exactly five weeks old is not yet older than five weeks');
  s.clock.advance(1);
  const events = recordEvents(s);
  const listed = (await s.as(hamlet).get('/attachments')).body;
  t.same(listed.attachments.map((a: { name: string }) => a.name), ['used.txt'], 'the listing runs the clean-up first');
  t.equal(listed.upload_space_used, 4);
  t.same(events.map((e) => [e.event.op, (e.event.attachment as { id: number }).id]), [['remove', 1]]);
});

async function sendToVerona(s: TestServer, email: string, content: string): Promise<number> {
  const reply = await s.as(email).post('/messages', { type: 'stream', to: 'Verona', topic: 'files', content });
  if (reply.status !== 200) throw new Error(reply.text);
  return reply.body.id as number;
}

t.test('sending a message that links an upload claims it: GET /attachments lists the message', async (t) => {
  const s = testServer();
  const url = (await upload(s, hamlet, [['f', 'a.txt', 'a']])).body.url;
  const events = recordEvents(s);
  const messageId = await sendToVerona(s, hamlet, `look: [a.txt](${url})`);
  const [attachment] = (await s.as(hamlet).get('/attachments')).body.attachments;
  t.same(attachment.messages, [{ id: messageId, date_sent: s.world.now() }]);
  // Starting the topic also follows it (user_topic events), between the two, as do_send_messages orders them.
  t.same(events.map((e) => e.event.type).filter((type) => type === 'attachment' || type === 'message').slice(0, 2), ['attachment', 'message'], 'the owner hears of the claim before the message');
  s.clock.advance(UNCLAIMED_ATTACHMENT_LIFETIME_MS + 1);
  t.same(sweepUnusedAttachments(s.world), [], 'a claimed file is not swept');
});

t.test('a content edit that drops the last link answers the upload in detached_uploads, which is then unused', async (t) => {
  const s = testServer();
  const url = (await upload(s, hamlet, [['f', 'a.txt', 'abc']])).body.url;
  const [stored] = [...s.world.attachments.values()];
  const messageId = await sendToVerona(s, hamlet, `[a.txt](${url})`);
  const kept = await s.as(hamlet).patch(`/messages/${messageId}`, { content: `still [a.txt](${url})` });
  t.same(kept.body.detached_uploads, [], 'still referenced');
  const reply = await s.as(hamlet).patch(`/messages/${messageId}`, { content: 'no more file' });
  t.same(reply.body.detached_uploads, [
    { id: stored!.id, name: 'a.txt', path_id: stored!.pathId, size: 3, create_time: stored!.createTime, messages: [] },
  ]);
  t.same((await s.as(hamlet).get('/attachments')).body.attachments[0].messages, []);
  s.clock.advance(UNCLAIMED_ATTACHMENT_LIFETIME_MS + 1);
  t.same(sweepUnusedAttachments(s.world), [stored!.id], 'no longer referenced: swept like a file never used');
});

t.test('an upload another message still links is not detached; edits re-link uploads named again', async (t) => {
  const s = testServer();
  const url = (await upload(s, hamlet, [['f', 'a.txt', 'a']])).body.url;
  const first = await sendToVerona(s, hamlet, url);
  const second = await sendToVerona(s, hamlet, url);
  t.same((await s.as(hamlet).patch(`/messages/${first}`, { content: 'gone' })).body.detached_uploads, []);
  const [attachment] = [...s.world.attachments.values()];
  t.same([...attachment!.messageIds], [second]);
  await s.as(hamlet).patch(`/messages/${first}`, { content: `back: ${url}` });
  t.same([...attachment!.messageIds].sort((a, b) => a - b), [first, second]);
});

t.test('detached_uploads is answered from level 285 only', async (t) => {
  const s = testServer({ featureLevel: 284 });
  const url = (await upload(s, hamlet, [['f', 'a.txt', 'a']])).body.uri;
  const messageId = await sendToVerona(s, hamlet, url);
  const reply = await s.as(hamlet).patch(`/messages/${messageId}`, { content: 'gone' });
  t.same(reply.body, { result: 'success', msg: '' });
  t.same([...[...s.world.attachments.values()][0]!.messageIds], [], 'the link is dropped all the same');
});

