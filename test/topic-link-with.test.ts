/**
 * Topic links (`#**channel>topic**`) name a message of the topic with `/with/`, so they follow
 * the topic when it moves: the oldest message from level 347, the latest from level 400
 * (api_docs/changelog.md 347 and 400; zerver/lib/markdown/__init__.py `StreamTopicPattern`,
 * zerver/lib/mention.py `get_topic_info_map`). Only messages the sender can read count.
 */
import t from 'tap';
import { testServer, type TestServer } from './support/harness.js';

const IAGO = 'iago@zulip.com';
const HAMLET = 'hamlet@zulip.com';

async function send(s: TestServer, who: string, to: string, topic: string, content: string): Promise<number> {
  const reply = await s.as(who).post('/messages', { type: 'stream', to, topic, content });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  return reply.body.id as number;
}

async function hrefOfLink(s: TestServer, who: string, to: string, link: string): Promise<string> {
  const id = await send(s, who, to, 'linking', link);
  const html = s.world.messages.get(id)?.renderedContent ?? '';
  return /class="stream-topic"[^>]* href="([^"]*)"/.exec(html)?.[1] ?? `(no topic link in ${html})`;
}

t.test('from level 400 a topic link ends in /with/ the latest message of the topic, whatever the case of the name', async (t) => {
  const s = testServer();
  const verona = s.world.streamByName('Verona')!.id;
  await send(s, IAGO, 'Verona', 'Party plans', 'first');
  const latest = await send(s, HAMLET, 'Verona', 'party PLANS', 'second');
  t.equal(await hrefOfLink(s, IAGO, 'Verona', '#**Verona>party plans**'), `/#narrow/channel/${verona}-Verona/topic/party.20plans/with/${latest}`);
});

t.test('from level 347 to 399 the operand is the oldest message; before 347 there is none', async (t) => {
  for (const [level, expect] of [[399, 'oldest'], [347, 'oldest'], [346, 'none']] as const) {
    const s = testServer({ featureLevel: level });
    const verona = s.world.streamByName('Verona')!.id;
    const oldest = await send(s, IAGO, 'Verona', 'plans', 'first');
    await send(s, IAGO, 'Verona', 'plans', 'second');
    const base = `/#narrow/channel/${verona}-Verona/topic/plans`;
    t.equal(await hrefOfLink(s, IAGO, 'Verona', '#**Verona>plans**'), expect === 'none' ? base : `${base}/with/${oldest}`, `level ${level}`);
  }
});

t.test('a topic without messages, and a message link, get no /with/', async (t) => {
  const s = testServer();
  const verona = s.world.streamByName('Verona')!.id;
  t.equal(await hrefOfLink(s, IAGO, 'Verona', '#**Verona>nothing here yet**'), `/#narrow/channel/${verona}-Verona/topic/nothing.20here.20yet`);
  const id = await send(s, IAGO, 'Verona', 'linking', '#**Verona>plans@12**');
  t.match(s.world.messages.get(id)?.renderedContent, /href="[^"]*\/topic\/plans\/near\/12"/);
});

t.test('in a channel with protected history only messages the sender received count', async (t) => {
  const s = testServer();
  const made = await s.as(IAGO).post('/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], invite_only: true, history_public_to_subscribers: false });
  t.equal(made.status, 200);
  const vault = s.world.streamByName('vault')!.id;
  const before = await send(s, IAGO, 'vault', 'keys', 'before hamlet joined');
  t.equal((await s.as(IAGO).post('/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], principals: [s.id(HAMLET)] })).status, 200);
  const base = `/#narrow/channel/${vault}-vault/topic/keys`;
  t.equal(await hrefOfLink(s, HAMLET, 'vault', '#**vault>keys**'), base, 'hamlet received nothing of the topic');
  t.equal(await hrefOfLink(s, IAGO, 'vault', '#**vault>keys**'), `${base}/with/${before}`, 'iago received it');
  const after = await send(s, IAGO, 'vault', 'keys', 'after hamlet joined');
  t.equal(await hrefOfLink(s, HAMLET, 'vault', '#**vault>keys**'), `${base}/with/${after}`);
});
