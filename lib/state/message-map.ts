/**
 * Messages by ID, indexed as they are stored, moved, edited and deleted (lib/state/history/): the
 * ordered IDs, per-channel, per-topic, per-conversation, per-sender, per-user and per-word lists,
 * so that reading the newest 50 messages of a narrow, a user's unread messages or a search costs
 * about the same whether the realm holds a thousand messages or a million. Per-channel daily
 * counts are kept too, so a channel's weekly traffic reads 29 counters instead of every message.
 *
 * Storing a message converts its rows (`flags`) into MessageRows, which report every flag change
 * to the index; moves go through `relocate` and content edits through `rewrite`.
 */
import type { Message, MessageFlags, Recipient } from '../entities/message.js';
import { HistoryIndex } from './history/history-index.js';
import { MessageRows } from './history/message-rows.js';
import { searchableText } from './history/word-index.js';

const DAY_MS = 86_400_000;

/** The message's rows as MessageRows, converting (and replacing) a plain Map of Sets. */
function adoptRows(message: Message): MessageRows {
  if (message.flags instanceof MessageRows) return message.flags;
  const rows = new MessageRows(message.flags);
  (message as { flags: MessageFlags }).flags = rows;
  return rows;
}

export class MessageMap extends Map<number, Message> {
  // Undefined only while Map's constructor runs (it is never given entries).
  private readonly history: HistoryIndex | undefined = new HistoryIndex((id) => this.get(id));
  /** Channel ID to (day number since the epoch to messages sent that day). */
  private readonly daily = new Map<number, Map<number, number>>();

  /** The lists over the stored history (read-only for everyone but this map and the rows). */
  get index(): HistoryIndex {
    return this.history as HistoryIndex;
  }

  /** How many of the channel's messages were sent on the day `day` (days since the epoch). */
  sentOnDay(streamId: number, day: number): number {
    return this.daily.get(streamId)?.get(day) ?? 0;
  }

  /** The only way to change a message's recipient (a move), so the indexes and daily counts stay true. */
  relocate(message: Message, recipient: Recipient): void {
    const stored = super.get(message.id) === message;
    const from = message.recipient;
    if (stored) this.count(message, -1);
    (message as { recipient: Recipient }).recipient = recipient;
    if (stored) {
      this.count(message, 1);
      this.index.moved(message, from);
    }
  }

  /** The only way to change a stored message's content, so the search index stays true. */
  rewrite(message: Message, content: string, renderedContent: string): void {
    const stored = super.get(message.id) === message;
    const before = stored ? searchableText(message) : undefined;
    message.content = content;
    message.renderedContent = renderedContent;
    if (before !== undefined) this.index.contentChanged(message, before);
  }

  private count(message: Message, change: number): void {
    if (message.recipient.kind !== 'stream') return;
    const day = Math.floor(message.sentAt / DAY_MS);
    let days = this.daily.get(message.recipient.streamId);
    if (!days) this.daily.set(message.recipient.streamId, (days = new Map()));
    const total = (days.get(day) ?? 0) + change;
    if (total === 0) days.delete(day);
    else days.set(day, total);
  }

  /** Every message ID, ascending, in a new array (walk `index.all` instead where a few will do). */
  get ids(): readonly number[] {
    return this.history?.all.toArray() ?? [];
  }

  override set(id: number, message: Message): this {
    const history = this.history;
    if (!history) return super.set(id, message);
    const previous = super.get(id);
    if (previous) this.forget(previous);
    const rows = adoptRows(message);
    super.set(id, message);
    rows.attach(id, history.rowObserver);
    history.add(message, rows);
    this.count(message, 1);
    return this;
  }

  private forget(message: Message): void {
    const rows = adoptRows(message);
    this.index.remove(message, rows);
    rows.attach(message.id, undefined);
    this.count(message, -1);
  }

  override delete(id: number): boolean {
    const previous = super.get(id);
    if (previous && this.history) this.forget(previous);
    return super.delete(id);
  }

  override clear(): void {
    for (const message of this.values()) adoptRows(message).attach(message.id, undefined);
    super.clear();
    this.history?.clear();
    this.daily.clear();
  }
}
