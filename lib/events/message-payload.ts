/**
 * Per-queue form of a `message` event, as the real server's `MessageDict.finalize_payload`
 * builds it for each client:
 *
 * - `apply_markdown`: `content` becomes the emitted `rendered_content` and `content_type`
 *   `text/html`; otherwise the raw Markdown stays with `text/x-markdown`. `rendered_content`
 *   itself is never sent. (Emitters put the Markdown in `content` and the HTML in
 *   `rendered_content`; without `rendered_content` the content is left alone.)
 * - `client_gravatar`: `avatar_url` is recomputed for the sender (null for gravatar users
 *   whose email is public, when the client computes gravatars itself).
 * - no `empty_topic_name`: a `""` subject becomes `realm_empty_topic_display_name`.
 *
 * Flags are the event's `flags` (emitters send one event per distinct flag set).
 */
import { avatarUrl } from '../queries/users/users.js';
import type { World } from '../state/world.js';
import { displayTopic } from '../input/topic-names.js';
import type { ChatEvent } from '../state/event-hub.js';
import type { QueueOptions } from './queue-options.js';

export type MessagePayload = Readonly<Record<string, unknown>>;

export function messageForQueue(world: World, message: MessagePayload, options: QueueOptions): Record<string, unknown> {
  const out: Record<string, unknown> = { ...message };
  if ('rendered_content' in out) {
    if (options.applyMarkdown) {
      out.content = out.rendered_content;
      out.content_type = 'text/html';
    } else {
      out.content_type = 'text/x-markdown';
    }
    delete out.rendered_content;
  }
  if ('avatar_url' in out && typeof out.sender_id === 'number') {
    const sender = world.users.get(out.sender_id);
    if (sender) out.avatar_url = avatarUrl(world, sender, options.clientGravatar);
  }
  if (out.type === 'stream' && typeof out.subject === 'string') {
    out.subject = displayTopic(out.subject, options.capabilities.emptyTopicName);
  }
  return out;
}

/** The message event one queue receives (before the narrow is checked). */
export function messageEventForQueue(world: World, event: ChatEvent, options: QueueOptions): ChatEvent {
  // The local echo is for the sender's queue only (`localEchoFor`), never passed on as it came.
  const { sender_queue_id: _queue, local_id: _local, ...rest } = event;
  const message = rest.message;
  if (typeof message !== 'object' || message === null) return rest as ChatEvent;
  return { ...rest, type: 'message', message: messageForQueue(world, message as MessagePayload, options), flags: flagsOf(event) };
}

/**
 * `local_message_id` for the queue that sent the message (its `queue_id`), as the real server's
 * Tornado adds it to that client's event only.
 */
export function localEchoFor(queueId: string, original: ChatEvent, event: ChatEvent): ChatEvent {
  if (event.type !== 'message' || original.sender_queue_id !== queueId || typeof original.local_id !== 'string') return event;
  return { ...event, local_message_id: original.local_id };
}

export function flagsOf(event: ChatEvent): string[] {
  return Array.isArray(event.flags) ? event.flags.filter((f): f is string => typeof f === 'string') : [];
}
