/**
 * Message history for `GET /messages` and `POST /messages/flags/narrow`: which messages a reader
 * searches, the narrow applied to them, and the anchor window with the real server's
 * `found_anchor` / `found_oldest` / `found_newest` semantics (its `limit_query_to_range` and
 * `post_process_limited_query`, applied to the sorted matches).
 */
import type { Message } from '../../entities/message.js';
import type { Stream } from '../../entities/stream.js';
import { isGuest, type User } from '../../entities/user.js';
import { isMutedFor, channelByOperand } from '../../narrow/lookups.js';
import { narrowCandidates } from '../../narrow/candidates.js';
import { compileNarrow, type MessageTest } from '../../narrow/predicates.js';
import type { SearchQuery } from '../../narrow/search.js';
import type { NarrowTerm } from '../../narrow/terms.js';
import { firstAccepted, lastAccepted } from '../../state/history/id-sources.js';
import type { World } from '../../state/world.js';
import { hasChannelContentAccess } from '../channels/channel-access.js';

/** The anchor `newest` stands for; larger anchors are clamped to it. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

const CHANNEL_OPERATORS = new Set(['channel', 'stream']);

export interface RangeRequest {
  /** A message ID, 0 for `oldest`, `LARGER_THAN_MAX_MESSAGE_ID` for `newest`, null for `first_unread`. */
  readonly anchor: number | null;
  readonly includeAnchor: boolean;
  readonly numBefore: number;
  readonly numAfter: number;
}

export interface Window {
  readonly messages: Message[];
  readonly anchor: number;
  readonly foundAnchor: boolean;
  readonly foundOldest: boolean;
  readonly foundNewest: boolean;
}

/**
 * The messages a reader may search that match a narrow, read lazily outward from a point: a
 * window touches the messages near its anchor, not the whole history.
 */
export interface MatchSource {
  /** The last `limit` matches with ID <= `max` (every one when `limit` is 0), by ascending ID. */
  lastUpTo(max: number, limit: number): Message[];
  /** The first `limit` matches with ID >= `min`, by ascending ID. */
  firstFrom(min: number, limit: number): Message[];
}

export interface Matches {
  readonly source: MatchSource;
  /** Whether one message is among the matches (for `message_ids`). */
  readonly includes: (message: Message) => boolean;
  /** Whether messages without a per-user row (history) were searched. */
  readonly includeHistory: boolean;
  readonly search: SearchQuery | undefined;
  readonly test: MessageTest;
}

/** The real server's `can_access_stream_history`. */
function canAccessHistory(world: World, user: User, stream: Stream): boolean {
  if (stream.isWebPublic) return true;
  if (!stream.inviteOnly && !isGuest(user)) return true;
  return stream.historyPublicToSubscribers && hasChannelContentAccess(world, user, stream);
}

/**
 * Whether the query may include messages the reader never received (`ok_to_include_history`):
 * only when a non-negated channel term names a channel whose history the reader may read (the
 * last such term decides), or `channels:public` for non-guests; never with an `is` term other
 * than `is:resolved`. Spectators always read history (of web-public channels only).
 */
export function includesHistory(world: World, viewer: User | null, narrow: readonly NarrowTerm[]): boolean {
  if (viewer === null) return true;
  let include = false;
  for (const term of narrow) {
    if (term.negated) continue;
    if (CHANNEL_OPERATORS.has(term.operator)) {
      const stream = channelByOperand(world, term.operand);
      include = stream !== undefined && canAccessHistory(world, viewer, stream);
    } else if ((term.operator === 'channels' || term.operator === 'streams') && term.operand === 'public' && !isGuest(viewer)) {
      include = true;
    }
  }
  if (narrow.some((term) => term.operator === 'is' && term.operand !== 'resolved')) include = false;
  return include;
}

/**
 * Every message matching the narrow among those the reader searches (throws narrow errors), read
 * from the narrow's candidates in the history index outward from the window's anchor.
 */
