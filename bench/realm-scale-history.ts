/**
 * History for the large realm: many messages in Verona, stored directly (rendering 100,000
 * messages through the send path would measure the send path, not the reads that follow).
 */
import type { Message } from '../lib/entities/message.js';
import type { World } from '../lib/state/world.js';

const VERONA = 3;

/** Adds `count` channel messages from hamlet, received (read) by Verona's subscribers; returns the newest message ID iago has. */
export function addHistory(world: World, count: number): number {
  const subscribers = [...(world.subscriptions.get(VERONA)?.keys() ?? [])];
  const sender = world.usersByEmail.get('hamlet@zulip.com')?.id ?? 10;
  for (let i = 0; i < count; i++) {
    const id = world.ids.next('message');
    const message: Message = {
      id,
      senderId: sender,
      recipient: { kind: 'stream', streamId: VERONA, topic: `topic ${i % 100}` },
      content: `history ${i}`,
      renderedContent: `<p>history ${i}</p>`,
      sentAt: world.now() - (count - i) * 1000,
      editHistory: [],
      lastEditAt: null,
      lastMovedAt: null,
      flags: new Map(subscribers.map((userId) => [userId, new Set(['read'])])),
      client: 'bench',
      reactions: [],
    };
    world.messages.set(id, message);
  }
  const iago = world.usersByEmail.get('iago@zulip.com')?.id ?? 11;
  for (let id = world.messages.index.all.last; id !== undefined; id = world.messages.index.all.atMost(id - 1)) {
    const message = world.messages.get(id);
    if (message?.recipient.kind === 'stream' && message.recipient.streamId === VERONA && message.flags.has(iago)) return message.id;
  }
  throw new Error('no Verona message for iago');
}
