/**
 * zulip-js, a real client, drives the dev server unchanged: password login (multipart
 * fetch_api_key), profile, channels, messages, edit history, typing and events.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import zulip from 'zulip-js';
import { startServer } from '../server/index.js';

t.test('zulip-js works against the development server unchanged', async (t) => {
  const server = await startServer({ logger: () => undefined });
  t.teardown(() => server.close());
  const realm = server.url;

  const iago = await zulip({ username: 'iago@zulip.com', password: 'iago-password', realm });
  t.equal(iago.config.apiKey, server.world.usersByEmail.get('iago@zulip.com')?.apiKey, 'logged in through fetch_api_key');
  const hamletKey = server.world.usersByEmail.get('hamlet@zulip.com')?.apiKey as string;
  const hamlet = await zulip({ username: 'hamlet@zulip.com', apiKey: hamletKey, realm });

  const settings = await iago.server.settings();
  t.equal(settings.zulip_feature_level, 415);

  const me = await iago.users.me.getProfile();
  t.equal(me.result, 'success');
  t.equal(me.delivery_email, 'iago@zulip.com');
  const hamletId = (await hamlet.users.me.getProfile()).user_id as number;

  const verona = await iago.streams.getStreamId('Verona');
  t.equal(verona.stream_id, server.world.streamByName('Verona')?.id);

  const subscribed = await iago.users.me.subscriptions.add({ subscriptions: [{ name: 'zulip-js channel' }], principals: [hamletId] });
  t.equal(subscribed.result, 'success', JSON.stringify(subscribed));
  t.same(subscribed.subscribed[String(hamletId)], ['zulip-js channel']);
  const mine = await hamlet.streams.subscriptions.retrieve();
  t.ok(mine.subscriptions.some((s: { name: string }) => s.name === 'zulip-js channel'));

  const queue = await hamlet.queues.register({ event_types: ['message', 'typing'], apply_markdown: 'true' });
  t.type(queue.queue_id, 'string');

  const sent = await iago.messages.send({ type: 'stream', to: 'zulip-js channel', topic: 'hello', content: 'Hi **there**' });
  t.type(sent.id, 'number');
  const edited = await iago.messages.update({ message_id: sent.id, content: 'Hi again' });
  t.equal(edited.result, 'success', JSON.stringify(edited));
  const history = await iago.callEndpoint(`/messages/${sent.id}/history`, 'GET');
  t.same(history.message_history.map((s: { content: string }) => s.content), ['Hi **there**', 'Hi again']);

  // zulip-js JSON-encodes `to` only for two or more recipients; the server wants a JSON list.
  const othelloId = server.world.usersByEmail.get('othello@zulip.com')?.id as number;
  const typing = await iago.typing.send({ to: [hamletId, othelloId], op: 'start' });
  t.equal(typing.result, 'success', JSON.stringify(typing));

  const events = await hamlet.events.retrieve({ queue_id: queue.queue_id, last_event_id: -1, dont_block: true });
  const types = events.events.map((e: { type: string }) => e.type);
  t.ok(types.includes('message'), `message event received (${types.join(', ')})`);
  t.ok(types.includes('typing'), 'typing event received');
  const message = events.events.find((e: { type: string }) => e.type === 'message').message;
  t.equal(message.content, '<p>Hi <strong>there</strong></p>');

  const drafts = await hamlet.callEndpoint('/drafts', 'POST', { drafts: [{ type: '', to: [], topic: '', content: 'later' }] });
  t.equal(drafts.ids.length, 1);

  const removed = await hamlet.users.me.subscriptions.remove({ subscriptions: JSON.stringify(['zulip-js channel']) });
  t.same(removed.removed, ['zulip-js channel']);
  await hamlet.queues.deregister({ queue_id: queue.queue_id });
});

t.test('zulip-js uploads a file unchanged, and the returned URL downloads it', async (t) => {
  const server = await startServer({ logger: () => undefined });
  t.teardown(() => server.close());
  const dir = await mkdtemp(join(tmpdir(), 'zulip-js-upload-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'zulip-js notes.txt');
  await writeFile(path, 'uploaded by zulip-js');

  const iago = await zulip({ username: 'iago@zulip.com', password: 'iago-password', realm: server.url });
  const uploaded = await iago.callEndpoint('/user_uploads', 'POST', { file: createReadStream(path) });
  t.equal(uploaded.result, 'success', JSON.stringify(uploaded));
  t.match(uploaded.url, /^\/user_uploads\/2\/[^/]+\/[^/]+\/zulip-js-notes\.txt$/);
  t.equal(uploaded.filename, 'zulip-js notes.txt');

  const authorization = `Basic ${Buffer.from(`iago@zulip.com:${iago.config.apiKey}`).toString('base64')}`;
  const download = await fetch(`${server.url}${uploaded.url}`, { headers: { authorization } });
  t.equal(download.status, 200);
  t.equal(await download.text(), 'uploaded by zulip-js');
  t.equal(download.headers.get('content-type'), 'text/plain');

  const temporary = await iago.callEndpoint(uploaded.url, 'GET');
  t.equal(temporary.result, 'success');
  const anonymous = await fetch(`${server.url}${temporary.url}`);
  t.equal(await anonymous.text(), 'uploaded by zulip-js', 'the temporary URL needs no credentials');
});
