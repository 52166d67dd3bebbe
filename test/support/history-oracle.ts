/**
 * The brute-force reading of a world's history, for checking the history index: every answer
 * here comes from a scan of every stored message, as the server answered before it had indexes.
 */
import type { Message } from '../../lib/entities/message.js';
import type { User } from '../../lib/entities/user.js';
import { channelByOperand, isMutedFor } from '../../lib/narrow/lookups.js';
import { compileNarrow } from '../../lib/narrow/predicates.js';
import { matchesSearch, parseSearch } from '../../lib/narrow/search.js';
import type { NarrowTerm } from '../../lib/narrow/terms.js';
import { includesHistory, LARGER_THAN_MAX_MESSAGE_ID, limitToRange, type MatchSource, type RangeRequest } from '../../lib/queries/messages/message-fetch.js';
import { ascending } from '../../lib/state/history/id-sources.js';
import type { UserListName } from '../../lib/state/history/user-index.js';
import type { World } from '../../lib/state/world.js';

const MENTIONS = ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'group_mentioned'];

/** Every stored message, ascending. */
export const allMessages = (world: World): Message[] => [...world.messages.values()].sort((a, b) => a.id - b.id);

const idsWhere = (world: World, keep: (m: Message) => boolean): number[] => allMessages(world).filter(keep).map((m) => m.id);

/** A user's list as a scan of every message's rows gives it. */
export function scannedUserList(world: World, userId: number, name: UserListName): number[] {
  return idsWhere(world, (m) => {
    const row = m.flags.get(userId);
    if (!row) return false;
    switch (name) {
      case 'received':
        return true;
      case 'unread':
        return !row.has('read');
      case 'starred':
        return row.has('starred');
      case 'mentioned':
        return MENTIONS.some((flag) => row.has(flag));
      case 'alerted':
        return row.has('has_alert_word');
      default:
        return m.recipient.kind === 'direct';
    }
  });
}

export const USER_LISTS: readonly UserListName[] = ['received', 'unread', 'starred', 'mentioned', 'alerted', 'direct'];

/** The conversation lists a scan gives: channel, topic (case-insensitive), direct conversation, sender. */
export function scannedConversations(world: World): Map<string, number[]> {
  const lists = new Map<string, number[]>();
  const add = (key: string, id: number) => lists.set(key, [...(lists.get(key) ?? []), id]);
  for (const m of allMessages(world)) {
    add(`sender ${m.senderId}`, m.id);
    if (m.recipient.kind === 'direct') add(`direct ${m.recipient.userIds.join(',')}`, m.id);
    else {
      add(`channel ${m.recipient.streamId}`, m.id);
      add(`topic ${m.recipient.streamId} ${m.recipient.topic.toLowerCase()}`, m.id);
    }
  }
  return lists;
}

/** The same lists read from the index, for the keys the scan found (and every key it must not have). */
export function indexedConversations(world: World, keys: Iterable<string>): Map<string, number[]> {
  const index = world.messages.index;
  const lists = new Map<string, number[]>();
  for (const key of keys) {
    const [kind, first, ...rest] = key.split(' ');
    const source =
      kind === 'sender'
        ? index.sender(Number(first))
        : kind === 'direct'
          ? index.direct((first ?? '').split(',').map(Number))
          : kind === 'channel'
            ? index.channel(Number(first))
            : index.topic(Number(first), rest.join(' '));
    lists.set(key, [...ascending(source)]);
  }
  return lists;
}

/** The messages a search for `word` finds, by scan. */
export const scannedSearch = (world: World, word: string): number[] =>
  idsWhere(world, (m) => matchesSearch(parseSearch(word), m.recipient.kind === 'stream' ? m.recipient.topic : '', m.content, m.renderedContent));

export interface ScannedWindow {
  readonly ids: number[];
  readonly anchor: number;
  readonly foundAnchor: boolean;
  readonly foundOldest: boolean;
  readonly foundNewest: boolean;
}

/** `GET /messages`'s window as a full scan gives it (the narrow already valid, `with` resolved). */
export function scannedWindow(world: World, viewer: User | null, narrow: readonly NarrowTerm[], request: RangeRequest): ScannedWindow {
  const includeHistory = includesHistory(world, viewer, narrow);
  const { test } = compileNarrow({ world, viewer }, narrow);
  const matches = allMessages(world).filter((m) => (includeHistory || (viewer !== null && m.flags.has(viewer.id))) && test(m));
  const source: MatchSource = {
    lastUpTo: (max, limit) => {
      const upTo = matches.filter((m) => m.id <= max);
      return limit === 0 ? upTo : upTo.slice(-limit);
    },
    firstFrom: (min, limit) => matches.filter((m) => m.id >= min).slice(0, limit),
  };
  const anchor = request.anchor ?? scannedFirstUnread(world, viewer, narrow);
  const window = limitToRange(source, anchor, request);
  return { ids: window.messages.map((m) => m.id), anchor, foundAnchor: window.foundAnchor, foundOldest: window.foundOldest, foundNewest: window.foundNewest };
}

/** The first unread message of the narrow by scan (the muting rules of `first_unread`). */
export function scannedFirstUnread(world: World, viewer: User | null, narrow: readonly NarrowTerm[]): number {
  if (viewer === null) return LARGER_THAN_MAX_MESSAGE_ID;
  const { test } = compileNarrow({ world, viewer }, narrow);
  const channelLevel = !narrow.some((term) => ['channel', 'stream'].includes(term.operator) && channelByOperand(world, term.operand));
  const first = allMessages(world).find((m) => {
    const row = m.flags.get(viewer.id);
    return row !== undefined && !row.has('read') && !isMutedFor(world, viewer.id, m, { channelLevel }) && test(m);
  });
  return first?.id ?? LARGER_THAN_MAX_MESSAGE_ID;
}

/** A channel's topics (`GET /users/me/{stream_id}/topics`) by scan: newest first, named as their latest visible message. */
export function scannedTopics(world: World, user: User, streamId: number): Array<{ name: string; max_id: number }> {
  const stream = world.streams.get(streamId);
  const latest = new Map<string, { name: string; max_id: number }>();
  for (const m of allMessages(world)) {
    if (m.recipient.kind !== 'stream' || m.recipient.streamId !== streamId) continue;
    if (!stream?.historyPublicToSubscribers && !m.flags.has(user.id)) continue;
    latest.set(m.recipient.topic.toLowerCase(), { name: m.recipient.topic, max_id: m.id });
  }
  return [...latest.values()].sort((a, b) => b.max_id - a.max_id);
}
