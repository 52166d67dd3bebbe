/**
 * zulip-js, a real client, drives the dev server unchanged: password login (multipart
 * fetch_api_key), profile, channels, messages, edit history, typing and events.
 */
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
  t.same(topics.topics, [{ name: 'zulip-js', max_id: id }]);
});
