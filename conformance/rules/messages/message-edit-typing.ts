/**
 * Typing while editing a message (level 351: `POST /message_edit_typing` with `message_id`;
 * level 361: `POST /messages/{message_id}/typing`): only someone who may edit the message's
 * content may send it; each `start` and `stop` reaches every other reader who receives typing
 * notifications as exactly one `typing_edit_message` event (channel messages: the channel and
 * topic; direct messages: the participants), and nobody who cannot read the message.
 */
import fc from 'fast-check';
import type { ApiClient, JsonObject, Reply } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { check, expectEqual, expectError } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { credentialsRequired } from '../conventions/credentials-required.js';
import { FAR_ID_FLOOR, fetchState, maxMessageId } from '../support/message-fixtures.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import type { Rule, RuleContext } from '../types.js';
import { ascending, EDIT_LEVELS, editChannels, eventsBeforeMarker, markedQueue, oneEvent, send, sendDirect } from './message-edit-support.js';

const LEGACY = { min: EDIT_LEVELS.EDIT_TYPING, max: EDIT_LEVELS.EDIT_TYPING_PATH - 1 } as const;
const BAD_REQUEST = { status: 400, code: 'BAD_REQUEST' } as const;

/** Sends an edit typing notification by the endpoint of the target's level. */
function editTyping(ctx: RuleContext, client: ApiClient, id: number, op: string): Promise<Reply> {
  if (ctx.featureLevel >= EDIT_LEVELS.EDIT_TYPING_PATH) return client.post(`/messages/${id}/typing`, { op });
  return client.post('/message_edit_typing', { op, message_id: id });
}

const endpointOf = (ctx: RuleContext): string =>
  ctx.featureLevel >= EDIT_LEVELS.EDIT_TYPING_PATH ? 'POST /messages/{message_id}/typing' : 'POST /message_edit_typing';

/** Skips unless the member sends and the readers receive typing notifications (their own settings). */
async function requireTypingSettings(ctx: RuleContext, kind: 'stream' | 'private', readers: readonly IdentityName[]): Promise<void> {
  const settingsOf = async (who: IdentityName): Promise<JsonObject> => {
    const state = await fetchState(ctx.as(who), ['user_settings']);
    const settings = state.user_settings;
    return settings !== null && typeof settings === 'object' ? (settings as JsonObject) : state;
  };
  if ((await settingsOf('member'))[`send_${kind}_typing_notifications`] === false) return ctx.skip(`the member turned send_${kind}_typing_notifications off`);
  for (const who of readers) if ((await settingsOf(who)).receives_typing_notifications === false) ctx.skip(`the ${who} turned receives_typing_notifications off`);
}

const recipientShape = v.union(
  v.object({ type: v.literal('channel'), channel_id: v.int(), topic: v.optional(v.string()) }, { exact: true }),
  v.object({ type: v.literal('direct'), user_ids: v.array(v.int()) }, { exact: true }),
);
const eventShape = v.object({ id: v.int(), type: v.literal('typing_edit_message'), op: v.literal('start', 'stop'), sender_id: v.int(), message_id: v.int(), recipient: recipientShape }, { exact: true });

/** The typing_edit_message events about message `id` in what `who`'s queue received before its marker. */
async function typingEventsAbout(ctx: RuleContext, who: IdentityName, queue: Awaited<ReturnType<typeof markedQueue>>, id: number): Promise<JsonObject[]> {
  return (await eventsBeforeMarker(ctx.as(who), queue)).filter((event) => event.type === 'typing_edit_message' && event.message_id === id);
}

/** The one typing_edit_message about message `id` that `who`'s queue got: op, the member as sender, the recipient type; returns the recipient. */
async function theMembersTypingEvent(ctx: RuleContext, who: IdentityName, queue: Awaited<ReturnType<typeof markedQueue>>, id: number, op: string, type: string): Promise<unknown> {
  const event = oneEvent(await typingEventsAbout(ctx, who, queue, id), eventShape, `the ${who}'s typing_edit_message (${op})`);
  expectEqual([event.op, event.sender_id, event.recipient.type], [op, ctx.identity('member').userId, type], `op, sender_id, recipient.type (${who})`);
  return event.recipient;
}

/** What the delivery rules share: the endpoint of level 361 (351 to 360 under its older name), writes, every reader. */
const DELIVERY = { endpoint: 'POST /messages/{message_id}/typing', levels: { min: EDIT_LEVELS.EDIT_TYPING }, writes: true, needs: ['admin', 'member', 'second-member', 'guest'] } as const;

