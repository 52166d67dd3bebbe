/**
 * Lists a loaded history's search words in the background (word-index.ts): a slice of messages
 * per turn of the event loop, so requests are answered between slices and the realm is ready
 * before its words are listed. A search that comes first waits for the rest (`wordsListed`),
 * listing slices itself, so it never holds up the other requests. A running app starts the
 * listing (server/app/app.ts); a world used without one lists its words at the first search.
 */
import type { HistoryIndex } from './history-index.js';

/** Messages per slice: about 10 ms of work here, the longest a request waits behind it. */
const SLICE = 2_000;

/** Starts listing the index's pending search words; returns what stops it (for an app's `close`). */
export function listWordsInBackground(index: HistoryIndex): () => void {
  let next: NodeJS.Immediate | undefined;
  const step = (): void => {
    next = index.indexPendingWords(SLICE) ? undefined : setImmediate(step).unref();
  };
  if (index.pendingWords > 0) next = setImmediate(step).unref();
  return () => {
    if (next !== undefined) clearImmediate(next);
    next = undefined;
  };
}

/**
 * Resolves once no search word is pending, listing a slice per turn of the event loop meanwhile:
 * listing a large history's words in one go would stall every other request for seconds.
 */
export async function wordsListed(index: HistoryIndex): Promise<void> {
  while (!index.indexPendingWords(SLICE)) await new Promise<void>((resolve) => setImmediate(resolve));
}
