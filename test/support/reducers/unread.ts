/**
 * `unread_msgs`, as a client keeps it: the aggregated lists are unfolded into one entry per
 * unread message, changed by message, flag, deletion, move and subscription events, and folded
 * back the way the server aggregates them (`count` from the mute state the client holds).
 * These steps run after the reducers of the other modules for the same event types.
 */
import { type ApiEvent, type Reducer, reducerFor, defineReducer, type ReducerContext, type State, listOf } from './registry.js';

type Entry = { kind: 'stream'; stream_id: number; topic: string } | { kind: 'pm'; other: number } | { kind: 'huddle'; users: string };

interface Unread {
  readonly entries: Map<number, Entry>;
  readonly mentions: Set<number>;
  readonly head: State;
}

function unfold(unread: State): Unread {
  const entries = new Map<number, Entry>();
  for (const pm of (unread.pms ?? []) as State[]) {
    for (const id of pm.unread_message_ids as number[]) entries.set(id, { kind: 'pm', other: (pm.other_user_id ?? pm.sender_id) as number });
  }
  for (const s of (unread.streams ?? []) as State[]) {
    for (const id of s.unread_message_ids as number[]) entries.set(id, { kind: 'stream', stream_id: s.stream_id as number, topic: s.topic as string });
  }
  for (const h of (unread.huddles ?? []) as State[]) for (const id of h.unread_message_ids as number[]) entries.set(id, { kind: 'huddle', users: h.user_ids_string as string });
  return { entries, mentions: new Set(unread.mentions as number[]), head: unread };
}

/** Whether the client's state says the channel topic is muted for it. */
function muted(state: State, streamId: number, topic: string): boolean {
  const channelMuted = listOf(state, 'subscriptions')?.find((s) => s.stream_id === streamId)?.is_muted === true;
  const policy = listOf(state, 'user_topics')?.find((t) => t.stream_id === streamId && String(t.topic_name).toLowerCase() === topic.toLowerCase())?.visibility_policy ?? 0;
  return channelMuted ? policy !== 2 && policy !== 3 : policy === 1;
}

function fold(state: State, unread: Unread): void {
  const sorted = [...unread.entries].sort(([a], [b]) => a - b);
  const groups = (kind: Entry['kind'], key: (e: Entry) => string, head: (e: Entry) => State) => {
    const out = new Map<string, State>();
    for (const [id, e] of sorted) {
      if (e.kind !== kind) continue;
      const k = key(e);
      if (!out.has(k)) out.set(k, { ...head(e), unread_message_ids: [] });
      (out.get(k)?.unread_message_ids as number[]).push(id);
    }
    return [...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  };
  // `other_user_id` exists from level 119; `sender_id` always.
  const hasOther = typeof state.zulip_feature_level !== 'number' || state.zulip_feature_level >= 119;
  let count = 0;
  for (const [, e] of sorted) if (e.kind !== 'stream' || !muted(state, e.stream_id, e.topic)) count += 1;
  const pad = (n: number) => String(n).padStart(12, '0');
  state.unread_msgs = {
    ...unread.head,
    pms: groups('pm', (e) => pad((e as { other: number }).other), (e) => {
      const other = (e as { other: number }).other;
      return hasOther ? { other_user_id: other, sender_id: other } : { sender_id: other };
    }),
    streams: groups(
      'stream',
      (e) => `${pad((e as { stream_id: number }).stream_id)}\u0000${(e as { topic: string }).topic.toLowerCase()}`,
      (e) => ({ stream_id: (e as { stream_id: number }).stream_id, topic: (e as { topic: string }).topic }),
    ),
    huddles: groups('huddle', (e) => (e as { users: string }).users, (e) => ({ user_ids_string: (e as { users: string }).users })),
    mentions: [...unread.mentions].filter((id) => unread.entries.has(id)).sort((a, b) => a - b),
    count,
  };
}

function privateEntry(userIds: number[], self: number): Entry {
  const others = userIds.filter((id) => id !== self);
  if (others.length <= 1) return { kind: 'pm', other: others[0] ?? self };
  return { kind: 'huddle', users: [...others, self].sort((a, b) => a - b).join(',') };
}

const STEPS: Record<string, (state: State, unread: Unread, event: ApiEvent, context: ReducerContext) => void> = {
  message(state, unread, event, { userId }) {
    const flags = event.flags as string[];
    const message = event.message as State;
    if (flags.includes('read')) return;
    const id = message.id as number;
    if (message.type === 'stream') {
      unread.entries.set(id, { kind: 'stream', stream_id: message.stream_id as number, topic: message.subject as string });
    } else {
      unread.entries.set(id, privateEntry((message.display_recipient as State[]).map((r) => r.id as number), userId));
    }
    const wildcard = flags.includes('stream_wildcard_mentioned') || flags.includes('topic_wildcard_mentioned');
    const unmuted = message.type !== 'stream' || !muted(state, message.stream_id as number, message.subject as string);
    if (flags.includes('mentioned') || (wildcard && unmuted)) unread.mentions.add(id);
  },
  update_message_flags(_state, unread, event, { userId }) {
    if (event.flag !== 'read') return;
    if (event.op === 'add') {
      if (event.all === true) unread.entries.clear();
      for (const id of event.messages as number[]) unread.entries.delete(id);
      return;
    }
    for (const [key, d] of Object.entries((event.message_details ?? {}) as Record<string, State>)) {
      const id = Number(key);
      unread.entries.set(id, d.type === 'stream' ? { kind: 'stream', stream_id: d.stream_id as number, topic: d.topic as string } : privateEntry([...(d.user_ids as number[]), userId], userId));
      if (d.mentioned === true) unread.mentions.add(id);
    }
  },
  delete_message(_state, unread, event) {
    const ids = Array.isArray(event.message_ids) ? (event.message_ids as number[]) : [event.message_id as number];
    for (const id of ids) unread.entries.delete(id);
  },
  update_message(state, unread, event) {
    if (!Array.isArray(event.message_ids) || (event.new_stream_id === undefined && event.subject === undefined)) return;
    // Moved into a channel the client is not subscribed to: this server drops the user's rows
    // there (the real server marks them read a moment later, with a flag event), so they are
    // no longer unread.
    const target = event.new_stream_id;
    const subscribed = listOf(state, 'subscriptions');
    const leaves = target !== undefined && subscribed !== undefined && !subscribed.some((s) => s.stream_id === target);
    for (const id of event.message_ids as number[]) {
      const entry = unread.entries.get(id);
      if (entry?.kind !== 'stream') continue;
      if (leaves) {
        unread.entries.delete(id);
        continue;
      }
      unread.entries.set(id, { kind: 'stream', stream_id: (event.new_stream_id ?? entry.stream_id) as number, topic: (event.subject ?? entry.topic) as string });
    }
  },
  subscription(_state, unread, event) {
    if (event.op !== 'remove') return;
    const removed = new Set((event.subscriptions as State[]).map((s) => s.stream_id as number));
    for (const [id, e] of unread.entries) if (e.kind === 'stream' && removed.has(e.stream_id)) unread.entries.delete(id);
  },
  // Mute changes only move messages in and out of `count`, which fold recomputes.
  user_topic() {},
};

for (const [type, step] of Object.entries(STEPS)) {
  const before: Reducer | undefined = reducerFor(type);
  defineReducer(type, (state, event, context) => {
    before?.(state, event, context);
    if (typeof state.unread_msgs !== 'object' || state.unread_msgs === null) return;
    const unread = unfold(state.unread_msgs as State);
    step(state, unread, event, context);
    fold(state, unread);
  });
}
