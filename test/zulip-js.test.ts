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

t.test('zulip-js channel calls work unchanged: streams.retrieve, subscriptions, a channel update, archiving, filters.retrieve', async (t) => {
  const server = await startServer({ logger: () => undefined });
  t.teardown(() => server.close());
  const key = (email: string) => server.world.usersByEmail.get(email)?.apiKey as string;
  const iago = await zulip({ username: 'iago@zulip.com', apiKey: key('iago@zulip.com'), realm: server.url });

  const listed = await iago.streams.retrieve({ include_default: true });
  t.equal(listed.result, 'success', JSON.stringify(listed));
  const denmark = listed.streams.find((s: { name: string }) => s.name === 'Denmark');
  t.match(denmark, { stream_id: server.world.streamByName('Denmark')?.id, is_default: false });
  const subscriptions = await iago.streams.subscriptions.retrieve();
  t.ok(subscriptions.subscriptions.length > 0);

  // zulip-js has no update helper; callEndpoint sends PATCH parameters in the query string.
  const updated = await iago.callEndpoint(`/streams/${denmark.stream_id}`, 'PATCH', { description: 'Hygge', new_name: 'Danmark' });
  t.equal(updated.result, 'success', JSON.stringify(updated));
  t.match(server.world.streams.get(denmark.stream_id), { name: 'Danmark', description: 'Hygge' });
  const archived = await iago.streams.deleteById({ stream_id: denmark.stream_id });
  t.equal(archived.result, 'success', JSON.stringify(archived));
  t.equal(server.world.streams.get(denmark.stream_id)?.isArchived, true);

  // GET /realm/filters exists below level 176 only; at 415 it is a JSON 405.
  const refused = await iago.filters.retrieve();
  t.equal(refused.result, 'error');
  const old = await startServer({ logger: () => undefined, featureLevel: 175 });
  t.teardown(() => old.close());
  const oldIago = await zulip({ username: 'iago@zulip.com', apiKey: key('iago@zulip.com'), realm: old.url });
  const filters = await oldIago.filters.retrieve();
  t.equal(filters.result, 'success', JSON.stringify(filters));
  t.ok(filters.filters.length > 0);
});

t.test('zulip-js messages.retrieve reads history with a narrow unchanged', async (t) => {
  const server = await startServer({ logger: () => undefined });
  t.teardown(() => server.close());
  const realm = server.url;
  const hamletKey = server.world.usersByEmail.get('hamlet@zulip.com')?.apiKey as string;
  const hamlet = await zulip({ username: 'hamlet@zulip.com', apiKey: hamletKey, realm });
  const first = await hamlet.messages.send({ type: 'stream', to: 'Verona', topic: 'zulip-js', content: 'first cats' });
  const second = await hamlet.messages.send({ type: 'stream', to: 'Verona', topic: 'zulip-js', content: 'second dogs' });
  await hamlet.messages.send({ type: 'stream', to: 'Denmark', topic: 'zulip-js', content: 'elsewhere' });

  const pairs = await hamlet.messages.retrieve({ anchor: 'newest', num_before: 10, num_after: 0, narrow: [['stream', 'Verona'], ['topic', 'zulip-js']] });
  t.equal(pairs.result, 'success', JSON.stringify(pairs));
  t.same(pairs.messages.map((m: { id: number }) => m.id), [first.id, second.id]);
  t.equal(pairs.found_newest, true);

  const objects = await hamlet.messages.retrieve({
    anchor: first.id,
    num_before: 0,
    num_after: 5,
    narrow: [{ operator: 'channel', operand: 'Verona' }, { operator: 'search', operand: 'dogs' }],
  });
  t.same(objects.messages.map((m: { id: number }) => m.id), [second.id]);
  t.equal(objects.messages[0].match_content, '<p>second <span class="highlight">dogs</span></p>');

  const bad = await hamlet.messages.retrieve({ anchor: 'newest', num_before: 1, num_after: 0, narrow: [['stream', 'Nowhere']] });
  t.same([bad.result, bad.code, bad.msg], ['error', 'BAD_NARROW', 'Invalid narrow operator: unknown channel Nowhere']);
});

