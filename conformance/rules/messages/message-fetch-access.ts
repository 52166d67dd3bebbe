/**
 * What `GET /messages` lets each reader see (api/get-messages): a non-subscriber who is no guest
 * reads a public channel's history (flags `read` and `historical`) through a channel narrow, but
 * not through `is:` narrows; a guest does not; nobody reads a private channel they are not
 * subscribed to, or direct messages they are not part of. `apply_markdown` chooses HTML or the
 * Markdown, `client_gravatar` false gives every sender's avatar URL.
 */
import type { IdentityName } from '../../credentials/types.js';
import { check, expectEqual, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { createChannels } from '../support/channel-fixtures.js';
import type { Rule, RuleContext } from '../types.js';
import { send } from './send-support.js';

const fetched = v.object({ messages: v.array(v.object({ id: v.int(), flags: v.array(v.string()), content: v.string(), content_type: v.string(), avatar_url: v.union(v.string(), v.null()) })) });

async function idsAndFlags(ctx: RuleContext, who: IdentityName, narrow: unknown, extra: Record<string, unknown> = {}) {
  const reply = await ctx.as(who).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow, ...extra });
  return { reply, messages: expectShape(expectSuccess(reply), fetched, 'body', reply).messages };
}

const readerAccess: Rule = {
  id: 'message-fetch/readers-see-what-they-may',
  title:
    "a non-subscribed member or moderator reads a public channel's messages through a channel narrow, flagged read and historical, but not through is:unread; a non-subscribed guest does not; a private channel's messages reach no non-subscriber (an empty answer, not an error); a direct message reaches none of the others",
  endpoint: 'GET /messages',
  section: 'api/get-messages',
  writes: true,
  needs: ['admin', 'owner', 'moderator', 'member', 'guest'],
  async run(ctx) {
    const admin = ctx.as('admin');
    const [pub, priv] = [(await createChannels(ctx, 'admin', ['history-public']))[0]!, (await createChannels(ctx, 'admin', ['history-private'], { inviteOnly: true }))[0]!];
    const topic = ctx.name('topic');
    const inPublic = await send(ctx, admin, { type: 'stream', to: pub.streamId, topic, content: ctx.name('public') });
    const inPrivate = await send(ctx, admin, { type: 'stream', to: priv.streamId, topic, content: ctx.name('private') });
    const direct = await send(ctx, admin, { type: 'private', to: [ctx.identity('owner').userId], content: ctx.name('direct') });
    for (const who of ['member', 'moderator'] as const) {
      const { reply, messages } = await idsAndFlags(ctx, who, [['stream', pub.name], ['topic', topic]]);
      expectEqual(messages.map((m) => m.id), [inPublic], `the public channel's messages read by the ${who}`, reply);
      check(messages[0]!.flags.includes('read') && messages[0]!.flags.includes('historical'), `the ${who}'s flags for a message it never received: expected read and historical, got ${JSON.stringify(messages[0]!.flags)}`, reply);
      const unread = await idsAndFlags(ctx, who, [['stream', pub.name], ['is', 'unread']]);
      expectEqual(unread.messages.map((m) => m.id), [], `the public channel's messages read by the ${who} with is:unread (no history)`, unread.reply);
      const hidden = await idsAndFlags(ctx, who, [['stream', priv.name]]);
      expectEqual(hidden.messages.map((m) => m.id), [], `the private channel's messages read by the ${who}`, hidden.reply);
    }
    const guest = await idsAndFlags(ctx, 'guest', [['stream', pub.name], ['topic', topic]]);
    expectEqual(guest.messages.map((m) => m.id), [], "the public channel's messages read by a guest who is not subscribed", guest.reply);
    for (const who of ['member', 'moderator', 'guest'] as const) {
      for (const [id, what] of [[direct, "the administrator's direct message to the owner"], [inPrivate, "the private channel's message"]] as const) {
        const reply = await ctx.as(who).get('/messages', { anchor: String(id), num_before: 0, num_after: 0 });
        const messages = expectShape(expectSuccess(reply), fetched, 'body', reply).messages;
        expectEqual(messages.map((m) => m.id), [], `${what}, asked for by the ${who} as an anchor`, reply);
      }
    }
  },
};

const contentForms: Rule = {
  id: 'message-fetch/apply-markdown-and-client-gravatar',
  title: 'apply_markdown true (the default) returns the HTML with content_type text/html, false the Markdown as sent with text/x-markdown; client_gravatar false gives every message an avatar URL',
  endpoint: 'GET /messages',
  section: 'api/get-messages',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const [channel] = await createChannels(ctx, 'admin', ['formats'], { principals: [ctx.identity('admin').userId, ctx.identity('member').userId] });
    const bold = ctx.name('bold');
    const markdown = `**${bold}** text`;
    const id = await send(ctx, ctx.as('admin'), { type: 'stream', to: channel!.streamId, topic: ctx.name('topic'), content: markdown });
    const narrow = [['stream', channel!.name]];
    const forms: ReadonlyArray<readonly [Record<string, unknown>, (content: string) => boolean, string]> = [
      [{}, (c) => c.includes(`<strong>${bold}</strong>`), 'text/html'],
      [{ apply_markdown: true }, (c) => c.startsWith('<p>') && c.includes('<strong>'), 'text/html'],
      [{ apply_markdown: false }, (c) => c === markdown, 'text/x-markdown'],
    ];
    for (const [params, fits, contentType] of forms) {
      const { reply, messages } = await idsAndFlags(ctx, 'member', narrow, { ...params, client_gravatar: false });
      const message = messages.find((m) => m.id === id);
      check(message !== undefined, 'the message is in the channel', reply);
      check(fits(message.content), `content with ${JSON.stringify(params)}: got ${JSON.stringify(message.content)}`, reply);
      expectEqual(message.content_type, contentType, `content_type with ${JSON.stringify(params)}`, reply);
      check(messages.every((m) => typeof m.avatar_url === 'string'), 'with client_gravatar false every message carries an avatar URL', reply);
    }
  },
};

export const rules: readonly Rule[] = [readerAccess, contentForms];
