/**
 * Before level 162 the limit on renaming another user's topic was the server's fixed
 * `DEFAULT_COMMUNITY_TOPIC_EDITING_LIMIT_SECONDS` (zerver/views/message_edit.py of those
 * releases: 1 day, 3 days from level 38), reported in `/register` as
 * `realm_community_topic_editing_limit_seconds` from level 11 until its removal at 183.
 */
import t from 'tap';
import { bad, errorOf, testServer, type TestServer } from './support/harness.js';

const DAY = 86_400;
const HAMLET = 'hamlet@zulip.com';
const OTHELLO = 'othello@zulip.com';
const KEY = 'realm_community_topic_editing_limit_seconds';

async function registered(featureLevel: number): Promise<Record<string, unknown>> {
  const s = testServer({ featureLevel });
  return (await s.as(HAMLET).post('/register', { fetch_event_types: JSON.stringify(['realm']) })).body as Record<string, unknown>;
}

/** Othello renames the topic of Hamlet's message once it is `ageSeconds` old. */
async function renameAfter(featureLevel: number, ageSeconds: number): Promise<{ status: number; body: unknown }> {
  const s: TestServer = testServer({ featureLevel });
  const sent = await s.as(HAMLET).post('/messages', { type: 'stream', to: 'Verona', topic: 'old', content: 'hello' });
  s.clock.advance(ageSeconds * 1000);
  const reply = await s.as(OTHELLO).patch(`/messages/${sent.body.id as number}`, { topic: 'renamed' });
  return { status: reply.status, body: reply.status === 200 ? reply.body : errorOf(reply) };
}

t.test('register reports the community limit from level 11 to 182: 1 day, then 3 days from 38', async (t) => {
  t.notOk(KEY in (await registered(10)));
  t.equal((await registered(11))[KEY], DAY);
  t.equal((await registered(37))[KEY], DAY);
  t.equal((await registered(38))[KEY], 3 * DAY);
  t.equal((await registered(182))[KEY], 3 * DAY);
  t.notOk(KEY in (await registered(183)), 'removed at 183');
  t.notOk(KEY in (await registered(415)));
});

t.test("renaming another's topic is refused past the community limit (plus the 20 s grace) before level 162", async (t) => {
  const refused = bad("The time limit for editing this message's topic has passed.");
  t.equal((await renameAfter(37, DAY + 10)).status, 200, 'within the grace');
  t.same((await renameAfter(37, DAY + 21)).body, refused, '1 day at level 37');
  t.equal((await renameAfter(38, 2 * DAY)).status, 200, '3 days from level 38');
  t.same((await renameAfter(161, 3 * DAY + 21)).body, refused);
  t.equal((await renameAfter(162, 3 * DAY + 21)).status, 200, 'from 162 the 7-day move setting applies');
});
