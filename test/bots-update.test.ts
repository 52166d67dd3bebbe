import t from 'tap';
import { AARON, DESDEMONA, HAMLET, IAGO, POLONIUS, recordEvents, ZOE } from './support/channels.js';
import { bad, errorOf, testServer } from './support/harness.js';

const DEFAULT_BOT = 'default-bot@zulip.com';
const OUTGOING = 'outgoing-webhook@zulip.com';

t.test('PATCH /bots/{id} changes name and default channels and answers the bot\'s fields', async (t) => {
  const s = testServer();
  const bot = s.id(DEFAULT_BOT);
  const reply = await s.as(DESDEMONA).patch(`/bots/${bot}`, {
    full_name: 'Renamed Bot',
    default_sending_stream: 'Verona',
    default_events_register_stream: 'core team',
    default_all_public_streams: true,
  });
  t.equal(reply.status, 200, JSON.stringify(reply.body));
  t.same(reply.body, {
    result: 'success',
    msg: '',
    full_name: 'Renamed Bot',
    avatar_url: reply.body.avatar_url,
    service_interface: 1,
    service_payload_url: null,
    config_data: null,
    default_sending_stream: 'Verona',
    default_events_register_stream: 'core team',
    default_all_public_streams: true,
    bot_owner: `user${s.id(DESDEMONA)}@zulipdev.com`,
  });
  t.equal(s.world.users.get(bot)?.fullName, 'Renamed Bot');
  const cleared = await s.as(DESDEMONA).patch(`/bots/${bot}`, { default_sending_stream: '' });
  t.equal(cleared.body.default_sending_stream, null, 'an empty name clears the channel');
  t.equal((await s.as(DESDEMONA).patch(`/bots/${bot}`, { full_name: 'Renamed Bot' })).status, 200, 'an unchanged name is accepted');
});

t.test('PATCH /bots/{id} updates an outgoing webhook\'s service and an embedded bot\'s configuration', async (t) => {
  const s = testServer();
  const outgoing = s.id(OUTGOING);
  const reply = await s.as(AARON).patch(`/bots/${outgoing}`, { service_payload_url: JSON.stringify('https://example.org/x'), service_interface: 2 });
  t.match(reply.body, { service_payload_url: 'https://example.org/x', service_interface: 2 });
  t.match(s.world.bots.get(outgoing)?.services, [{ baseUrl: 'https://example.org/x', interface: 2 }]);
  t.same(errorOf(await s.as(AARON).patch(`/bots/${outgoing}`, { service_payload_url: JSON.stringify('https://e.org'), service_interface: 9 })), bad('Invalid interface type'));
  const embedded = (await s.as(HAMLET).post('/bots', { full_name: 'Conv', short_name: 'conv', bot_type: 4, service_name: 'converter' })).body.user_id as number;
  const config = await s.as(HAMLET).patch(`/bots/${embedded}`, { config_data: { key: 'value' } });
  t.same(config.body.config_data, { key: 'value' });
  t.same([...(s.world.bots.get(embedded)?.config ?? [])], [['key', 'value']]);
});

t.test('PATCH /bots/{id} changes the owner, with the real server\'s refusals', async (t) => {
  const s = testServer();
  const bot = s.id(DEFAULT_BOT);
  t.same(errorOf(await s.as(DESDEMONA).patch(`/bots/${bot}`, { bot_owner_id: 9999 })), bad('Failed to change owner, no such user'));
  t.same(errorOf(await s.as(DESDEMONA).patch(`/bots/${bot}`, { bot_owner_id: s.id(OUTGOING) })), bad("Failed to change owner, bots can't own other bots"));
  await s.as(IAGO).delete(`/users/${s.id(ZOE)}`);
  t.same(errorOf(await s.as(DESDEMONA).patch(`/bots/${bot}`, { bot_owner_id: s.id(ZOE) })), bad('Failed to change owner, user is deactivated'));
  const reply = await s.as(DESDEMONA).patch(`/bots/${bot}`, { bot_owner_id: s.id(HAMLET) });
  t.equal(reply.body.bot_owner, `user${s.id(HAMLET)}@zulipdev.com`);
  t.equal(s.world.users.get(bot)?.botOwnerId, s.id(HAMLET));
  const outgoing = s.id(OUTGOING);
  t.equal((await s.as(AARON).patch(`/bots/${outgoing}`, { bot_owner_id: s.id(HAMLET) })).status, 200, 'a member owner hands the bot on');
  t.same(errorOf(await s.as(AARON).patch(`/bots/${outgoing}`, { full_name: 'Mine Again' })), bad('Insufficient permission'), 'the old owner lost it');
  t.equal((await s.as(HAMLET).patch(`/bots/${outgoing}`, { full_name: 'Now Mine' })).status, 200);
});

