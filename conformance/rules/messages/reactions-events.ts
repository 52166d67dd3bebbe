/**
 * Who may react and who hears of it: reacting to (or removing a reaction from) a message one
 * cannot read is refused like a message that does not exist; each change sends one `reaction`
 * event, with the real get-events fields of its level, to everyone who can read the message (the
 * reactor, another subscriber, the other participant of a direct message) and none to a user
 * who cannot read it.
 */
import fc from 'fast-check';
import type { ApiClient, JsonObject } from '../../client/api-client.js';
import { check, expectEqual, expectShape } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import type { EventQueue } from '../support/channel-fixtures.js';
import { drainQueues, eventsBeforeSentinel } from '../support/event-waits.js';
import { createChannel, sendToChannel } from '../support/message-fixtures.js';
import { expectPlainSuccess } from '../support/plain-success.js';
import type { Rule, RuleContext } from '../types.js';
import { conversationRule, eventsSoFar, expectRefused, foreignMessages, LEVEL, ofType, ruleQueue, sendDirect } from './message-flags-support.js';
import { addReaction, type Emoji, emojiCatalog, emojiParams, reactionKeys, reactionsOf, removeReaction, UNICODE, ZULIP } from './reactions-support.js';

const unreadable = conversationRule({
  id: 'reactions/unreadable-message-refused',
  title: 'adding or removing a reaction on a message the caller cannot read (a private channel it is not in, a direct message of others) answers 400 BAD_REQUEST like an unknown message ID, and adds nothing',
  section: 'api/add-reaction; api/remove-reaction',
  endpoint: 'POST /messages/{message_id}/reactions',
  levels: { min: LEVEL.MESSAGE_OBJECT },
}, async (ctx, { sender, reader }) => {
  const targets = await foreignMessages(ctx);
  for (const [what, id] of targets) {
    expectRefused(await addReaction(reader, id, emojiParams(UNICODE.octopus, 'name')), { status: 400, code: 'BAD_REQUEST' }, `reacting to ${what}`);
    expectRefused(await removeReaction(reader, id, emojiParams(UNICODE.octopus, 'name')), { status: 400, code: 'BAD_REQUEST' }, `removing a reaction from ${what}`);
  }
  // The sender can read its own messages: nothing was added to them.
  for (const [what, id] of targets.slice(0, 2)) expectEqual(reactionKeys(await reactionsOf(ctx, sender, id)), [], `reactions of ${what}`);
});

/** The `reaction` event of the real get-events page: `user` (legacy) before 328 and again from 339. */
function eventShape(level: number) {
  const withUser = level < LEVEL.REACTION_USER_REMOVED || level >= LEVEL.REACTION_EVENT_USER_BACK;
  return v.object(
    {
      id: v.int(),
      type: v.literal('reaction'),
      op: v.literal('add', 'remove'),
      user_id: v.int({ min: 1 }),
      message_id: v.int({ min: 1 }),
      emoji_name: v.string(),
      emoji_code: v.string(),
      reaction_type: v.string(),
      ...(withUser ? { user: v.object({ user_id: v.int(), email: v.string(), full_name: v.string() }, { exact: true }) } : {}),
    },
    { exact: true },
  );
}

/** Whether `event` is the reaction event of this change. */
const isChange = (op: string, messageId: number, emoji: Emoji) => (event: JsonObject): boolean =>
  event.type === 'reaction' && event.op === op && event.message_id === messageId && event.emoji_code === emoji.code && event.reaction_type === emoji.type;

/** The one event of the change among `events`, checked field by field. */
function theEvent(ctx: RuleContext, events: readonly JsonObject[], op: string, messageId: number, emoji: Emoji, who: string): void {
  const matching = events.filter(isChange(op, messageId, emoji));
  expectEqual(matching.length, 1, `${op} events for message ${messageId} with ${emoji.name} in ${who}'s queue`);
  const event = expectShape(matching[0], eventShape(ctx.featureLevel), `${who}'s reaction event`);
  const reactor = ctx.identity('member').userId;
  expectEqual([event.user_id, event.emoji_name], [reactor, emoji.name], `${who}'s event: user_id and emoji_name`);
  if (event.user !== undefined) expectEqual(event.user.user_id, reactor, `${who}'s event: user.user_id`);
}

