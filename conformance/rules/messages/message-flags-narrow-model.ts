/**
 * A model of the window `POST /messages/flags/narrow` processes, written from the real server's
 * documented range semantics (get-messages: anchor, num_before, num_after, include_anchor) over the
 * ascending IDs of the messages matching the narrow:
 *
 * - `oldest` anchors before every message, `newest` after every one (nothing after it is
 *   fetched), `first_unread` at the first unread match (or `newest` when none is unread);
 * - up to `num_before` matches below the anchor, the anchor itself when it matches and is
 *   included, up to `num_after` above it; with both counts zero, just the anchor if it matches;
 * - `found_oldest` when anchored at `oldest` or fewer than `num_before` were below,
 *   `found_newest` when anchored at `newest` or fewer than `num_after` were above;
 * - excluding the anchor with messages asked on both sides is refused.
 */

/** The caller's flags on one message. */
export interface FlagState {
  read: boolean;
  starred: boolean;
}

export interface NarrowRequest {
  readonly anchor: 'oldest' | 'newest' | 'first_unread' | number;
  readonly numBefore: number;
  readonly numAfter: number;
  readonly includeAnchor: boolean;
  readonly flag: 'read' | 'starred';
  readonly op: 'add' | 'remove';
}

export interface ExpectedWindow {
  readonly processed: number[];
  /** The processed messages whose flag changes (what `updated_count` counts and the event lists). */
  readonly changed: number[];
  readonly foundOldest: boolean;
  readonly foundNewest: boolean;
}

/** The request's form parameters (without the narrow). */
export function requestParams(request: NarrowRequest): Record<string, unknown> {
  return {
    anchor: String(request.anchor),
    num_before: request.numBefore,
    num_after: request.numAfter,
    include_anchor: request.includeAnchor,
    op: request.op,
    flag: request.flag,
  };
}

/** The window and its flags for `ids` (ascending) in `state`, or `refused`. */
export function narrowWindow(ids: readonly number[], state: ReadonlyMap<number, FlagState>, request: NarrowRequest): ExpectedWindow | 'refused' {
  if (request.numBefore > 0 && request.numAfter > 0 && !request.includeAnchor) return 'refused';
  const anchor = anchorValue(ids, state, request.anchor);
  const toLeft = anchor === 0;
  const toRight = anchor === Infinity;
  const numAfter = toRight ? 0 : request.numAfter;
  const { numBefore } = request;
  let processed: number[];
  let before: number[] = [];
  let after: number[] = [];
  if (numBefore === 0 && numAfter === 0) {
    // No side asked for: only the anchor itself, whatever include_anchor says.
    processed = ids.filter((id) => id === anchor);
  } else {
    if (!toLeft && numBefore > 0) before = ids.filter((id) => id < anchor).slice(-numBefore);
    if (numAfter > 0) after = ids.filter((id) => id > anchor).slice(0, numAfter);
    const atAnchor = request.includeAnchor ? ids.filter((id) => id === anchor) : [];
    processed = [...before, ...atAnchor, ...after];
  }
  const target = request.op === 'add';
  const changed = processed.filter((id) => state.get(id)![request.flag] !== target);
  return { processed, changed, foundOldest: toLeft || before.length < numBefore, foundNewest: toRight || after.length < numAfter };
}

/** The anchor as a number: 0 for `oldest`, Infinity for `newest` (and `first_unread` with nothing unread). */
function anchorValue(ids: readonly number[], state: ReadonlyMap<number, FlagState>, anchor: NarrowRequest['anchor']): number {
  if (anchor === 'oldest') return 0;
  if (anchor === 'newest') return Infinity;
  if (anchor === 'first_unread') return ids.find((id) => !state.get(id)!.read) ?? Infinity;
  return anchor;
}
