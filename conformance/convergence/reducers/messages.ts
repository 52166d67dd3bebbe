/**
 * Message events (zerver/lib/events.py `apply_event`): `message`, `update_message`,
 * `delete_message`, `update_message_flags`; reactions, submessages and typing change nothing a
 * register answer holds. Where apply_event reads the server's database (the newest message left
 * after a deletion), the client keeps what it can know and the comparison says what it cannot.
 */
import { conversationKey, type Replay } from '../replay-state.js';
import { ascending, idsIn, listIn, type QueueEvent, type State } from '../types.js';
import { directEntry } from './unread-model.js';
import { UnmodelledEvent } from './unmodelled.js';

/** Level 155: update_message_flags events list only the messages whose flag changed. */
const FLAG_EVENT_ONLY_CHANGED = 155;

const MENTION_FLAGS = ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'wildcard_mentioned'];

function message(replay: Replay, event: QueueEvent): void {
  const { state, view, unread } = replay;
  const msg = event.message as State;
  const id = msg.id as number;
  const flags = (event.flags ?? []) as string[];
  if (typeof state.max_message_id === 'number') state.max_message_id = Math.max(state.max_message_id, id);
  const recipients = Array.isArray(msg.display_recipient) ? (msg.display_recipient as State[]).map((r) => r.id as number) : [];
  if (msg.type === 'stream') replay.messages.set(id, { streamId: msg.stream_id as number, topic: String(msg.subject) });
  else replay.messages.set(id, {});
  if (unread && !flags.includes('read')) {
    const counts = msg.type === 'stream' ? replay.countsAsUnread(msg.stream_id as number, String(msg.subject)) : true;
    unread.add(id, msg.type === 'stream' ? { kind: 'stream', streamId: msg.stream_id as number, topic: String(msg.subject) } : directEntry(recipients, view.userId), counts);
    const wildcard = flags.includes('stream_wildcard_mentioned') || flags.includes('topic_wildcard_mentioned') || flags.includes('wildcard_mentioned');
    if (flags.includes('mentioned') || (wildcard && unread.unmuted.has(id))) unread.mentions.add(id);
  }
  if (msg.type !== 'stream') {
    if (replay.conversations) {
      const others = ascending(recipients.filter((userId) => userId !== view.userId));
      const key = conversationKey(others);
      const known = replay.conversations.get(key);
      if (known) known.maxMessageId = Math.max(known.maxMessageId, id);
      else replay.conversations.set(key, { userIds: others, maxMessageId: id });
    }
    return;
  }
  for (const key of ['subscriptions', 'streams']) {
    for (const channel of listIn(state, key) ?? []) if (channel.stream_id === msg.stream_id && channel.first_message_id === null) channel.first_message_id = id;
  }
}

function updateMessage(replay: Replay, event: QueueEvent): void {
  const ids = Array.isArray(event.message_ids) ? idsIn(event.message_ids) : idsIn([event.message_id]);
  const moved = 'new_stream_id' in event || 'subject' in event;
  if (moved) {
    for (const id of ids) {
      const known = replay.messages.get(id);
      const entry = replay.unread?.entries.get(id);
      const streamId = entry?.kind === 'stream' ? entry.streamId : known?.streamId;
      const topic = entry?.kind === 'stream' ? entry.topic : known?.topic;
      // Documented: every message of message_ids was in channel stream_id, topic orig_subject.
      if (streamId !== undefined && streamId !== event.stream_id) {
        replay.inconsistent({ path: `messages[${id}].stream_id`, expected: streamId, received: event.stream_id, why: 'the event moves a message from a channel the client has it elsewhere (stream_id)' });
      }
      if (topic !== undefined && typeof event.orig_subject === 'string' && topic.toLowerCase() !== event.orig_subject.toLowerCase()) {
        replay.inconsistent({ path: `messages[${id}].topic`, expected: topic, received: event.orig_subject, why: 'the event moves a message from a topic the client has it elsewhere (orig_subject)' });
      }
      const newStream = (event.new_stream_id as number | undefined) ?? streamId;
      const newTopic = (event.subject as string | undefined) ?? topic;
      if (known) replay.messages.set(id, { ...(newStream === undefined ? {} : { streamId: newStream }), ...(newTopic === undefined ? {} : { topic: newTopic }) });
      if (entry?.kind === 'stream') replay.unread?.entries.set(id, { kind: 'stream', streamId: newStream as number, topic: newTopic as string });
    }
  }
  // The edited message's flags after the edit: a mention added or removed by the edit changes
  // the unread mentions, as a client compares them (apply_event leaves them alone).
  const unread = replay.unread;
  const id = event.message_id as number;
  if (unread && Array.isArray(event.flags) && unread.entries.has(id) && event.rendering_only !== true) {
    const flags = event.flags as string[];
    const entry = unread.entries.get(id);
    const wildcard = flags.some((flag) => flag !== 'mentioned' && MENTION_FLAGS.includes(flag));
    const direct = flags.includes('mentioned');
    if (direct || (wildcard && (entry?.kind !== 'stream' || unread.unmuted.has(id)))) unread.mentions.add(id);
    else unread.mentions.delete(id);
  }
}

