import t from 'tap';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

// The real server's get_stream_email_address with sender_id (level 335) and its
// test_get_stream_email_address cases: the gateway by default, oneself, one's own bots.
const HAMLET = 'hamlet@zulip.com';
const OTHELLO = 'othello@zulip.com';
const IAGO = 'iago@zulip.com';

const addressOf = async (s: TestServer, email: string, senderId?: number): Promise<string> => {
  const reply = await s.as(email).get(`/streams/${s.streamId('Denmark')}/email_address`, senderId === undefined ? {} : { sender_id: senderId });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  return reply.body.email as string;
};

const newBot = async (s: TestServer, owner: string, shortName: string): Promise<number> =>
  (await s.as(owner).post('/bots', { full_name: `Bot ${shortName}`, short_name: shortName })).body.user_id as number;

t.test('each sender gets its own stable address; naming the Email Gateway bot is the default', async (t) => {
  const s = testServer();
  const gateway = s.id('emailgateway@zulip.com');
  const bot = await newBot(s, HAMLET, 'mailer');
  const byDefault = await addressOf(s, HAMLET);
  t.equal(await addressOf(s, HAMLET, gateway), byDefault);
  const self = await addressOf(s, HAMLET, s.id(HAMLET));
  const viaBot = await addressOf(s, HAMLET, bot);
  t.equal(new Set([byDefault, self, viaBot]).size, 3, 'three senders, three addresses');
  for (const address of [byDefault, self, viaBot]) t.match(address, /^denmark\.[0-9a-f]{32}\.show-sender@/);
  t.equal(await addressOf(s, HAMLET, s.id(HAMLET)), self, 'asking again gives the same address');
});

t.test('the address belongs to the requester too: two users asking for the gateway get different ones', async (t) => {
  const s = testServer();
  t.not(await addressOf(s, HAMLET), await addressOf(s, IAGO));
});

t.test('other humans and unknown IDs are "No such bot"; another user\'s bot is "Insufficient permission" except to administrators', async (t) => {
  const s = testServer();
  const path = `/streams/${s.streamId('Denmark')}/email_address`;
  const othellosBot = await newBot(s, OTHELLO, 'othellos');
  t.same(errorOf(await s.as(HAMLET).get(path, { sender_id: s.id(OTHELLO) })), bad('No such bot'));
  t.same(errorOf(await s.as(HAMLET).get(path, { sender_id: 987654 })), bad('No such bot'));
  t.same(errorOf(await s.as(HAMLET).get(path, { sender_id: othellosBot })), bad('Insufficient permission'));
  t.equal((await s.as(IAGO).get(path, { sender_id: othellosBot })).status, 200, 'administrators administer every bot');
});

t.test('before level 335 sender_id is ignored and everyone gets the channel\'s one address', async (t) => {
  const s = testServer({ featureLevel: 334 });
  const path = `/streams/${s.streamId('Denmark')}/email_address`;
  const reply = await s.as(HAMLET).get(path, { sender_id: s.id(OTHELLO) });
  t.equal(reply.status, 200);
  t.same(reply.body.ignored_parameters_unsupported, ['sender_id']);
  t.equal(await addressOf(s, IAGO), reply.body.email);
});
