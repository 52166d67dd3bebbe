import t from 'tap';
import type { RealmPermissionSetting } from '../lib/entities/realm.js';
import { namedGroup } from '../lib/entities/group.js';
import { AARON, DESDEMONA, HAMLET, IAGO, POLONIUS, SHIVA, ZOE } from './support/channels.js';
import { bad, basic, Client, errorOf, testServer, type TestServer } from './support/harness.js';

const newBot = { full_name: 'Build Bot', short_name: 'build' };

const setRealmGroup = (s: TestServer, setting: string, group: Parameters<TestServer['world']['systemGroupId']>[0]): void => {
  s.world.realm.settings.set(setting as RealmPermissionSetting, namedGroup(s.world.systemGroupId(group)));
};

t.test('POST /bots creates a generic bot owned by the caller, with the dev-server email and ID 25', async (t) => {
  const s = testServer();
  const reply = await s.as(HAMLET).post('/bots', newBot);
  t.equal(reply.status, 200);
  t.same(Object.keys(reply.body), ['result', 'msg', 'user_id', 'api_key', 'avatar_url', 'default_sending_stream', 'default_events_register_stream', 'default_all_public_streams']);
  t.equal(reply.body.user_id, 25, 'the first account created on a fresh dev server is 25');
  t.match(reply.body.api_key, /^[A-Za-z0-9]{32}$/);
  t.match(reply.body, { default_sending_stream: null, default_events_register_stream: null, default_all_public_streams: false });
  const bot = s.world.users.get(25);
  t.match(bot, { deliveryEmail: 'build-bot@zulipdev.com', fullName: 'Build Bot', isBot: true, botType: 1, botOwnerId: s.id(HAMLET), role: 400 });
  const me = await new Client(s.app, basic('build-bot@zulipdev.com', reply.body.api_key)).get('/users/me');
  t.match(me.body, { user_id: 25, is_bot: true, bot_type: 1, bot_owner_id: s.id(HAMLET), email: 'build-bot@zulipdev.com' });
  const next = await s.as(IAGO).post('/users', { email: 'new@zulip.com', password: 'pw', full_name: 'New Person' });
  t.equal(next.body.user_id, 26, 'users and bots share one sequence');
});

t.test('POST /users on a fresh dev realm gives ID 25, as on a Zulip development server', async (t) => {
  const s = testServer();
  const reply = await s.as(IAGO).post('/users', { email: 'new@zulip.com', password: 'pw', full_name: 'New Person' });
  t.equal(reply.body.user_id, 25);
});

t.test('POST /bots stores each bot type with its service', async (t) => {
  const s = testServer();
  const outgoing = await s.as(HAMLET).post('/bots', { full_name: 'Hook', short_name: 'hook', bot_type: 3, payload_url: JSON.stringify('https://example.com/hook'), interface_type: 2 });
  t.equal(outgoing.status, 200, JSON.stringify(outgoing.body));
  const profile = s.world.bots.get(outgoing.body.user_id);
  t.match(profile?.services, [{ name: 'hook', baseUrl: 'https://example.com/hook', interface: 2 }]);
  t.match(profile?.services[0]?.token, /^[A-Za-z0-9]{32}$/);
  const embedded = await s.as(HAMLET).post('/bots', { full_name: 'Helper', short_name: 'helper', bot_type: 4, service_name: 'helloworld', config_data: { a: 'b' } });
  t.equal(embedded.status, 200);
  const embeddedProfile = s.world.bots.get(embedded.body.user_id);
  t.match(embeddedProfile?.services, [{ name: 'helloworld' }]);
  t.same([...(embeddedProfile?.config ?? [])], [['a', 'b']]);
  const incoming = await s.as(HAMLET).post('/bots', { full_name: 'Incoming', short_name: 'in', bot_type: 2 });
  t.same(s.world.bots.get(incoming.body.user_id)?.services, [], 'incoming webhooks have no service');
  const streams = await s.as(HAMLET).post('/bots', {
    full_name: 'Streamy',
    short_name: 'streamy',
    default_sending_stream: 'verona',
    default_events_register_stream: 'Denmark',
    default_all_public_streams: true,
  });
  t.match(streams.body, { default_sending_stream: 'Verona', default_events_register_stream: 'Denmark', default_all_public_streams: true });
});

