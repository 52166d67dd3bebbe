/**
 * `unread_msgs` as the real server keeps it while applying events (`raw_unread_msgs` in
 * zerver/lib/events.py and zerver/lib/message.py): one entry per unread message, the set of
 * unread channel messages that count (not muted), and the mentions; folded back into the
 * aggregated lists `POST /register` answers (`aggregate_unread_data`).
 */
import { ascending, idsIn, type State } from '../types.js';

export type UnreadEntry =
  | { readonly kind: 'stream'; readonly streamId: number; readonly topic: string }
  | { readonly kind: 'pm'; readonly other: number }
  | { readonly kind: 'huddle'; readonly users: string };

/** Mute knowledge the client has: whether a channel message in this topic counts as unread. */
export type CountsAsUnread = (streamId: number, topic: string) => boolean;

export class UnreadModel {
  readonly entries = new Map<number, UnreadEntry>();
  readonly unmuted = new Set<number>();
  readonly mentions = new Set<number>();
  /**
   * `count` minus what the entries explain: channel messages the register counted differently
   * from the client's mute knowledge (a client that fetched no mute state cannot tell), carried
   * unchanged since the run only touches its own unmuted channels.
   */
  private countOffset = 0;
  private oldUnreadsMissing: unknown = false;
  /** Whether the target's aggregated pms carry `other_user_id` (level 119). */
  private withOtherUserId = true;

  static unfold(unread: State, counts: CountsAsUnread): UnreadModel {
    const model = new UnreadModel();
    for (const pm of (unread.pms ?? []) as State[]) {
      if (!('other_user_id' in pm)) model.withOtherUserId = false;
      const other = (pm.other_user_id ?? pm.sender_id) as number;
      for (const id of idsIn(pm.unread_message_ids)) model.entries.set(id, { kind: 'pm', other });
    }
    for (const s of (unread.streams ?? []) as State[]) {
      for (const id of idsIn(s.unread_message_ids)) {
        model.entries.set(id, { kind: 'stream', streamId: s.stream_id as number, topic: String(s.topic) });
        if (counts(s.stream_id as number, String(s.topic))) model.unmuted.add(id);
      }
    }
    for (const h of (unread.huddles ?? []) as State[]) {
      for (const id of idsIn(h.unread_message_ids)) model.entries.set(id, { kind: 'huddle', users: String(h.user_ids_string) });
    }
    for (const id of idsIn(unread.mentions)) model.mentions.add(id);
    model.countOffset = (typeof unread.count === 'number' ? unread.count : 0) - model.counted();
    model.oldUnreadsMissing = unread.old_unreads_missing;
    return model;
  }

  /** The real server's `count`: direct and group direct messages, and channel messages that count. */
  private counted(): number {
    let count = this.unmuted.size;
    for (const entry of this.entries.values()) if (entry.kind !== 'stream') count += 1;
    return count;
  }

  add(id: number, entry: UnreadEntry, counts: boolean): void {
    this.entries.set(id, entry);
    if (entry.kind === 'stream' && counts) this.unmuted.add(id);
  }

  remove(id: number): void {
    this.entries.delete(id);
    this.unmuted.delete(id);
    this.mentions.delete(id);
  }

  /** `aggregate_unread_data`: lists grouped and sorted as register answers them. */
  fold(): State {
    const byKey = <K>(kind: UnreadEntry['kind'], key: (entry: UnreadEntry) => K, head: (entry: UnreadEntry) => State, order: (a: K, b: K) => number) => {
      const groups = new Map<K, State>();
      for (const [id, entry] of this.entries) {
        if (entry.kind !== kind) continue;
        const k = key(entry);
        const group = groups.get(k) ?? { ...head(entry), unread_message_ids: [] };
        groups.set(k, group);
        (group.unread_message_ids as number[]).push(id);
      }
      for (const group of groups.values()) group.unread_message_ids = ascending(group.unread_message_ids as number[]);
      return [...groups].sort(([a], [b]) => order(a, b)).map(([, group]) => group);
    };
    const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const pms = byKey(
      'pm',
      (e) => (e as { other: number }).other,
      (e) => {
        const other = (e as { other: number }).other;
        return this.withOtherUserId ? { other_user_id: other, sender_id: other } : { sender_id: other };
      },
      (a, b) => a - b,
    );
    const streams = byKey(
      'stream',
      (e) => {
        const s = e as { streamId: number; topic: string };
        return `${String(s.streamId).padStart(15, '0')}\u0000${s.topic.toLowerCase()}`;
      },
      (e) => ({ stream_id: (e as { streamId: number }).streamId, topic: (e as { topic: string }).topic }),
      text,
    );
    const huddles = byKey('huddle', (e) => (e as { users: string }).users, (e) => ({ user_ids_string: (e as { users: string }).users }), text);
    return {
      pms,
      streams,
      huddles,
      mentions: ascending(this.mentions),
      count: this.counted() + this.countOffset,
      old_unreads_missing: this.oldUnreadsMissing,
    };
  }
}

/** The unread entry of a direct message to `userIds` (the recipients, the client included or not). */
export function directEntry(userIds: readonly number[], selfId: number): UnreadEntry {
  const others = userIds.filter((id) => id !== selfId);
  if (others.length <= 1) return { kind: 'pm', other: others[0] ?? selfId };
  return { kind: 'huddle', users: ascending([...others, selfId]).join(',') };
}
