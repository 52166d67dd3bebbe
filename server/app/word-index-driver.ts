/**
 * Lists a loaded history's search words in the background (lib/state/history/word-index.ts):
 * a slice of messages per turn of the event loop, so requests are answered between slices and
 * the realm is ready before its words are listed. A search that comes first lists the rest itself.
 */
import type { World } from '../../lib/state/world.js';

/** Messages per slice: some 10 ms of work, the longest a request waits behind it. */
const SLICE = 5_000;

/** Starts listing the world's pending search words; returns what stops it (for `close`). */
export function indexWordsInBackground(world: World): () => void {
  let next: NodeJS.Immediate | undefined;
  const step = (): void => {
    next = world.messages.index.indexPendingWords(SLICE) ? undefined : setImmediate(step).unref();
  };
  if (world.messages.index.pendingWords > 0) next = setImmediate(step).unref();
  return () => {
    if (next !== undefined) clearImmediate(next);
    next = undefined;
  };
}
