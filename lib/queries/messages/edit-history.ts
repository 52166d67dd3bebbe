/**
 * Edit history as clients see it: the snapshots of `GET /messages/{id}/history` (spec 2.5;
 * reference §1.3-1.7) and the raw `edit_history` list of message objects, both filtered by the
 * realm's `message_edit_history_visibility_policy` (FL 358).
 */
import { seconds } from '../../state/clock.js';
import type { EditHistoryVisibilityPolicy } from '../../entities/realm.js';
import type { EditEvent, Message } from '../../entities/message.js';
import { FEATURES } from '../../features/feature-levels.js';
import { htmlDiff } from '../../rendering/html-diff.js';
import { displayTopic } from '../../input/topic-names.js';
import type { World } from '../../state/world.js';

/**
 * The policy in force. Before FL 358 the realm had only the boolean `allow_edit_history`, so
 * `moves` did not exist and reads as `all`.
 */
export function editHistoryPolicy(world: World): EditHistoryVisibilityPolicy {
  const policy = world.realm.editHistoryVisibilityPolicy;
  return !world.has(FEATURES.EDIT_HISTORY_VISIBILITY_POLICY) && policy === 'moves' ? 'all' : policy;
}

export type Snapshot = Record<string, string | number | null>;

const currentTopic = (message: Message): string => (message.recipient.kind === 'stream' ? message.recipient.topic : '');

/** Under `moves`: content-only edits vanish; edits that also moved keep no content diff. */
function applyMovesPolicy(entries: Snapshot[]): Snapshot[] {
  const kept: Snapshot[] = [];
  for (const entry of entries) {
    if (!('prev_content' in entry)) {
      kept.push(entry);
    } else if ('prev_topic' in entry) {
      const { prev_content: _c, prev_rendered_content: _r, content_html_diff: _d, ...rest } = entry;
      kept.push(rest);
    }
  }
  return kept;
}

/**
 * Snapshots oldest first: the original message (topic, content, rendered_content, timestamp,
 * sender as user_id), then one per stored edit with `prev_*` only for what that edit changed.
 * Content and topic are the values right after each edit, so they stay visible under `moves`.
 */
export function historySnapshots(world: World, message: Message, allowEmptyTopicName: boolean): Snapshot[] {
  const isStream = message.recipient.kind === 'stream';
  const show = (topic: string): string => (isStream ? displayTopic(topic, allowEmptyTopicName) : '');
  let content = message.content;
  let rendered = message.renderedContent;
  let topic = show(currentTopic(message));
  const newestFirst: Snapshot[] = [];
  for (const event of message.editHistory) {
    const snapshot: Snapshot = { content, rendered_content: rendered, topic };
    if (event.prevTopic !== undefined) {
      snapshot.prev_topic = show(event.prevTopic);
      topic = snapshot.prev_topic;
    }
    if (event.prevContent !== undefined) {
      const prevRendered = event.prevRenderedContent ?? '';
      snapshot.prev_content = event.prevContent;
      snapshot.prev_rendered_content = prevRendered;
      snapshot.content_html_diff = htmlDiff(prevRendered, rendered);
      content = event.prevContent;
      rendered = prevRendered;
    }
    if (event.prevStream !== undefined) {
      if (world.has(FEATURES.HISTORY_STREAM_FIELD) && event.stream !== undefined) snapshot.stream = event.stream;
      snapshot.prev_stream = event.prevStream;
    }
    snapshot.timestamp = seconds(event.timestamp);
    snapshot.user_id = event.userId;
    newestFirst.push(snapshot);
  }
  newestFirst.push({ content, rendered_content: rendered, topic, timestamp: seconds(message.sentAt), user_id: message.senderId });
  const visible = editHistoryPolicy(world) === 'moves' ? applyMovesPolicy(newestFirst) : newestFirst;
  return visible.reverse();
}

function rawEvent(world: World, event: EditEvent, show: (topic: string) => string): Snapshot {
  const out: Snapshot = { user_id: event.userId, timestamp: seconds(event.timestamp) };
  if (event.prevContent !== undefined) {
    out.prev_content = event.prevContent;
    out.prev_rendered_content = event.prevRenderedContent ?? '';
  }
  if (event.prevTopic !== undefined) {
    out.prev_topic = show(event.prevTopic);
    if (event.topic !== undefined) out.topic = show(event.topic);
  }
  if (event.prevStream !== undefined) {
    out.prev_stream = event.prevStream;
    if (world.has(FEATURES.HISTORY_STREAM_FIELD) && event.stream !== undefined) out.stream = event.stream;
  }
  return out;
}

/**
 * The `edit_history` of a message object (newest first), or undefined when the realm hides
 * edit history (`none`) or the message was never edited.
 */
export function messageEditHistory(world: World, message: Message, allowEmptyTopicName: boolean): Snapshot[] | undefined {
  const policy = editHistoryPolicy(world);
  if (policy === 'none' || message.editHistory.length === 0) return undefined;
  const show = (topic: string): string => displayTopic(topic, allowEmptyTopicName);
  const events = message.editHistory.map((event) => rawEvent(world, event, show));
  return policy === 'moves' ? applyMovesPolicy(events) : events;
}