function deleteMessage(replay: Replay, event: QueueEvent): void {
  const ids = Array.isArray(event.message_ids) ? idsIn(event.message_ids) : idsIn([event.message_id]);
  for (const id of ids) {
    replay.deleted.add(id);
    replay.messages.delete(id);
    replay.unread?.remove(id);
  }
  // Deleted messages are no longer starred: a fresh register lists only existing ones.
  const starred = replay.state.starred_messages;
  if (Array.isArray(starred)) replay.state.starred_messages = starred.filter((id) => !ids.includes(id as number));
  if (event.message_type !== 'stream' && replay.conversations) {
    for (const [key, conversation] of replay.conversations) {
      if (!ids.includes(conversation.maxMessageId)) continue;
      replay.unknowable.add(key);
    }
  }
}

function updateFlags(replay: Replay, event: QueueEvent): void {
  const op = event.op ?? event.operation;
  if (op !== 'add' && op !== 'remove') throw new UnmodelledEvent(`update_message_flags with op ${String(op)}`);
  const ids = idsIn(event.messages);
  const unread = replay.unread;
  if (event.flag === 'read' && unread) {
    if (op === 'add') {
      if (event.all === true) for (const id of [...unread.entries.keys()]) unread.remove(id);
      for (const id of ids) unread.remove(id);
    } else {
      const details = (event.message_details ?? {}) as Record<string, State>;
      for (const id of ids) {
        const detail = Object.prototype.hasOwnProperty.call(details, String(id)) ? details[String(id)] : undefined;
        if (!detail) continue;
        if (detail.type === 'stream') {
          const streamId = detail.stream_id as number;
          const topic = String(detail.topic);
          unread.add(id, { kind: 'stream', streamId, topic }, replay.countsAsUnread(streamId, topic));
        } else {
          unread.add(id, directEntry(idsIn(detail.user_ids), replay.view.userId), true);
        }
        if (detail.mentioned === true) unread.mentions.add(id);
      }
    }
  }
  if (event.flag === 'starred' && Array.isArray(replay.state.starred_messages)) {
    const starred = replay.state.starred_messages as number[];
    // From level 155 an event lists only messages whose flag changed, so a message starred twice
    // is a duplicate event; before, every requested message was listed.
    const added = replay.view.featureLevel >= FLAG_EVENT_ONLY_CHANGED ? ids : ids.filter((id) => !starred.includes(id));
    replay.state.starred_messages = op === 'add' ? [...starred, ...added] : starred.filter((id) => !ids.includes(id));
  }
}

/** Events that change nothing register holds; their op is still checked. */
function stateless(ops: readonly string[]) {
  return (_replay: Replay, event: QueueEvent): void => {
    if (event.op !== undefined && !ops.includes(String(event.op))) throw new UnmodelledEvent(`${event.type} op ${String(event.op)}`);
  };
}

export const MESSAGE_REDUCERS: ReadonlyArray<readonly [string, (replay: Replay, event: QueueEvent) => void]> = [
  ['message', message],
  ['update_message', updateMessage],
  ['delete_message', deleteMessage],
  ['update_message_flags', updateFlags],
  ['reaction', stateless(['add', 'remove'])],
  ['submessage', stateless([])],
  ['typing', stateless(['start', 'stop'])],
  ['typing_edit_message', stateless(['start', 'stop'])],
];
