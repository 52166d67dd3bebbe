/**
 * The `message` event of `POST /messages` (api/get-events, api/send-message): exactly one per
 * message in the queue of every user who receives the message (the sender, the channel's
 * subscribers, the participants of a direct message), with that user's flags, and none in the
 * queues of anyone else; and the local echo, `local_id` passed back as `local_message_id` to the
 * queue named by `queue_id` alone.
 */
import type { JsonObject } from '../../client/api-client.js';
import type { IdentityName } from '../../credentials/types.js';
import { check, expectEqual } from '../../expect/assert.js';
import { createChannels, type EventQueue, openQueue } from '../support/channel-fixtures.js';
import { eventsBeforeSentinel, pollUntil } from '../support/event-waits.js';
import type { Rule, RuleContext } from '../types.js';
import { SEND, send } from './send-support.js';

const messageIdOf = (event: JsonObject): unknown => (event.message as { id?: unknown } | undefined)?.id;

const WATCHERS = ['admin', 'moderator', 'member', 'second-member', 'guest'] as const;

/** A `message` queue of `who`, deleted after the rule. */
async function messageQueue(ctx: RuleContext, who: IdentityName, capabilities: Readonly<Record<string, boolean>> = {}): Promise<EventQueue> {
  const queue = await openQueue(ctx.as(who), ['message'], capabilities);
  ctx.cleanup(`delete the ${who}'s message queue`, async () => queue.close());
  return queue;
}

/** The message events `who`'s queue got before its own note to itself (a direct message only it receives). */
async function eventsUntilOwnNote(ctx: RuleContext, who: IdentityName, queue: EventQueue): Promise<JsonObject[]> {
  let noteId = 0;
  const me = ctx.identity(who).userId;
  return eventsBeforeSentinel(
    queue,
    async () => void (noteId = await send(ctx, ctx.as(who), { type: 'private', to: [me], content: ctx.name('note-to-self') })),
    (event) => event.type === 'message' && messageIdOf(event) === noteId,
    `the ${who}'s note to itself`,
  );
}

const eventsReachRecipientsOnly: Rule = {
  id: 'messages/message-event-to-every-recipient-only',
  title:
    'a private-channel message, a direct message and a group direct message each put exactly one message event, with the user\'s flags (read for the sender who asked for it), in the queue of the sender and every recipient, and none in anyone else\'s',
  endpoint: 'POST /messages',
  section: 'api/get-events; api/send-message',
  writes: true,
  needs: [...WATCHERS],
  async run(ctx) {
    const id = (who: IdentityName) => ctx.identity(who).userId;
    const [channel] = await createChannels(ctx, 'admin', ['message-events'], { inviteOnly: true, principals: [id('admin'), id('member'), id('second-member')] });
    const queues = new Map<IdentityName, EventQueue>();
    for (const who of WATCHERS) queues.set(who, await messageQueue(ctx, who));
    const readBySender = ctx.featureLevel >= SEND.READ_BY_SENDER ? { read_by_sender: true } : {};
    const member = ctx.as('member');
    const sent: ReadonlyArray<{ id: number; what: string; holders: readonly IdentityName[] }> = [
      { id: await send(ctx, member, { type: 'stream', to: channel!.streamId, topic: ctx.name('topic'), content: ctx.name('channel'), ...readBySender }), what: 'the private-channel message', holders: ['admin', 'member', 'second-member'] },
      { id: await send(ctx, member, { type: 'private', to: [id('second-member')], content: ctx.name('direct'), ...readBySender }), what: 'the direct message', holders: ['member', 'second-member'] },
      { id: await send(ctx, member, { type: 'private', to: [id('second-member'), id('moderator')], content: ctx.name('group'), ...readBySender }), what: 'the group direct message', holders: ['member', 'second-member', 'moderator'] },
    ];
    for (const who of WATCHERS) {
      const events = await eventsUntilOwnNote(ctx, who, queues.get(who)!);
      for (const message of sent) {
        const got = events.filter((event) => event.type === 'message' && messageIdOf(event) === message.id);
        const holds = message.holders.includes(who);
        expectEqual(got.length, holds ? 1 : 0, `message events of ${message.what} in the ${who}'s queue`);
        if (!holds) continue;
        const flags = (got[0]!.flags ?? []) as string[];
        const ownRead = who === 'member' && ctx.featureLevel >= SEND.READ_BY_SENDER;
        check(flags.includes('read') === ownRead, `the ${who}'s event of ${message.what} must ${ownRead ? '' : 'not '}carry the read flag; got ${JSON.stringify(flags)}`);
        expectEqual((got[0]!.message as JsonObject).sender_id, id('member'), `sender_id in the ${who}'s event of ${message.what}`);
      }
    }
  },
};

const LOCAL_ID = '1024.01';

const localEcho: Rule = {
  id: 'messages/local-id-echoed-to-sending-queue',
  title: "a message sent with queue_id and local_id carries local_message_id = local_id in the event of that queue only: not in the sender's other queue, not in the recipient's",
  endpoint: 'POST /messages',
  section: 'api/send-message; api/get-events',
  writes: true,
  needs: ['member', 'second-member'],
  async run(ctx) {
    const sending = await messageQueue(ctx, 'member');
    const other = await messageQueue(ctx, 'member');
    const receiving = await messageQueue(ctx, 'second-member');
    const queueId = sending.state.queue_id as string;
    const id = await send(ctx, ctx.as('member'), { type: 'private', to: [ctx.identity('second-member').userId], content: ctx.name('echo'), queue_id: queueId, local_id: LOCAL_ID });
    const eventOf = async (queue: EventQueue, what: string): Promise<JsonObject> => {
      const found = (await pollUntil(queue, (events) => events.some((event) => messageIdOf(event) === id))).find((event) => messageIdOf(event) === id);
      check(found !== undefined, `the message event did not reach ${what}`);
      return found;
    };
    expectEqual((await eventOf(sending, 'the sending queue')).local_message_id, LOCAL_ID, 'local_message_id in the event of the queue that sent the message');
    check(!('local_message_id' in (await eventOf(other, "the sender's other queue"))), "the sender's other queue must get the event without local_message_id");
    check(!('local_message_id' in (await eventOf(receiving, "the recipient's queue"))), "the recipient's queue must get the event without local_message_id");
  },
};

export const rules: readonly Rule[] = [eventsReachRecipientsOnly, localEcho];