const delivered = conversationRule({
  id: 'reactions/events-reach-every-reader-once',
  title: "each reaction added or removed sends exactly one reaction event (op, user_id, message_id, emoji_name, emoji_code, reaction_type; the legacy user object before level 328 and from 339) to the reactor and to the other reader, in a channel and in a direct message",
  section: 'api/get-events#reaction-add; api/get-events#reaction-remove; changelog 328, 339',
  endpoint: 'POST /messages/{message_id}/reactions',
  levels: { min: LEVEL.REACTION_USER_ID },
}, async (ctx, { sender, reader, thread }) => {
  const { custom } = await emojiCatalog(ctx, reader);
  const { ids: [inChannel] } = await thread('reaction-events', 1);
  const direct = await sendDirect(sender, [ctx.identity('second-member').userId], 'a direct message to react to');
  const queues: ReadonlyArray<readonly [string, EventQueue, ApiClient]> = [
    ['the reactor', await ruleQueue(ctx, sender, ['reaction', 'drafts']), sender],
    ['the other reader', await ruleQueue(ctx, reader, ['reaction', 'drafts']), reader],
  ];
  await drainQueues(sender, [queues[0]![1]]);
  await drainQueues(reader, [queues[1]![1]]);
  const emoji = fc.constantFrom<Emoji>(UNICODE.octopus, UNICODE.heart, ZULIP, ...(custom ? [custom] : []));
  await ctx.property('emoji x message', [emoji, fc.constantFrom(['a channel message', inChannel!] as const, ['a direct message', direct] as const)], async (chosen, [, id]) => {
    expectPlainSuccess(await addReaction(sender, id, emojiParams(chosen, 'name')));
    expectPlainSuccess(await removeReaction(sender, id, emojiParams(chosen, 'code+type')));
    for (const [who, queue, owner] of queues) {
      const events = await eventsSoFar(owner, queue, (received) => received.some(isChange('remove', id, chosen)));
      theEvent(ctx, events, 'add', id, chosen, who);
      theEvent(ctx, events, 'remove', id, chosen, who);
    }
  }, { maxRuns: 4 });
});

/** The member adds and removes `emoji` on `id` as the sentinel: every reader of the run channel hears of it. */
async function reactionSentinel(member: ApiClient, id: number): Promise<void> {
  expectPlainSuccess(await addReaction(member, id, emojiParams(UNICODE.tada, 'name')));
  expectPlainSuccess(await removeReaction(member, id, emojiParams(UNICODE.tada, 'name')));
}

const notDelivered = conversationRule({
  id: 'reactions/no-event-for-unreadable-message',
  title: 'a reaction on a message in a private channel reaches its subscribers but sends no reaction event to a user who is not subscribed',
  section: 'api/get-events#reaction-add',
  endpoint: 'POST /messages/{message_id}/reactions',
  levels: { min: LEVEL.REACTION_USER_ID },
}, async (ctx, { sender, reader, thread }) => {
  const secret = await createChannel(ctx, 'admin', 'reaction-secret', { inviteOnly: true, members: ['member'] });
  const hidden = await sendToChannel(sender, secret.id, ctx.name('hidden'), 'only for the subscribers');
  const { ids: [visible] } = await thread('reaction-sentinel', 1);
  const outsider = await ruleQueue(ctx, reader, ['reaction', 'drafts']);
  const insider = await ruleQueue(ctx, ctx.as('admin'), ['reaction', 'drafts']);
  await drainQueues(reader, [outsider]);
  expectPlainSuccess(await addReaction(sender, hidden, emojiParams(UNICODE.octopus, 'name')));
  const insiderEvents = await eventsSoFar(ctx.as('admin'), insider, (events) => events.some(isChange('add', hidden, UNICODE.octopus)));
  check(insiderEvents.some(isChange('add', hidden, UNICODE.octopus)), 'the administrator (subscribed to the private channel) received no reaction event');
  const seen = await eventsBeforeSentinel(outsider, () => reactionSentinel(sender, visible!), isChange('remove', visible!, UNICODE.tada), 'a reaction on a message the second member can read');
  const leaked = ofType(seen, 'reaction').filter((event) => event.message_id === hidden);
  expectEqual(leaked, [], 'reaction events about the private channel message in the non-subscriber\'s queue');
});

export const rules: readonly Rule[] = [unreadable, delivered, notDelivered];
