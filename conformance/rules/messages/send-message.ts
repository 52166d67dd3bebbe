/**
 * `POST /messages` (api/send-message): every `type` value at the levels that have it, every form
 * of `to` a channel message and a direct message accept (IDs and names, IDs and API emails), each
 * message read back as sent, and `read_by_sender` with the server's default for API clients.
 */
import { check, expectEqual, expectError } from '../../expect/assert.js';
import { runChannel } from '../support/message-fixtures.js';
import { userDirectory } from '../support/channel-fixtures.js';
import type { Rule, RuleContext } from '../types.js';
import { channelTypes, directTypes, participantsOf, readBack, readConversation, SEND, send } from './send-support.js';

const channelEveryTypeAndForm: Rule = {
  id: 'messages/channel-every-type-and-to-form',
  title:
    "a channel message is sent with each channel type of the level ('stream', 'channel' from 248) and each form of to (the ID, the name, the JSON-encoded name, a one-element list of either); each answer's id is new and the message reads back with that channel, topic, sender and content",
  endpoint: 'POST /messages',
  section: 'api/send-message',
  writes: true,
  needs: ['admin', 'member'],
  async run(ctx) {
    const channel = await runChannel(ctx);
    const topic = ctx.name('topic');
    const forms: ReadonlyArray<readonly [string, unknown]> = [
      ['the ID', channel.id],
      ['the name', channel.name],
      ['the JSON-encoded name', JSON.stringify(channel.name)],
      ['a list of the ID', [channel.id]],
      ['a list of the name', [channel.name]],
    ];
    const member = ctx.as('member');
    const sent: Array<{ id: number; what: string; content: string }> = [];
    for (const type of channelTypes(ctx.featureLevel)) {
      for (const [form, to] of forms) {
        const content = `${ctx.name('content')} ${type} ${form}`;
        const id = await send(ctx, member, { type, to, topic, content });
        const what = `type '${type}', to as ${form}`;
        check(id > (sent.at(-1)?.id ?? 0), `the id of the message sent with ${what} (${id}) must be newer than the one before`);
        sent.push({ id, what, content });
      }
    }
    // Read back at once: the topic holds exactly these messages, oldest first.
    const found = await readConversation(member, [['stream', channel.name], ['topic', topic]], sent.length + 1);
    expectEqual(found.map((m) => m.id), sent.map((m) => m.id), 'the messages of the topic');
    found.forEach((message, i) => {
      const { what, content } = sent[i]!;
      expectEqual([message.type, message.stream_id, message.display_recipient, message.subject], ['stream', channel.id, channel.name, topic], `the channel and topic of the message sent with ${what}`);
      expectEqual([message.sender_id, message.content], [ctx.identity('member').userId, content], `the sender and content of the message sent with ${what}`);
    });
  },
};

const directEveryTypeAndForm: Rule = {
  id: 'messages/direct-every-type-and-to-form',
  title:
    "a direct and a group direct message are sent with each direct type of the level ('private', 'direct' from 174) and each form of to (a list of IDs, a list of API emails, comma-separated API emails, the sender named too); each reads back among exactly the sender and its recipients",
  endpoint: 'POST /messages',
  section: 'api/send-message',
  writes: true,
  needs: ['admin', 'member', 'second-member'],
  async run(ctx) {
    const me = ctx.identity('second-member').userId;
    const directory = await userDirectory(ctx.as('second-member'));
    const email = (id: number) => directory.get(id)?.email ?? '';
    const groups = [[ctx.identity('member').userId], [ctx.identity('member').userId, ctx.identity('admin').userId]];
    const member = ctx.as('second-member');
    for (const others of groups) {
      const sent: Array<{ id: number; what: string; content: string }> = [];
      for (const type of directTypes(ctx.featureLevel)) {
        const forms: ReadonlyArray<readonly [string, unknown]> = [
          ['a list of IDs', others],
          ['a list of API emails', others.map(email)],
          ['comma-separated API emails', others.map(email).join(',')],
          ['a list of IDs naming the sender too', [me, ...others]],
        ];
        for (const [form, to] of forms) {
          const content = `${ctx.name('content')} ${type} ${form}`;
          sent.push({ id: await send(ctx, member, { type, to, content }), what: `type '${type}' to ${others.length} others as ${form}`, content });
        }
      }
      // The conversation's newest messages are these, in order (older ones of earlier runs come before).
      const found = (await readConversation(member, [['pm-with', others.map(email).join(',')]], sent.length)).slice(-sent.length);
      expectEqual(found.map((m) => m.id), sent.map((m) => m.id), `the newest messages of the conversation with ${others.length} others`);
      found.forEach((message, i) => {
        const { what, content } = sent[i]!;
        expectEqual([message.type, participantsOf(message)], ['private', [me, ...others].sort((a, b) => a - b)], `the participants of the message sent with ${what}`);
        expectEqual([message.sender_id, message.content, message.subject], [me, content, ''], `the sender, content and (empty) topic of the message sent with ${what}`);
      });
    }
  },
};

