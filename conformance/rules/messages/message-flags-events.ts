/**
 * What changing flags tells the clients (the real get-events page, `update_message_flags`): one
 * event per request to the caller alone, `op` from level 32, the messages whose flag changed from
 * level 155 (the requested ones before), `message_details` for messages marked unread from
 * level 121; and where flags may be changed at all: a public channel's message the caller never
 * received gets a historical row, marking unread skips channels the caller is not subscribed to
 * (listed from level 355), and a message the caller cannot read is refused with nothing changed.
 */
import type { JsonObject } from '../../client/api-client.js';
import { check, expectEqual, expectShape, expectSuccess } from '../../expect/assert.js';
import { v } from '../../expect/shape.js';
import { drainQueues, eventsBeforeSentinel } from '../support/event-waits.js';
import { createChannel, sendToChannel } from '../support/message-fixtures.js';
import type { Rule } from '../types.js';
import { conversationRule, eventsSoFar, expectRefused, foreignMessages, LEVEL, ofType, postFlags, ruleQueue, sendDirect, viewMessage } from './message-flags-support.js';

const ENDPOINT = 'POST /messages/flags';

/** The `update_message_flags` event of this level; `message_details` only when it marks messages unread. */
function flagEventShape(level: number, details: boolean) {
  return v.object(
    {
      id: v.int(),
      type: v.literal('update_message_flags'),
      ...(level >= LEVEL.FLAG_EVENT_OP ? { op: v.literal('add', 'remove') } : {}),
      operation: v.literal('add', 'remove'),
      flag: v.string(),
      messages: v.array(v.int()),
      all: v.literal(false),
      ...(details ? { message_details: v.record(v.object({ type: v.literal('stream', 'private') })) } : {}),
    },
    { exact: true },
  );
}

/** One request of the sequence, and what its event must say at this level. */
interface Step {
  readonly op: 'add' | 'remove';
  readonly flag: string;
  readonly requested: number[];
  readonly changed: number[];
}

const events = conversationRule({
  id: 'message-flags/one-event-per-request-to-the-caller',
  title: "each flag change sends one update_message_flags event to the caller only: op (level 32) and operation, flag, all false, the messages whose flag changed (level 155; the requested ones before, even when none changed) and, when marking unread, message_details per message (level 121)",
  section: 'api/get-events#update_message_flags-add; api/get-events#update_message_flags-remove; changelog 32, 121, 155',
  endpoint: ENDPOINT,
}, async (ctx, { sender, reader, channel, thread }) => {
  const { topic, ids: [a, b] } = await thread('flag-events', 2);
  const me = ctx.identity('second-member');
  const mention = await sendToChannel(sender, channel.id, topic, `@**${me.fullName}|${me.userId}** look`);
  const direct = await sendDirect(sender, [me.userId], 'a direct message');
  const readerQueue = await ruleQueue(ctx, reader, ['update_message_flags', 'drafts']);
  const senderQueue = await ruleQueue(ctx, sender, ['update_message_flags', 'drafts']);
  await drainQueues(reader, [readerQueue]);
  await drainQueues(sender, [senderQueue]);
  const steps: Step[] = [
    { op: 'add', flag: 'starred', requested: [a!], changed: [a!] },
    { op: 'add', flag: 'starred', requested: [a!, b!], changed: [b!] },
    { op: 'add', flag: 'starred', requested: [a!], changed: [] },
    { op: 'add', flag: 'read', requested: [a!, mention, direct], changed: [a!, mention, direct] },
    { op: 'remove', flag: 'read', requested: [a!, b!, mention, direct], changed: [a!, mention, direct] },
  ];
  for (const step of steps) expectSuccess(await postFlags(reader, step.op, step.flag, step.requested));
  const last = steps.at(-1)!;
  const received = ofType(await eventsSoFar(reader, readerQueue, (got) => got.some((event) => event.type === 'update_message_flags' && event.operation === last.op && event.flag === last.flag)), 'update_message_flags');
  expectEqual(received.length, steps.length, "update_message_flags events in the caller's queue (one per request)");
  const streamDetails = (mentioned: boolean) => ({ type: 'stream', stream_id: channel.id, topic, unmuted_stream_msg: true, ...(mentioned ? { mentioned: true } : {}) });
  const details = new Map<number, JsonObject>([[a!, streamDetails(false)], [mention, streamDetails(true)], [direct, { type: 'private', user_ids: [ctx.identity('member').userId] }]]);
  steps.forEach((step, i) => {
    const withDetails = step.flag === 'read' && step.op === 'remove' && ctx.featureLevel >= LEVEL.FLAG_EVENT_DETAILS;
    const event = expectShape(received[i], flagEventShape(ctx.featureLevel, withDetails), `event ${i + 1}`);
    const listed = ctx.featureLevel >= LEVEL.FLAGS_NARROW ? step.changed : step.requested;
    expectEqual([event.operation, event.op ?? event.operation, event.flag, event.messages], [step.op, step.op, step.flag, listed], `event ${i + 1} (${step.op} ${step.flag})`);
    if (!withDetails) return;
    const expected = Object.fromEntries(step.changed.map((id) => [String(id), details.get(id)]));
    // Before level 155 the details could also cover requested messages that did not change.
    const shown = ctx.featureLevel >= LEVEL.FLAGS_NARROW ? event.message_details : Object.fromEntries(Object.entries(event.message_details ?? {}).filter(([id]) => id in expected));
    expectEqual(shown, expected, `event ${i + 1} message_details`);
  });
  // The sender stars its own message as the sentinel: nothing of the reader's changes reached it.
  const seen = await eventsBeforeSentinel(
    senderQueue,
    async () => void expectSuccess(await postFlags(sender, 'add', 'starred', [a!])),
    (event) => event.type === 'update_message_flags' && event.flag === 'starred' && Array.isArray(event.messages) && event.messages.includes(a!),
    "the sender starring its own message",
  );
  expectEqual(ofType(seen, 'update_message_flags'), [], "flag events of the reader's changes in the sender's queue");
  expectSuccess(await postFlags(sender, 'remove', 'starred', [a!]));
});

