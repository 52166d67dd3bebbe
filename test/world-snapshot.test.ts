/**
 * snapshotWorld/restoreWorld: after many kinds of operation, the world saved as JSON and restored
 * into a fresh server gives every user the same full /register answer; foreign or damaged
 * documents are refused with a clear error.
 */
import t from 'tap';
import { createApp, restoreWorld, SnapshotError, snapshotWorld } from '../server/index.js';
import { basic, Client, testServer } from './support/harness.js';

const USERS = ['iago@zulip.com', 'hamlet@zulip.com', 'othello@zulip.com', 'polonius@zulip.com', 'desdemona@zulip.com'];

t.test('a world restored from its JSON snapshot answers /register exactly as the original for every user', async (t) => {
  const server = testServer();
  const iago = server.as('iago@zulip.com');
  const hamlet = server.as('hamlet@zulip.com');
  const ok = async (reply: Promise<{ status: number; body: { result?: string; msg?: string } }>, what: string) => {
    const answer = await reply;
    t.equal(answer.status, 200, `${what}: ${answer.body?.msg ?? ''}`);
    return answer.body as Record<string, unknown>;
  };
  const sent = await ok(hamlet.post('/messages', { type: 'stream', to: 'Denmark', topic: 'snapshots', content: 'hello **world**' }), 'stream message');
  const direct = await ok(iago.post('/messages', { type: 'direct', to: [server.id('hamlet@zulip.com')], content: 'psst' }), 'direct message');
  // No reaction endpoint on this server yet: the entity field is filled directly.
  server.world.messages.get(Number(sent.id))!.reactions.push({ userId: server.id('iago@zulip.com'), emojiName: 'octopus', emojiCode: '1f419', reactionType: 'unicode_emoji' });
  await ok(hamlet.post('/mark_topic_as_read', { stream_id: server.streamId('Denmark'), topic_name: 'snapshots' }), 'read flags');
  await ok(iago.post('/users/me/subscriptions', { subscriptions: [{ name: 'snapshot channel', description: 'made for the test' }], principals: [server.id('hamlet@zulip.com')] }), 'new channel');
  await ok(iago.post('/user_groups/create', { name: 'snapshotters', description: 'test group', members: [server.id('hamlet@zulip.com'), server.id('iago@zulip.com')] }), 'user group');
  await ok(hamlet.post('/drafts', { drafts: [{ type: 'stream', to: [server.streamId('Denmark')], topic: 'draft topic', content: 'unsent', timestamp: 1_700_000_000 }] }), 'draft');
  await ok(hamlet.post('/users/me/status', { status_text: 'saving state', emoji_name: 'car' }), 'status');
  await ok(iago.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' }), 'linkifier');
  await ok(hamlet.post('/user_topics', { stream_id: server.streamId('Denmark'), topic: 'snapshots', visibility_policy: 1 }), 'user topic');
  await ok(hamlet.patch('/settings', { full_name: 'Hamlet, Prince of Denmark' }), 'settings');

  const json = JSON.stringify(snapshotWorld(server.world));
  const restored = createApp({ world: restoreWorld(JSON.parse(json), { clock: server.clock }), logger: () => undefined });
  t.teardown(() => {
    restored.close();
    server.app.close();
  });
  const withoutQueue = (body: Record<string, unknown>) => {
    const { queue_id: _queue, last_event_id: _last, ...rest } = body;
    return rest;
  };
  for (const email of USERS) {
    const user = server.world.usersByEmail.get(email)!;
    const before = await server.as(email).post('/register', {});
    const after = await new Client(restored, basic(user.deliveryEmail, user.apiKey)).post('/register', {});
    t.equal(after.status, 200, email);
    t.same(withoutQueue(after.body as Record<string, unknown>), withoutQueue(before.body as Record<string, unknown>), `${email}: the same /register`);
  }
  const message = restored.world.messages.get(Number(sent.id))!;
  t.same(message.reactions.map((reaction) => reaction.emojiName), ['octopus'], 'reactions survive');
  t.same(message.flags, server.world.messages.get(Number(sent.id))!.flags, 'flags survive');
  t.ok(message.flags.get(server.id('hamlet@zulip.com'))?.has('read'), 'a read flag is among them');
  t.ok(restored.world.usersByEmail.get('hamlet@zulip.com') === restored.world.users.get(server.id('hamlet@zulip.com')), 'indexes share their entities again');
  const after = { type: 'stream', to: 'Denmark', topic: 't', content: 'after' };
  const next = await new Client(restored, basic('iago@zulip.com', server.world.usersByEmail.get('iago@zulip.com')!.apiKey)).post('/messages', after);
  t.equal(next.body.id, (await iago.post('/messages', after)).body.id, 'IDs continue where the original stopped');
});

t.test('documents that are not a saved world are refused with a clear error', async (t) => {
  const server = testServer();
  const good = JSON.parse(JSON.stringify(snapshotWorld(server.world))) as Record<string, unknown>;
  server.app.close();
  const cases: Array<[unknown, RegExp]> = [
    [{ hello: 'world' }, /not a saved world \(expected format "chat-api-reference\/world"\)/],
    [{ ...good, version: 99 }, /saved world version 99 is not supported/],
    [{ ...good, ids: undefined }, /ids \(at \$\.ids\): expected an array of \[kind, last ID\] pairs/],
    [{ ...good, state: { ...(good.state as object), mystery: 1 } }, /mystery \(at \$\.state\["mystery"\]\): a field this server does not know/],
    [{ ...good, state: { ...(good.state as object), users: { $map: [[1, { $ref: 7 }]] } } }, /users\[1\] \(at \$\.state\.users\.\$map\[0\]\[1\]\): refers to shared value 7, which is not defined before this point/],
    [{ ...good, state: { ...(good.state as object), users: [] } }, /^users \(at \$\.state\.users\): expected a map/],
    [{ ...good, state: { ...(good.state as object), presenceSequence: 'seven' } }, /^presenceSequence \(at \$\.state\.presenceSequence\): expected an integer, got "seven"$/],
  ];
  for (const [document, message] of cases) t.throws(() => restoreWorld(document), { name: 'SnapshotError', message }, String(message));
  t.ok(new SnapshotError(['x']) instanceof Error);
});