/** Every `type` value the API names, with the first level that accepts it. */
const TYPE_LEVELS: ReadonlyArray<readonly [type: string, since: number, channel: boolean]> = [
  ['private', 1, false],
  ['stream', 1, true],
  ['direct', SEND.DIRECT_TYPE, false],
  ['channel', SEND.CHANNEL_TYPE, true],
  ['dm', Number.POSITIVE_INFINITY, false],
  ['Stream', Number.POSITIVE_INFINITY, true],
  ['', Number.POSITIVE_INFINITY, true],
];

const typeValuesByLevel: Rule = {
  id: 'messages/type-values-by-level',
  title: "each type value is accepted exactly from its level ('private' and 'stream' always, 'direct' from 174, 'channel' from 248) and anything else is refused with 400 BAD_REQUEST",
  endpoint: 'POST /messages',
  section: 'api/send-message',
  writes: true,
  needs: ['admin', 'moderator', 'second-member'],
  async run(ctx) {
    const channel = await runChannel(ctx);
    const topic = ctx.name('topic');
    const moderator = ctx.as('moderator');
    for (const [type, since, isChannel] of TYPE_LEVELS) {
      const to = isChannel ? channel.id : [ctx.identity('second-member').userId];
      const params = { type, to, topic, content: `${ctx.name('type')} ${type}` };
      if (ctx.featureLevel >= since) await send(ctx, moderator, params);
      else expectError(await moderator.post('/messages', params), { status: 400, code: 'BAD_REQUEST' });
    }
  },
};

/** The sender's and the recipient's read state of a message sent with `readBySender` (undefined: not sent). */
async function readStates(ctx: RuleContext, readBySender: boolean | undefined): Promise<[sender: boolean, recipient: boolean]> {
  const params: Record<string, unknown> = { type: 'private', to: [ctx.identity('second-member').userId], content: ctx.name('read-by-sender') };
  if (readBySender !== undefined) params.read_by_sender = readBySender;
  const id = await send(ctx, ctx.as('member'), params);
  const isRead = async (who: 'member' | 'second-member') => (await readBack(ctx.as(who), id)).flags.includes('read');
  return [await isRead('member'), await isRead('second-member')];
}

const readBySender: Rule = {
  id: 'messages/read-by-sender',
  title:
    "read_by_sender true starts the message read for its sender and false unread (level 236); without it a message from an API client (not one of the server's own apps) stays unread for its sender; the recipient's copy is unread in every case",
  endpoint: 'POST /messages',
  section: 'api/send-message',
  writes: true,
  needs: ['member', 'second-member'],
  async run(ctx) {
    const cases: ReadonlyArray<readonly [boolean | undefined, boolean]> = ctx.featureLevel >= SEND.READ_BY_SENDER ? [[true, true], [false, false], [undefined, false]] : [[undefined, false]];
    for (const [value, senderRead] of cases) {
      const states = await readStates(ctx, value);
      expectEqual(states, [senderRead, false], `read state of [the sender's copy, the recipient's copy] with read_by_sender ${value === undefined ? 'not sent' : String(value)}`);
    }
  },
};

export const rules: readonly Rule[] = [channelEveryTypeAndForm, directEveryTypeAndForm, typeValuesByLevel, readBySender];