const createErrors: ReadonlyArray<readonly [string, Record<string, unknown>, ReturnType<typeof bad>]> = [
  ['a blank short name', { full_name: 'X Bot', short_name: '  ' }, bad('Bad name or username')],
  ['a short name that makes no email', { full_name: 'X Bot', short_name: 'a b' }, bad('Bad name or username')],
  ['a one-letter full name', { full_name: 'X', short_name: 'x' }, bad('Name too short!')],
  ['a full name with a forbidden character', { full_name: 'X*Bot', short_name: 'x' }, bad('Invalid characters in name!')],
  ['a name an active account carries', { full_name: 'King Hamlet', short_name: 'kh' }, bad('Name is already in use.')],
  ['an unknown bot type', { ...newBot, bot_type: 7 }, bad('Invalid bot type')],
  ['an unknown interface', { ...newBot, bot_type: 3, interface_type: 3 }, bad('Invalid interface type')],
  ['an unknown embedded bot', { ...newBot, bot_type: 4, service_name: 'nope' }, bad('Invalid embedded bot name.')],
  ['an integration name for an incoming webhook', { ...newBot, bot_type: 2, service_name: 'github' }, bad("Invalid integration 'github'.")],
  ['an unknown channel', { ...newBot, default_sending_stream: 'Nowhere' }, bad("Invalid channel name 'Nowhere'")],
  ['a private channel the owner cannot read', { ...newBot, default_events_register_stream: 'core team' }, bad("Invalid channel name 'core team'")],
  ['a payload URL that is not one', { ...newBot, bot_type: 3, payload_url: JSON.stringify('not a url') }, bad('payload_url is not a URL')],
  ['a bot type that is not an integer', { ...newBot, bot_type: '"1"' }, bad('bot_type is not an integer')],
];

for (const [what, params, expected] of createErrors) {
  t.test(`POST /bots refuses ${what} and creates nothing`, async (t) => {
    const s = testServer();
    const before = s.world.users.size;
    t.same(errorOf(await s.as(ZOE).post('/bots', params)), expected);
    t.equal(s.world.users.size, before);
  });
}

t.test('POST /bots refuses a username already in use, case-insensitively', async (t) => {
  const s = testServer();
  t.equal((await s.as(HAMLET).post('/bots', newBot)).status, 200);
  t.same(errorOf(await s.as(ZOE).post('/bots', { full_name: 'Other Bot', short_name: 'BUILD' })), bad('Username already in use'));
});