t.test('PATCH /bots/{id} role changes need an administrator, and an owner for the owner role', async (t) => {
  const s = testServer();
  const bot = (await s.as(HAMLET).post('/bots', { full_name: 'Role Bot', short_name: 'role' })).body.user_id as number;
  t.same(errorOf(await s.as(HAMLET).patch(`/bots/${bot}`, { role: 300 })), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
  t.same(errorOf(await s.as(IAGO).patch(`/bots/${bot}`, { role: 100 })), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
  t.equal((await s.as(IAGO).patch(`/bots/${bot}`, { role: 200 })).status, 200);
  t.equal(s.world.users.get(bot)?.role, 200);
  t.equal((await s.as(HAMLET).patch(`/bots/${bot}`, { role: 200 })).status, 200, 'an unchanged role needs nothing');
  t.same(errorOf(await s.as(IAGO).patch(`/bots/${bot}`, { role: 5 })), bad('Invalid role: Value error, Not in the list of possible values'));
});

t.test('PATCH /bots/{id} applies its parts in turn, so a refused part leaves the earlier ones changed (zerver/views/users.py patch_bot_backend)', async (t) => {
  const s = testServer();
  const bot = s.id(DEFAULT_BOT);
  const seen = recordEvents(s);
  const reply = await s.as(DESDEMONA).patch(`/bots/${bot}`, { full_name: 'Fine Name', default_sending_stream: 'Nowhere', default_all_public_streams: true });
  t.same(errorOf(reply), bad("Invalid channel name 'Nowhere'"));
  t.equal(s.world.users.get(bot)?.fullName, 'Fine Name', 'the name, before the channel, was changed');
  t.ok(seen.some((e) => e.event.type === 'realm_bot' && (e.event.bot as { full_name?: string }).full_name === 'Fine Name'), 'with its event');
  t.equal(s.world.bots.get(bot)?.defaultAllPublicStreams ?? false, false, 'the part after the channel was not');
  t.same(errorOf(await s.as(DESDEMONA).patch(`/bots/${bot}`, { full_name: 'King Hamlet' })), bad('Name is already in use.'));
  t.same(errorOf(await s.as(DESDEMONA).patch(`/bots/${bot}`, { service_payload_url: JSON.stringify('https://e.org') })), bad('This bot has no outgoing webhook service'));
  t.same(errorOf(await s.as(DESDEMONA).patch(`/bots/${bot}`, { full_name: 'Other Name', service_payload_url: JSON.stringify('nope') })), bad('service_payload_url is not a URL'));
  t.equal(s.world.users.get(bot)?.fullName, 'Fine Name', 'a parameter that does not parse changes nothing');
});

t.test('PATCH /bots/{id}: guests, other members\' bots and non-bots are refused', async (t) => {
  const s = testServer();
  t.same(errorOf(await s.as(POLONIUS).patch(`/bots/${s.id(DEFAULT_BOT)}`, { full_name: 'X Bot' })), bad('Not allowed for guest users'));
  t.same(errorOf(await s.as(HAMLET).patch(`/bots/${s.id(DEFAULT_BOT)}`, { full_name: 'X Bot' })), bad('Insufficient permission'));
  t.same(errorOf(await s.as(IAGO).patch(`/bots/${s.id(HAMLET)}`, { full_name: 'X Bot' })), bad('No such bot'));
  t.equal((await s.as(IAGO).patch(`/bots/${s.id(DEFAULT_BOT)}`, { full_name: 'Admin Renamed' })).status, 200, 'administrators edit any bot');
});
