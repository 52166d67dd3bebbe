/**
 * `POST /messages` limits (api/send-message, api/register-queue `max_topic_length` and
 * `max_message_length`): topics and content at the limit are kept, one character over are cut
 * (topics end in `...`, content in `\n[message truncated]`), counted in code points; empty
 * content is refused, a channel message needs a topic, and the empty topic by level: refused
 * before 334, then allowed where the realm does not require topics, with `general chat` (334) and
 * `(no topic)` (370) read as the empty topic.
 */
import { expectEqual, expectError } from '../../expect/assert.js';
import { runChannel } from '../support/message-fixtures.js';
import type { IdentityName } from '../../credentials/types.js';
import type { Rule, RuleContext } from '../types.js';
import { messageRules, readBack, SEND, send, textOfLength } from './send-support.js';

/** Sends a channel message as `who` in the run channel and reads it back (raw content). */
async function sendAndRead(ctx: RuleContext, who: IdentityName, topic: string, content: string, extra: Record<string, unknown> = {}) {
  const channel = await runChannel(ctx);
  const client = ctx.as(who);
  return readBack(client, await send(ctx, client, { type: 'stream', to: channel.id, topic, content }), extra);
}

const topicLength: Rule = {
  id: 'messages/topic-length-limit',
  title: 'a topic of max_topic_length code points (astral characters included) is kept as sent; one more code point cuts it to max_topic_length ending in "..."; surrounding white space is stripped',
  endpoint: 'POST /messages',
  section: 'api/send-message; api/register-queue',
  writes: true,
  needs: ['admin', 'owner'],
  async run(ctx) {
    const { maxTopicLength } = await messageRules(ctx.as('owner'));
    const exact = textOfLength(maxTopicLength, 1);
    expectEqual((await sendAndRead(ctx, 'owner', `  ${exact}\t`, ctx.name('topic-at-limit'))).subject, exact, `the topic of ${maxTopicLength} code points (sent with white space around it)`);
    const over = textOfLength(maxTopicLength + 1, 2);
    const cut = `${[...over].slice(0, maxTopicLength - 3).join('')}...`;
    expectEqual((await sendAndRead(ctx, 'owner', over, ctx.name('topic-over-limit'))).subject, cut, `the topic of ${maxTopicLength + 1} code points`);
  },
};

const contentLength: Rule = {
  id: 'messages/content-length-limit',
  title: 'content of max_message_length code points (astral characters included) is kept as sent; one more code point cuts it to max_message_length ending in "\\n[message truncated]"',
  endpoint: 'POST /messages',
  section: 'api/send-message; api/register-queue',
  writes: true,
  needs: ['admin', 'owner'],
  async run(ctx) {
    const { maxMessageLength } = await messageRules(ctx.as('owner'));
    const topic = ctx.name('topic');
    const exact = textOfLength(maxMessageLength, 3);
    expectEqual((await sendAndRead(ctx, 'owner', topic, exact)).content, exact, `the content of ${maxMessageLength} code points`);
    const over = textOfLength(maxMessageLength + 1, 4);
    const suffix = '\n[message truncated]';
    const cut = `${[...over].slice(0, maxMessageLength - suffix.length).join('')}${suffix}`;
    const stored = (await sendAndRead(ctx, 'owner', topic, over)).content;
    expectEqual([[...stored].length, stored.endsWith(suffix)], [maxMessageLength, true], `the length and ending of content sent with ${maxMessageLength + 1} code points`);
    expectEqual(stored, cut, `the content sent with ${maxMessageLength + 1} code points`);
  },
};

