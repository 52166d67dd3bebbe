/**
 * What the typing rules share (section 4.2): the feature levels of OpenAPI set-typing-status, the
 * parameters of a channel notification by level, topics that are kept as sent, a channel the
 * member and the second member are subscribed to, and the receiver's typing queue.
 */
import { printableText } from '../support/arbitraries.js';
import type { ApiClient } from '../../client/api-client.js';
import { type Channel, createChannels, type EventQueue, openQueue } from '../support/channel-fixtures.js';
import type { RuleContext } from '../types.js';

/** Feature levels of section 4.2 / OpenAPI set-typing-status. */
export const TYPING = { STREAM: 58, DIRECT: 174, STREAM_ID: 215, CHANNEL: 248, RECEIVES_SETTING: 253 } as const;

/** A topic that is kept as sent: non-empty, no surrounding whitespace, not one of the empty-topic aliases. */
export const topicText = printableText(30).filter((text) => text !== '' && text.trim() === text && text !== '(no topic)' && text.toLowerCase() !== 'general chat');

/** The `type` values that name a channel at this level. */
export const channelTypes = (level: number): string[] => (level >= TYPING.CHANNEL ? ['stream', 'channel'] : ['stream']);

/** The parameters of a channel typing notification at this level (stream_id from 215, `to` before). */
export function channelTyping(level: number, type: string, op: string, channel: Channel, topic: string): Record<string, unknown> {
  return level >= TYPING.STREAM_ID ? { type, op, stream_id: channel.streamId, topic } : { type, op, to: [channel.streamId], topic };
}

/** The direct type's name at this level (`private` before 174). */
export const directType = (level: number): string => (level >= TYPING.DIRECT ? 'direct' : 'private');

/** A public channel the member and the second member are subscribed to. */
export async function sharedChannel(ctx: RuleContext): Promise<Channel> {
  const [channel] = await createChannels(ctx, 'admin', ['typing'], { principals: [ctx.identity('member').userId, ctx.identity('second-member').userId] });
  return channel!;
}

/**
 * A typing queue of `client`'s user (declaring `stream_typing_notifications` when `capable`, and
 * any `extra` capabilities), deleted after the rule; it takes `drafts` events too, for `drainQueues`.
 */
export async function openTypingQueue(ctx: RuleContext, client: ApiClient, capable: boolean, extra: Readonly<Record<string, boolean>> = {}): Promise<EventQueue> {
  const queue = await openQueue(client, ['typing', 'drafts'], capable ? { stream_typing_notifications: true, ...extra } : extra);
  ctx.cleanup('delete typing queue', async () => queue.close());
  return queue;
}