t.test('POST /bots: missing names are REQUEST_VARIABLE_MISSING; guests and bots are refused before parameters', async (t) => {
  const s = testServer();
  const missing = await s.as(HAMLET).post('/bots', { short_name: 'x' });
  t.same({ ...errorOf(missing), var_name: missing.body.var_name }, { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'full_name' argument", var_name: 'full_name' });
  t.same(errorOf(await s.as(POLONIUS).post('/bots', {})), bad('Not allowed for guest users'));
  const bot = s.world.usersByEmail.get('default-bot@zulip.com');
  t.same(errorOf(await new Client(s.app, basic('default-bot@zulip.com', bot?.apiKey ?? '')).post('/bots', newBot)), bad('This endpoint does not accept bot requests.'));
  t.same(errorOf(await s.as(POLONIUS).get('/bots')), bad('Not allowed for guest users'));
});

t.test('POST /bots with more than one avatar file is refused', async (t) => {
  const s = testServer();
  const boundary = 'b0undary';
  const part = (name: string, body: string, file?: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${file}"` : ''}\r\n\r\n${body}\r\n`;
  const body = `${part('full_name', 'Pic Bot')}${part('short_name', 'pic')}${part('a', 'x', 'a.png')}${part('b', 'y', 'b.png')}--${boundary}--\r\n`;
  const reply = await s.as(HAMLET).post('/bots', {}, { rawBody: { contentType: `multipart/form-data; boundary=${boundary}`, body } });
  t.same(errorOf(reply), bad('You may only upload one file at a time'));
  const one = `${part('full_name', 'Pic Bot')}${part('short_name', 'pic')}${part('a', 'x', 'a.png')}--${boundary}--\r\n`;
  const ok = await s.as(HAMLET).post('/bots', {}, { rawBody: { contentType: `multipart/form-data; boundary=${boundary}`, body: one } });
  t.equal(ok.status, 200);
  t.match(ok.body.avatar_url, /^\/user_avatars\//, 'an uploaded avatar');
});

t.test('from level 344 the bot-creation group settings decide, with "Insufficient permission"', async (t) => {
  const s = testServer();
  setRealmGroup(s, 'can_create_bots_group', 'role:administrators');
  t.same(errorOf(await s.as(HAMLET).post('/bots', newBot)), bad('Insufficient permission'));
  t.equal((await s.as(HAMLET).post('/bots', { full_name: 'Hook', short_name: 'hook', bot_type: 2 })).status, 200, 'write-only bots still allowed');
  setRealmGroup(s, 'can_create_write_only_bots_group', 'role:moderators');
  t.same(errorOf(await s.as(HAMLET).post('/bots', { full_name: 'Hook2', short_name: 'hook2', bot_type: 2 })), bad('Insufficient permission'));
  t.equal((await s.as(SHIVA).post('/bots', { full_name: 'Hook3', short_name: 'hook3', bot_type: 2 })).status, 200, 'moderators may');
  t.same(errorOf(await s.as(SHIVA).post('/bots', newBot)), bad('Insufficient permission'));
  t.equal((await s.as(IAGO).post('/bots', newBot)).status, 200, 'administrators hold role:administrators');
  setRealmGroup(s, 'can_create_bots_group', 'role:owners');
  t.same(errorOf(await s.as(IAGO).post('/bots', { full_name: 'Admin Bot', short_name: 'admin' })), bad('Insufficient permission'), 'no bypass for administrators');
});

const botCreationPolicy = async (s: TestServer): Promise<unknown> => (await s.as(HAMLET).post('/register', { fetch_event_types: JSON.stringify(['realm']) })).body.realm_bot_creation_policy;

t.test('below level 344 the legacy policy refuses with "Must be an organization administrator"', async (t) => {
  const s = testServer({ featureLevel: 343 });
  t.equal(await botCreationPolicy(s), 1, 'register: realm_bot_creation_policy 1 (everyone) while members hold can_create_bots_group');
  setRealmGroup(s, 'can_create_bots_group', 'role:administrators');
  t.equal(await botCreationPolicy(s), 2, 'register: 2 (generic bots limited to administrators) while members hold only the write-only setting');
  const refused = await s.as(HAMLET).post('/bots', newBot);
  t.same(errorOf(refused), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
  t.equal((await s.as(HAMLET).post('/bots', { full_name: 'Hook', short_name: 'hook', bot_type: 2 })).status, 200, 'generic bots limited to administrators');
  setRealmGroup(s, 'can_create_write_only_bots_group', 'role:administrators');
  t.equal(await botCreationPolicy(s), 3, 'register: 3 (administrators only)');
  t.same(errorOf(await s.as(HAMLET).post('/bots', { full_name: 'Hook2', short_name: 'hook2', bot_type: 2 })).msg, 'Must be an organization administrator');
  t.equal((await s.as(DESDEMONA).post('/bots', newBot)).status, 200);
});

t.test('from level 344 register has the creation groups instead of realm_bot_creation_policy', async (t) => {
  t.equal(await botCreationPolicy(testServer()), undefined);
});

t.test('GET /bots lists the caller\'s active bots, oldest first, in the short form', async (t) => {
  const s = testServer();
  const reply = await s.as(ZOE).get('/bots');
  const webhook = s.world.usersByEmail.get('webhook-bot@zulip.com');
  t.same(reply.body.bots, [
    {
      username: 'webhook-bot@zulip.com',
      full_name: 'Zulip Webhook Bot',
      api_key: webhook?.apiKey,
      avatar_url: reply.body.bots[0].avatar_url,
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
    },
  ]);
  t.same((await s.as(IAGO).get('/bots')).body.bots, [], 'administrators list only their own');
  await s.as(ZOE).delete(`/bots/${webhook?.id}`);
  t.same((await s.as(ZOE).get('/bots')).body.bots, [], 'deactivated bots are left out');
});

t.test('DELETE /bots/{id}: owners and administrators deactivate; others, humans and unknown IDs are refused', async (t) => {
  const s = testServer();
  const bot = s.id('default-bot@zulip.com');
  t.same(errorOf(await s.as(HAMLET).delete(`/bots/${bot}`)), bad('Insufficient permission'));
  t.same(errorOf(await s.as(HAMLET).delete(`/bots/${s.id(ZOE)}`)), bad('No such bot'));
  t.same(errorOf(await s.as(HAMLET).delete('/bots/9999')), bad('No such bot'));
  t.same(errorOf(await s.as(HAMLET).delete('/bots/4')), bad('No such bot'), 'cross-realm bots are not the realm\'s');
  t.equal((await s.as(IAGO).delete(`/bots/${bot}`)).status, 200);
  t.equal(s.world.users.get(bot)?.isActive, false);
  t.equal((await s.as(AARON).delete(`/bots/${s.id('outgoing-webhook@zulip.com')}`)).status, 200, 'the owner');
});

t.test('API keys: regenerating gives a new key and the old one stops working at once', async (t) => {
  const s = testServer();
  const old = s.world.usersByEmail.get('hamlet@zulip.com')?.apiKey ?? '';
  const oldClient = new Client(s.app, basic(HAMLET, old));
  t.equal((await oldClient.get('/users/me')).status, 200);
  const reply = await oldClient.post('/users/me/api_key/regenerate');
  t.match(reply.body.api_key, /^[A-Za-z0-9]{32}$/);
  t.not(reply.body.api_key, old);
  t.equal((await oldClient.get('/users/me')).status, 401);
  t.equal((await new Client(s.app, basic(HAMLET, reply.body.api_key)).get('/users/me')).status, 200);
  const bot = s.world.usersByEmail.get('default-bot@zulip.com');
  const botClient = new Client(s.app, basic('default-bot@zulip.com', bot?.apiKey ?? ''));
  t.same(errorOf(await s.as(HAMLET).post(`/bots/${bot?.id}/api_key/regenerate`)), bad('Insufficient permission'));
  const botKey = await s.as(DESDEMONA).post(`/bots/${bot?.id}/api_key/regenerate`);
  t.equal(s.world.users.get(bot?.id ?? 0)?.apiKey, botKey.body.api_key);
  t.equal((await botClient.get('/users/me')).status, 401, 'the bot\'s old key is dead too');
  const renewed = new Client(s.app, basic('default-bot@zulip.com', botKey.body.api_key));
  const own = await renewed.post('/users/me/api_key/regenerate');
  t.equal(own.status, 200, 'a bot may regenerate its own key, as on the real server');
  t.equal(s.world.users.get(bot?.id ?? 0)?.apiKey, own.body.api_key);
  t.equal((await renewed.get('/users/me')).status, 401, 'the key the bot replaced stops working');
});
