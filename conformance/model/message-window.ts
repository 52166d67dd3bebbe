/**
 * The window `GET /messages` cuts out of the messages matching a narrow, as the real server
 * documents it and computes it (its two limited queries around the anchor, then their
 * post-processing): `num_before` messages before the anchor, the anchor itself, `num_after`
 * after it, and the `found_anchor` / `found_oldest` / `found_newest` flags. Pure: no I/O.
 *
 * The realm's message-visibility limit (`first_visible_message_id`, Zulip Cloud plans only) is
 * taken as absent, so `history_limited` is always false here.
 */

/** The anchor `newest` stands for; larger integer anchors are clamped to it. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

/** An anchor as a client sends it. */
export type AnchorValue = 'newest' | 'oldest' | 'first_unread' | number;

export interface WindowRequest {
  /** The anchor already resolved to a number (`resolveAnchor`). */
  readonly anchor: number;
  readonly numBefore: number;
  readonly numAfter: number;
  readonly includeAnchor: boolean;
}

export interface Window {
  /** The IDs returned, ascending. */
  readonly ids: number[];
  readonly foundAnchor: boolean;
  readonly foundOldest: boolean;
  readonly foundNewest: boolean;
  /**
   * How many messages older than every known one the server may put in front of `ids`, when
   * the caller's matches are only the newest part of the real ones (`openBelow`): the real
   * server fills the `num_before` side with them. When it is above 0, `foundOldest` is true
   * exactly when fewer than that many came (the model cannot know how many exist).
   */
  readonly olderSlots: number;
}

/**
 * The number an anchor means: `oldest` is 0, `newest` (and anything above it) the largest ID,
 * a negative ID 0, `first_unread` the first unread match (or `newest` when there is none).
 */
export function resolveAnchor(anchor: AnchorValue, firstUnread: number | undefined): number {
  if (anchor === 'oldest') return 0;
  if (anchor === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (anchor === 'first_unread') return firstUnread ?? LARGER_THAN_MAX_MESSAGE_ID;
  if (anchor < 0) return 0;
  return Math.min(anchor, LARGER_THAN_MAX_MESSAGE_ID);
}

/** Whether the request is refused before any search: both sides asked for without the anchor. */
export const excludesInnerAnchor = (request: Omit<WindowRequest, 'anchor'>): boolean =>
  request.numBefore > 0 && request.numAfter > 0 && !request.includeAnchor;

/**
 * The window over `matches` (ascending IDs of every matching message the reader may read).
 * With `openBelow`, `matches` holds only the matches from that ID up; older ones exist but are
 * unknown, and the result says how many of them may lead the answer (`olderSlots`).
 */
export function windowOver(matches: readonly number[], request: WindowRequest, openBelow = false): Window {
  const { anchor, numBefore, includeAnchor } = request;
  const toLeft = anchor === 0;
  const toRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
  // Anchored at `newest`, nothing comes after: the server drops num_after altogether.
  const numAfter = toRight ? 0 : request.numAfter;
  const needBefore = !toLeft && numBefore > 0;
  const needAfter = !toRight && numAfter > 0;
  let before: number[];
  let atAnchor: number[] = [];
  let after: number[] = [];
  if (toRight) {
    before = numBefore > 0 ? matches.slice(-numBefore) : [];
  } else {
    before = needBefore ? matches.filter((id) => id < anchor).slice(-numBefore) : [];
    after = needAfter ? matches.filter((id) => id > anchor).slice(0, numAfter) : [];
    // The anchor row comes with include_anchor, and also when neither side was asked for (the
    // server then looks the anchor up by itself).
    if (matches.includes(anchor) && (includeAnchor || (!needBefore && !needAfter))) atAnchor = [anchor];
  }
  const olderSlots = openBelow && (needBefore || toRight) ? numBefore - before.length : 0;
  return {
    ids: [...before, ...atAnchor, ...after],
    foundAnchor: atAnchor.length === 1,
    foundOldest: toLeft || (olderSlots === 0 && before.length < numBefore),
    foundNewest: toRight || after.length < numAfter,
    olderSlots,
  };
}
