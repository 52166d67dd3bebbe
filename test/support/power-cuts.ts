/**
 * The "limit off by one" breakage of text parameters: a value over the limit is cut to it (after
 * the stripping the server does) instead of being refused, so the request succeeds.
 */

/** Cuts stripped text of more than `limit` code points to `limit`; shorter text is left as sent. */
export const cutTo = (limit: number) => (value: string): string => {
  const chars = [...value.trim()];
  return chars.length > limit ? chars.slice(0, limit).join('') : value;
};
