/**
 * Topic links in rendered Markdown (api/message-formatting, "Links to channels, topics, and
 * messages"): `#**channel>topic**` ends in `/with/` a message of the topic, so the link follows
 * the topic when it moves. From level 347 that is the topic's oldest message, from level 400 its
 * latest (api_docs/changelog.md); before 347 there is no operand. Only messages the renderer can
 * read count: in a private channel with protected history, a member subscribed later links
 * without an operand until it receives a message of the topic. Checked through
 * `POST /messages/render`, which renders for the caller and sends nothing.
 */
import type { ApiClient } from '../../client/api-client.js';
import { check, expectEqual, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { ownChannel } from '../channels/streams-support.js';
import { principalsFor } from '../support/channel-fixtures.js';
import { sendToChannel } from '../support/message-fixtures.js';
import type { Rule } from '../types.js';

const WITH_OLDEST_LEVEL = 347;
const WITH_LATEST_LEVEL = 400;

/** The `/with/` operand of the first topic link `client` gets for `link`, or null for none. */
async function withOperand(client: ApiClient, link: string): Promise<number | null> {
  const reply = await client.post('/messages/render', { content: link });
  const html = expectShape(expectSuccess(reply), v.object({ rendered: v.string() }), 'body', reply).rendered;
  const href = /class="stream-topic"[^>]* href="([^"]*)"/.exec(html)?.[1];
  check(href !== undefined, `${link} should render as a stream-topic link; got ${html}`, reply);
  const operand = /\/with\/(\d+)$/.exec(href);
  return operand ? Number(operand[1]) : null;
}

const topicLinkOperand: Rule = {
  id: 'topic-links/with-operand',
  title: 'a topic link ends in /with/ the topic\'s oldest message (levels 347 to 399) or latest message (from 400), none before 347 or for a topic without messages; in a channel with protected history a member subscribed later gets none until it receives a message of the topic',
  endpoint: 'POST /messages/render',
  section: 'api/message-formatting',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const channel = await ownChannel(ctx, 'topic-links', { inviteOnly: true });
    const topic = `${ctx.name('linked')}`;
    const link = `#**${channel.name}>${topic}**`;
    expectEqual(await withOperand(admin, link), null, 'the operand for a topic without messages');
    const oldest = await sendToChannel(admin, channel.streamId, topic, 'first');
    const latest = await sendToChannel(admin, channel.streamId, topic.toUpperCase(), 'second, the topic in other case');
    const expected = (first: number, last: number): number | null => {
      if (ctx.featureLevel >= WITH_LATEST_LEVEL) return last;
      return ctx.featureLevel >= WITH_OLDEST_LEVEL ? first : null;
    };
    expectEqual(await withOperand(admin, link), expected(oldest, latest), `the operand of the subscriber's link (messages ${oldest} and ${latest})`);
    if (ctx.featureLevel < WITH_OLDEST_LEVEL) return;
    expectSuccess(await admin.post('/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals: await principalsFor(ctx, admin, [ctx.identity('member').userId]) }));
    const member = ctx.as('member');
    expectEqual(await withOperand(member, link), null, 'the operand for a member who received no message of the topic (protected history)');
    const third = await sendToChannel(admin, channel.streamId, topic, 'third, after the member joined');
    expectEqual(await withOperand(member, link), third, 'the operand for the member once it received a message of the topic');
  },
};

export const rules: readonly Rule[] = [topicLinkOperand];