export function matchingMessages(world: World, viewer: User | null, narrow: readonly NarrowTerm[]): Matches {
  const includeHistory = includesHistory(world, viewer, narrow);
  const compiled = compileNarrow({ world, viewer }, narrow);
  const includes = (message: Message): boolean => (includeHistory || (viewer !== null && message.flags.has(viewer.id))) && compiled.test(message);
  const candidates = narrowCandidates(world, viewer, narrow, includeHistory);
  const accept = (id: number): boolean => {
    const message = world.messages.get(id);
    return message !== undefined && includes(message);
  };
  const messagesOf = (ids: readonly number[]): Message[] => ids.map((id) => world.messages.get(id) as Message);
  const source: MatchSource = {
    lastUpTo: (max, limit) => messagesOf(lastAccepted(candidates, max, limit, accept)),
    firstFrom: (min, limit) => messagesOf(firstAccepted(candidates, min, limit, accept)),
  };
  return { source, includes, includeHistory, search: compiled.search, test: compiled.test };
}

/**
 * The first unread message of the narrow among the reader's own messages, leaving out muted
 * conversations (muted channels only when the narrow names no channel); `newest` when none.
 * Read from the reader's unread messages, so it costs what they have unread, not the history.
 */
export function firstUnreadAnchor(world: World, viewer: User | null, narrow: readonly NarrowTerm[], test: MessageTest): number {
  if (viewer === null) return LARGER_THAN_MAX_MESSAGE_ID;
  const channelLevel = !narrow.some((term) => CHANNEL_OPERATORS.has(term.operator) && channelByOperand(world, term.operand));
  const unread = narrowCandidates(world, viewer, narrow, false, world.messages.index.user(viewer.id, 'unread'));
  const [first] = firstAccepted(unread, 0, 1, (id) => {
    const message = world.messages.get(id);
    if (!message) return false;
    const flags = message.flags.get(viewer.id);
    if (!flags || flags.has('read')) return false;
    return !isMutedFor(world, viewer.id, message, { channelLevel }) && test(message);
  });
  return first ?? LARGER_THAN_MAX_MESSAGE_ID;
}

/**
 * The window around `anchor` over `sorted` (ascending IDs), computed as the real server's two
 * limited queries and their post-processing are.
 */
export function limitToRange(source: MatchSource, anchor: number, request: Omit<RangeRequest, 'anchor'>): Window {
  const { includeAnchor } = request;
  let { numBefore, numAfter } = request;
  const toLeft = anchor === 0;
  const toRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
  if (toRight) numAfter = 0;
  const needBefore = !toLeft && numBefore > 0;
  const needAfter = !toRight && numAfter > 0;
  const lastUpTo = (max: number, limit: number) => source.lastUpTo(max, limit);
  const firstFrom = (min: number, limit: number) => source.firstFrom(min, limit);
  let rows: Message[];
  if (needBefore && needAfter) {
    rows = [...lastUpTo(anchor - 1, numBefore), ...firstFrom(anchor, numAfter + 1)];
  } else if (needBefore) {
    const limit = numBefore + (!toRight && includeAnchor ? 1 : 0);
    rows = lastUpTo(toRight ? Number.MAX_SAFE_INTEGER : anchor - (includeAnchor ? 0 : 1), limit);
  } else if (needAfter) {
    rows = firstFrom(anchor + (includeAnchor ? 0 : 1), numAfter + (includeAnchor ? 1 : 0));
  } else {
    rows = firstFrom(anchor, 1).filter((m) => m.id === anchor);
  }
  let before = toRight ? rows : rows.filter((m) => m.id < anchor);
  const atAnchor = toRight ? [] : rows.filter((m) => m.id === anchor);
  let after = toRight ? [] : rows.filter((m) => m.id > anchor);
  if (numBefore) before = before.slice(-numBefore);
  if (numAfter) after = after.slice(0, numAfter);
  return {
    messages: [...before, ...atAnchor, ...after],
    anchor,
    foundAnchor: atAnchor.length === 1,
    foundOldest: toLeft || before.length < numBefore,
    foundNewest: toRight || after.length < numAfter,
  };
}
