/**
 * `GET /messages/{message_id}` (api/get-message): the message object and the deprecated
 * `raw_content` (level 120; `raw_content` alone before), `apply_markdown`, and who may read what:
 * a public channel's messages every non-guest (flags `read`, `historical` without a copy of
 * their own), a private channel's its subscribers, a direct message its participants; anyone
 * else, and unknown IDs, get 400 BAD_REQUEST.
 */
import type { IdentityName } from '../../credentials/types.js';
import { check, expectEqual, expectError, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { createChannels } from '../support/channel-fixtures.js';
import { FAR_ID_FLOOR } from '../support/message-fixtures.js';
import type { Rule } from '../types.js';
import { send } from './send-support.js';

const MESSAGE_OBJECT_LEVEL = 120;

const withObject = v.object({ message: v.object({ id: v.int(), content: v.string(), content_type: v.string(), flags: v.array(v.string()), sender_id: v.int() }), raw_content: v.string() });

const shapeAndMarkdown: Rule = {
  id: 'message-get/message-and-raw-content',
  title: 'the message reads back with its raw content; from level 120 also as a message object whose content is HTML (text/html) by default and the Markdown (text/x-markdown) with apply_markdown false',
  endpoint: 'GET /messages/{message_id}',
  section: 'api/get-message',
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  async run(ctx) {
    const bold = ctx.name('bold');
    const markdown = `**${bold}** then *more*`;
    const id = await send(ctx, ctx.as('member'), { type: 'private', to: [ctx.identity('second-member').userId], content: markdown });
    for (const who of ['member', 'second-member'] as const) {
      if (ctx.featureLevel < MESSAGE_OBJECT_LEVEL) {
        const reply = await ctx.as(who).get(`/messages/${id}`);
        expectEqual(expectShape(expectSuccess(reply), v.object({ raw_content: v.string() }), 'body', reply).raw_content, markdown, `raw_content read by the ${who}`, reply);
        continue;
      }
      for (const applyMarkdown of [undefined, true, false]) {
        const reply = await ctx.as(who).get(`/messages/${id}`, applyMarkdown === undefined ? {} : { apply_markdown: applyMarkdown });
        const body = expectShape(expectSuccess(reply), withObject, 'body', reply);
        const what = `read by the ${who} with apply_markdown ${String(applyMarkdown)}`;
        expectEqual([body.raw_content, body.message.id, body.message.sender_id], [markdown, id, ctx.identity('member').userId], `raw_content, id and sender_id ${what}`, reply);
        if (applyMarkdown === false) expectEqual([body.message.content, body.message.content_type], [markdown, 'text/x-markdown'], `content ${what}`, reply);
        else {
          check(body.message.content.includes(`<strong>${bold}</strong>`) && body.message.content.includes('<em>more</em>'), `content ${what} must be the HTML, got ${JSON.stringify(body.message.content)}`, reply);
          expectEqual(body.message.content_type, 'text/html', `content_type ${what}`, reply);
        }
      }
    }
  },
};

const READERS: readonly IdentityName[] = ['owner', 'admin', 'moderator', 'member', 'second-member', 'guest'];

const accessByRole: Rule = {
  id: 'message-get/access-by-role-and-channel-kind',
  title:
    "a public channel's message is readable by every non-guest (flagged read and historical for those without a copy) and not by a guest who is not subscribed; a private channel's by its subscribers only, owners included; a direct message by its participants only; refusals and unknown IDs are 400 BAD_REQUEST",
  endpoint: 'GET /messages/{message_id}',
  section: 'api/get-message',
  writes: true,
  needs: [...READERS],
  async run(ctx) {
    const admin = ctx.as('admin');
    const subscribers = [ctx.identity('admin').userId, ctx.identity('member').userId];
    const [pub] = await createChannels(ctx, 'admin', ['read-public'], { principals: subscribers });
    const [priv] = await createChannels(ctx, 'admin', ['read-private'], { inviteOnly: true, principals: subscribers });
    const topic = ctx.name('topic');
    const messages: ReadonlyArray<{ id: number; what: string; holders: readonly IdentityName[]; readers: readonly IdentityName[] }> = [
      { id: await send(ctx, admin, { type: 'stream', to: pub!.streamId, topic, content: ctx.name('public') }), what: "a public channel's message", holders: ['admin', 'member'], readers: ['owner', 'admin', 'moderator', 'member', 'second-member'] },
      { id: await send(ctx, admin, { type: 'stream', to: priv!.streamId, topic, content: ctx.name('private') }), what: "a private channel's message", holders: ['admin', 'member'], readers: ['admin', 'member'] },
      { id: await send(ctx, admin, { type: 'private', to: [ctx.identity('member').userId], content: ctx.name('direct') }), what: 'a direct message', holders: ['admin', 'member'], readers: ['admin', 'member'] },
    ];
    for (const message of messages) {
      for (const who of READERS) {
        const reply = await ctx.as(who).get(`/messages/${message.id}`);
        if (!message.readers.includes(who)) {
          expectError(reply, { status: 400, code: 'BAD_REQUEST' });
          continue;
        }
        expectSuccess(reply);
        if (ctx.featureLevel < MESSAGE_OBJECT_LEVEL) continue;
        const flags = expectShape(reply.body, withObject, 'body', reply).message.flags;
        const historical = !message.holders.includes(who);
        check(flags.includes('historical') === historical && (!historical || flags.includes('read')), `the ${who}'s flags for ${message.what}: expected ${historical ? 'read and historical' : 'no historical'}, got ${JSON.stringify(flags)}`, reply);
      }
    }
    expectError(await ctx.as('member').get(`/messages/${FAR_ID_FLOOR + 11}`), { status: 400, code: 'BAD_REQUEST' });
  },
};

export const rules: readonly Rule[] = [shapeAndMarkdown, accessByRole];