const historical = conversationRule({
  id: 'message-flags/historical-row-unsubscribed-skipped-unreadable-refused',
  title: "starring a public channel's message the caller never received creates a historical row (flags read, historical, starred); marking it unread is skipped and the channel listed (level 355); a request naming a message the caller cannot read is refused with 400 BAD_REQUEST and changes none of its messages",
  section: 'api/update-message-flags; changelog 355',
  endpoint: ENDPOINT,
  levels: { min: LEVEL.MESSAGE_OBJECT },
}, async (ctx, { sender, reader, thread }) => {
  const open = await createChannel(ctx, 'admin', 'flags-open', { members: ['member'] });
  const outside = await sendToChannel(sender, open.id, ctx.name('outside'), 'in a public channel the reader is not in');
  const flagsOf = async (id: number) => [...(await viewMessage(reader, id)).flags].sort();
  expectSuccess(await postFlags(reader, 'add', 'starred', [outside]));
  expectEqual(await flagsOf(outside), ['historical', 'read', 'starred'], 'flags of a starred message never received');
  const unread = await postFlags(reader, 'remove', 'read', [outside]);
  const body = expectSuccess(unread);
  if (ctx.featureLevel >= LEVEL.IGNORED_CHANNELS) expectEqual(body.ignored_because_not_subscribed_channels, [open.id], 'ignored_because_not_subscribed_channels', unread);
  else check(body.ignored_because_not_subscribed_channels === undefined, 'ignored_because_not_subscribed_channels before level 355', unread);
  expectSuccess(await postFlags(reader, 'remove', 'starred', [outside]));
  expectEqual(await flagsOf(outside), ['historical', 'read'], 'flags after marking unread (skipped) and unstarring');
  const { ids: [mine] } = await thread('flags-mixed', 1);
  for (const [what, id] of await foreignMessages(ctx)) {
    expectRefused(await postFlags(reader, 'add', 'starred', [mine!, id]), { status: 400, code: 'BAD_REQUEST' }, `starring ${what} with a readable message`);
  }
  check(!(await viewMessage(reader, mine!)).flags.includes('starred'), 'a refused request starred the readable message it also named');
});

export const rules: readonly Rule[] = [events, historical];
