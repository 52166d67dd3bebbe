import t from 'tap';
import { HAMLET, IAGO, OTHELLO, POLONIUS, SHIVA } from './support/channels.js';
import { bad, errorOf, testServer } from './support/harness.js';

const MUST_BE_ADMIN = { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' };

t.test('subscription properties: each value checked, then each channel; nothing changes on an error', async (t) => {
  const s = testServer();
  const denmark = s.streamId('Denmark');
  const post = (data: unknown) => s.as(HAMLET).post('/users/me/subscriptions/properties', { subscription_data: data });
  const cases: Array<[unknown, ReturnType<typeof bad>]> = [
    [[{ stream_id: denmark, property: 'color', value: 'red' }], bad('color is not a valid hex color code')],
    [[{ stream_id: denmark, property: 'is_muted', value: 'yes' }], bad('is_muted is not a boolean')],
    [[{ stream_id: denmark, property: 'volume', value: true }], bad('Unknown subscription property: volume')],
    [[{ stream_id: s.streamId('core team'), property: 'pin_to_top', value: true }, { stream_id: 9999, property: 'pin_to_top', value: true }], bad('Invalid channel ID')],
    [[{ stream_id: denmark, property: 'pin_to_top', value: true }, { stream_id: s.streamId('Scotland'), property: 'pin_to_top', value: true }], bad(`Not subscribed to channel ID ${s.streamId('Scotland')}`)],
  ];
  for (const [data, expected] of cases) t.same(errorOf(await post(data)), expected, JSON.stringify(data));
  t.equal(s.world.subscribersOf(denmark).get(s.id(HAMLET))?.pinToTop, false, 'the valid first item was not applied');
  t.same(errorOf(await s.as(HAMLET).post('/users/me/subscriptions/properties', {})), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'subscription_data' argument" });
});

t.test('subscription properties: in_home_view is the inverted legacy name of is_muted; notification settings and colour are stored', async (t) => {
  const s = testServer();
  const denmark = s.streamId('Denmark');
  const reply = await s.as(HAMLET).post('/users/me/subscriptions/properties', {
    subscription_data: [
      { stream_id: denmark, property: 'in_home_view', value: false },
      { stream_id: denmark, property: 'audible_notifications', value: true },
      { stream_id: denmark, property: 'color', value: '#abc' },
    ],
  });
  t.equal(reply.status, 200);
  t.match(s.world.subscribersOf(denmark).get(s.id(HAMLET)), { isMuted: true, audibleNotifications: true, color: '#abc' });
});

t.test('legacy topic muting: stream_id or stream, not both; op add or remove', async (t) => {
  const s = testServer();
  const denmark = s.streamId('Denmark');
  const mute = (params: Record<string, unknown>) => s.as(HAMLET).patch('/users/me/subscriptions/muted_topics', params);
  t.same(errorOf(await mute({ topic: 'x', op: 'add' })), bad("Missing 'stream_id' argument"));
  t.same(errorOf(await mute({ stream_id: denmark, stream: 'Denmark', topic: 'x', op: 'add' })), bad('Unsupported parameter combination: stream_id, stream'));
  t.same(errorOf(await mute({ stream_id: denmark, topic: 'x', op: 'mute' })), bad('Invalid op'));
  t.same(errorOf(await mute({ stream: 'Nowhere', topic: 'x', op: 'add' })), bad("Invalid channel name 'Nowhere'"));
  t.same(errorOf(await mute({ stream_id: 9999, topic: 'x', op: 'add' })), bad('Invalid channel ID'));
  t.equal((await mute({ stream: 'Denmark', topic: 'lunch', op: 'add' })).status, 200);
  t.equal((await mute({ stream_id: denmark, topic: 'lunch', op: 'add' })).status, 200, 'muting twice is fine from level 170');
  t.equal((await mute({ stream_id: denmark, topic: 'LUNCH', op: 'remove' })).status, 200);
  t.equal((await mute({ stream_id: denmark, topic: 'lunch', op: 'remove' })).status, 200, 'so is unmuting twice');
});

t.test('legacy topic muting before level 170: muting a muted topic or unmuting an unmuted one is an error', async (t) => {
  const s = testServer({ featureLevel: 169 });
  const mute = (op: string) => s.as(HAMLET).patch('/users/me/subscriptions/muted_topics', { stream_id: s.streamId('Denmark'), topic: 'lunch', op });
  t.same(errorOf(await mute('remove')), bad('Topic is not muted'));
  t.equal((await mute('add')).status, 200);
  t.same(errorOf(await mute('add')), bad('Topic already muted'));
});

t.test('GET /users/{user_id}/subscriptions/{stream_id}: is_subscribed, for channels the requester may see (from level 12)', async (t) => {
  const s = testServer();
  const core = s.streamId('core team');
  t.same((await s.as(HAMLET).get(`/users/${s.id(IAGO)}/subscriptions/${core}`)).body.is_subscribed, true);
  t.same((await s.as(HAMLET).get(`/users/${s.id(OTHELLO)}/subscriptions/${core}`)).body.is_subscribed, false);
  t.same(errorOf(await s.as(OTHELLO).get(`/users/${s.id(IAGO)}/subscriptions/${core}`)), bad('Invalid channel ID'));
  t.same(errorOf(await s.as(HAMLET).get(`/users/9999/subscriptions/${core}`)), bad('No such user'));
  t.equal((await testServer({ featureLevel: 11 }).as(HAMLET).get(`/users/${s.id(IAGO)}/subscriptions/${core}`)).status, 404);
});

t.test('POST/DELETE /default_streams: administrators only, before the parameters; private channels cannot be default', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(SHIVA).post('/default_streams', {})), MUST_BE_ADMIN);
  t.same(errorOf(await s.as(POLONIUS).delete('/default_streams', { stream_id: 1 })), MUST_BE_ADMIN);
  t.same(errorOf(await s.as(IAGO).post('/default_streams', {})), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'stream_id' argument" });
  t.same(errorOf(await s.as(IAGO).post('/default_streams', { stream_id: s.streamId('core team') })), bad('Private channels cannot be made default.'));
  t.same(errorOf(await s.as(IAGO).post('/default_streams', { stream_id: 9999 })), bad('Invalid channel ID'));
  t.equal((await s.as(IAGO).post('/default_streams', { stream_id: s.streamId('Denmark') })).status, 200);
  t.ok(s.world.defaultStreamIds.has(s.streamId('Denmark')));
  t.equal((await s.as(IAGO).delete('/default_streams', { stream_id: s.streamId('Denmark') })).status, 200);
  t.notOk(s.world.defaultStreamIds.has(s.streamId('Denmark')));
});

t.test('GET /realm/filters: the legacy tuples below level 176, 405 from it', async (t) => {
  const old = testServer({ featureLevel: 175 });
  const reply = await old.as(HAMLET).get('/realm/filters');
  t.equal(reply.status, 200);
  t.ok((reply.body.filters as unknown[]).length > 0);
  t.match(reply.body.filters[0], [String, String, Number]);
  const modern = await testServer().as(HAMLET).get('/realm/filters');
  t.equal(modern.status, 405);
  t.same(modern.body.allowed_methods ?? modern.headers.allow, modern.body.allowed_methods ? ['POST'] : 'POST');
});