const emptyContent: Rule = {
  id: 'messages/empty-content-refused',
  title: 'content that is empty or only white space, content with a NUL character, and no content at all are refused (400 BAD_REQUEST; REQUEST_VARIABLE_MISSING without the parameter); trailing white space and leading newlines are removed from what is kept',
  endpoint: 'POST /messages',
  section: 'api/send-message',
  writes: true,
  needs: ['admin', 'second-member'],
  async run(ctx) {
    const channel = await runChannel(ctx);
    const member = ctx.as('second-member');
    const topic = ctx.name('topic');
    for (const content of ['', ' ', '\n\n', ' \t\n ', 'a\u0000b']) {
      expectError(await member.post('/messages', { type: 'stream', to: channel.id, topic, content }), { status: 400, code: 'BAD_REQUEST' });
    }
    expectError(await member.post('/messages', { type: 'stream', to: channel.id, topic }), { status: 400, code: 'REQUEST_VARIABLE_MISSING' });
    const kept = `  ${ctx.name('indented')}\n  second line`;
    expectEqual((await sendAndRead(ctx, 'second-member', topic, `\n\n${kept} \t\n`)).content, kept, 'content sent with leading newlines and trailing white space');
  },
};

const topicRequired: Rule = {
  id: 'messages/channel-message-needs-topic',
  title: 'a channel message without topic is refused with 400 BAD_REQUEST; a direct message ignores a topic it is sent with',
  endpoint: 'POST /messages',
  section: 'api/send-message',
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  async run(ctx) {
    const channel = await runChannel(ctx);
    const member = ctx.as('second-member');
    expectError(await member.post('/messages', { type: 'stream', to: channel.id, content: ctx.name('no-topic') }), { status: 400, code: 'BAD_REQUEST' });
    const id = await send(ctx, member, { type: 'private', to: [ctx.identity('member').userId], topic: ctx.name('ignored'), content: ctx.name('direct') });
    expectEqual((await readBack(member, id)).subject, '', 'the topic of a direct message sent with one');
  },
};

/** What a channel message sent with `sent` as its topic is stored as at this level, or `refused`. */
function storedTopic(ctx: RuleContext, sent: string, display: string | undefined, required: boolean): string | 'refused' {
  const level = ctx.featureLevel;
  if (level < SEND.EMPTY_TOPIC) return sent.trim() === '' ? 'refused' : sent;
  const empty = sent.trim() === '' || sent === display || (sent === '(no topic)' && level >= SEND.NO_TOPIC_ALIAS);
  if (!empty) return sent;
  return required ? 'refused' : '';
}

const emptyTopicByLevel: Rule = {
  id: 'messages/empty-topic-by-level',
  title:
    "the empty topic is refused before level 334; from 334 '', white space and realm_empty_topic_display_name (and '(no topic)' from 370) are stored as the empty topic unless the realm requires topics (then refused with 400 BAD_REQUEST); it reads back as '' with allow_empty_topic_name and as the display name without",
  endpoint: 'POST /messages',
  section: 'api/send-message; api/get-messages',
  writes: true,
  needs: ['admin', 'moderator'],
  async run(ctx) {
    const channel = await runChannel(ctx);
    const member = ctx.as('moderator');
    const { emptyTopicName, topicsRequired } = await messageRules(member);
    // Before 334 '(no topic)' is an ordinary topic unless the realm requires topics (its refusal is older than the levels).
    const aliases = ['', '   ', 'general chat', ...(topicsRequired && ctx.featureLevel < SEND.NO_TOPIC_ALIAS ? [] : ['(no topic)'])];
    for (const sent of aliases) {
      const expected = storedTopic(ctx, sent, emptyTopicName ?? 'general chat', topicsRequired);
      const params = { type: 'stream', to: channel.id, topic: sent, content: ctx.name('empty-topic') };
      if (expected === 'refused') {
        expectError(await member.post('/messages', params), { status: 400, code: 'BAD_REQUEST' });
        continue;
      }
      const id = await send(ctx, member, params);
      if (ctx.featureLevel < SEND.EMPTY_TOPIC) {
        expectEqual((await readBack(member, id)).subject, expected, `the topic sent as ${JSON.stringify(sent)}`);
        continue;
      }
      expectEqual((await readBack(member, id, { allow_empty_topic_name: true })).subject, expected, `the topic sent as ${JSON.stringify(sent)}, read with allow_empty_topic_name`);
      const shown = expected === '' ? emptyTopicName : expected;
      expectEqual((await readBack(member, id)).subject, shown, `the topic sent as ${JSON.stringify(sent)}, read without allow_empty_topic_name`);
    }
  },
};

export const rules: readonly Rule[] = [topicLength, contentLength, emptyContent, topicRequired, emptyTopicByLevel];