t.test('zulip-js manages bots and reads alert words unchanged', async (t) => {
  const server = await startServer({ logger: () => undefined });
  t.teardown(() => server.close());
  const hamletKey = server.world.usersByEmail.get('hamlet@zulip.com')?.apiKey as string;
  const hamlet = await zulip({ username: 'hamlet@zulip.com', apiKey: hamletKey, realm: server.url });

  // zulip-js has no bot helpers; its generic callEndpoint sends the same form requests.
  const created = await hamlet.callEndpoint('/bots', 'POST', { full_name: 'JS Bot', short_name: 'jsbot' });
  t.equal(created.result, 'success', JSON.stringify(created));
  t.equal(created.user_id, 25, 'the ID a Zulip dev server would give');
  const bot = await zulip({ username: 'jsbot-bot@zulipdev.com', apiKey: created.api_key as string, realm: server.url });
  t.equal((await bot.users.me.getProfile()).bot_owner_id, server.world.usersByEmail.get('hamlet@zulip.com')?.id);
  const listed = await hamlet.callEndpoint('/bots', 'GET');
  t.same(listed.bots.map((b: { username: string }) => b.username), ['jsbot-bot@zulipdev.com']);
  const renamed = await hamlet.callEndpoint(`/bots/${created.user_id}`, 'PATCH', { full_name: 'JS Bot Renamed' });
  t.equal(renamed.full_name, 'JS Bot Renamed');
  const key = await hamlet.callEndpoint(`/bots/${created.user_id}/api_key/regenerate`, 'POST');
  t.not(key.api_key, created.api_key);
  t.equal((await hamlet.callEndpoint(`/bots/${created.user_id}`, 'DELETE')).result, 'success');

  await hamlet.callEndpoint('/users/me/alert_words', 'POST', { alert_words: JSON.stringify(['zulip-js']) });
  t.same((await hamlet.users.me.alertWords.retrieve()).alert_words, ['zulip-js']);
});

/** The message-changing parts of zulip-js this block drives (typed here; zulip-js ships no types). */
interface MessageWriteClient {
  reactions: { add(params: Record<string, unknown>): Promise<Record<string, unknown>>; remove(params: Record<string, unknown>): Promise<Record<string, unknown>> };
  messages: { flags: { add(params: Record<string, unknown>): Promise<Record<string, unknown>>; remove(params: Record<string, unknown>): Promise<Record<string, unknown>> } };
  streams: { topics: { retrieve(params: { stream_id: number }): Promise<Record<string, unknown>> } };
}

t.test('zulip-js reacts, flags messages and lists topics against the development server unchanged', async (t) => {
  const server = await startServer({ logger: () => undefined });
  t.teardown(() => server.close());
  const key = server.world.usersByEmail.get('othello@zulip.com')?.apiKey as string;
  const othello = (await zulip({ username: 'othello@zulip.com', apiKey: key, realm: server.url })) as unknown as MessageWriteClient;
  const hamletKey = server.world.usersByEmail.get('hamlet@zulip.com')?.apiKey as string;
  const hamlet = await zulip({ username: 'hamlet@zulip.com', apiKey: hamletKey, realm: server.url });
  const sent = await hamlet.messages.send({ type: 'stream', to: 'Verona', topic: 'zulip-js', content: 'react to me' });
  const id = sent.id as number;

  t.same(await othello.reactions.add({ message_id: id, emoji_name: 'octopus' }), { result: 'success', msg: '' });
  t.same(server.world.messages.get(id)?.reactions.map((r) => r.emojiCode), ['1f419']);
  t.same(await othello.reactions.remove({ message_id: id, emoji_name: 'octopus' }), { result: 'success', msg: '' });
  t.same(server.world.messages.get(id)?.reactions, []);

  const starred = await othello.messages.flags.add({ messages: [id], flag: 'starred' });
  t.equal(starred.result, 'success', JSON.stringify(starred));
  t.ok(server.world.messages.get(id)?.flags.get(server.world.usersByEmail.get('othello@zulip.com')?.id as number)?.has('starred'));
  const unstarred = await othello.messages.flags.remove({ messages: [id], flag: 'starred' });
  t.same(unstarred.messages, [id]);

  const topics = await othello.streams.topics.retrieve({ stream_id: server.world.streamByName('Verona')?.id as number });
  // Newest topic first; the development realm's seeded topics follow.
  t.same((topics.topics as unknown[])[0], { name: 'zulip-js', max_id: id });
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