const channelDelivery: Rule = {
  ...DELIVERY,
  id: 'message-edit-typing/channel-event-to-subscribers',
  title: "the sender's start and stop while editing a channel message reach each other subscriber as exactly one typing_edit_message (op, sender_id, message_id, recipient {type channel, channel_id, topic}); nobody outside a private channel gets one",
  section: 'api/set-typing-status-for-message-edit; api/get-events (typing_edit_message)',
  async run(ctx) {
    await requireTypingSettings(ctx, 'stream', ['second-member', 'guest']);
    const { open, secret } = await editChannels(ctx);
    const readers = (['second-member', 'guest'] as const).map(async (who) => ({ who, queue: await markedQueue(ctx, ctx.as(who), ['typing_edit_message'], { stream_typing_notifications: true }) }));
    const queues = await Promise.all(readers);
    const topic = ctx.name('topic');
    const id = await send(ctx.as('member'), open, topic, ctx.name('content'));
    const hidden = await send(ctx.as('member'), secret, topic, ctx.name('content'));
    for (const op of ['start', 'stop'] as const) {
      expectPlainSuccess(await editTyping(ctx, ctx.as('member'), id, op));
      for (const { who, queue } of queues) {
        const recipient = (await theMembersTypingEvent(ctx, who, queue, id, op, 'channel')) as { channel_id: number; topic?: string };
        expectEqual(recipient.channel_id, open.id, `recipient.channel_id (${who})`);
        if (recipient.topic !== undefined) expectEqual(recipient.topic, topic, `recipient.topic (${who})`);
      }
    }
    expectPlainSuccess(await editTyping(ctx, ctx.as('member'), hidden, 'start'));
    for (const { who, queue } of queues) expectEqual((await typingEventsAbout(ctx, who, queue, hidden)).length, 0, `typing_edit_message events in the ${who}'s queue for a private channel it is not in`);
  },
};

const directDelivery: Rule = {
  ...DELIVERY,
  id: 'message-edit-typing/direct-event-to-participants',
  title: 'the sender editing a direct message reaches the other participant as exactly one typing_edit_message with recipient {type direct, user_ids} naming the participants (the editor too from level 361); a user outside the conversation gets none',
  section: 'api/set-typing-status-for-message-edit; api/get-events (typing_edit_message)',
  async run(ctx) {
    await requireTypingSettings(ctx, 'private', ['second-member']);
    const [memberId, otherId] = [ctx.identity('member').userId, ctx.identity('second-member').userId];
    const recipientQueue = await markedQueue(ctx, ctx.as('second-member'), ['typing_edit_message']);
    const outsiderQueue = await markedQueue(ctx, ctx.as('guest'), ['typing_edit_message']);
    const id = await sendDirect(ctx.as('member'), [otherId], ctx.name('direct'));
    for (const op of ['start', 'stop'] as const) {
      expectPlainSuccess(await editTyping(ctx, ctx.as('member'), id, op));
      const recipient = (await theMembersTypingEvent(ctx, 'second-member', recipientQueue, id, op, 'direct')) as { user_ids: number[] };
      const userIds = ascending(recipient.user_ids);
      if (ctx.featureLevel >= EDIT_LEVELS.EDIT_TYPING_PATH) expectEqual(userIds, ascending([memberId, otherId]), 'recipient.user_ids');
      else check(userIds.includes(otherId) && userIds.every((uid) => uid === memberId || uid === otherId), `recipient.user_ids should name the recipient and no one outside the conversation: ${JSON.stringify(userIds)}`);
      expectEqual((await typingEventsAbout(ctx, 'guest', outsiderQueue, id)).length, 0, `typing_edit_message events (${op}) for a user outside the conversation`);
    }
  },
};

const onlySender: Rule = {
  id: 'message-edit-typing/only-sender-may-signal',
  title: "an edit typing notification for someone else's message (any role), a message the caller cannot read, a message that does not exist, or an op other than start and stop answers 400 BAD_REQUEST",
  endpoint: 'POST /messages/{message_id}/typing',
  section: 'api/set-typing-status-for-message-edit',
  levels: { min: EDIT_LEVELS.EDIT_TYPING },
  writes: true,
  needs: ['owner', 'admin', 'moderator', 'member', 'second-member', 'guest'],
  async run(ctx) {
    const { open, secret } = await editChannels(ctx);
    const id = await send(ctx.as('member'), open, ctx.name('topic'), ctx.name('content'));
    const hidden = await send(ctx.as('admin'), secret, ctx.name('topic'), ctx.name('content'));
    for (const who of ['owner', 'admin', 'moderator', 'second-member', 'guest'] as const) expectError(await editTyping(ctx, ctx.as(who), id, 'start'), BAD_REQUEST);
    expectError(await editTyping(ctx, ctx.as('second-member'), hidden, 'start'), BAD_REQUEST);
    const floor = Math.max(FAR_ID_FLOOR, (await maxMessageId(ctx.as('member'))) + 1);
    await ctx.property('unknown IDs x bad ops', [fc.integer({ min: floor, max: 2 ** 31 - 1 }), fc.constantFrom('typing', 'START', '', 'end')], async (unknown, op) => {
      expectError(await editTyping(ctx, ctx.as('member'), unknown, 'start'), BAD_REQUEST);
      expectError(await editTyping(ctx, ctx.as('member'), id, op), BAD_REQUEST);
    }, { maxRuns: 4 });
    ctx.note(`checked through ${endpointOf(ctx)}`);
  },
};

const noCredentialsLegacy = credentialsRequired({
  id: 'message-edit-typing/legacy-no-credentials-unauthorized',
  endpoint: 'POST /message_edit_typing',
  section: 'api/set-typing-status-for-message-edit (levels 351-360)',
  levels: LEGACY,
  requests: [['POST', '/message_edit_typing', { op: 'start', message_id: 1 }]],
});

const noCredentials = credentialsRequired({
  id: 'message-edit-typing/no-credentials-unauthorized',
  endpoint: 'POST /messages/{message_id}/typing',
  section: 'api/set-typing-status-for-message-edit (level 361)',
  levels: { min: EDIT_LEVELS.EDIT_TYPING_PATH },
  requests: [['POST', '/messages/1/typing', { op: 'start' }]],
});

export const rules: readonly Rule[] = [channelDelivery, directDelivery, onlySender, noCredentialsLegacy, noCredentials];
