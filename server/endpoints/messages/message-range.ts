/** Parameters shared by the message-range endpoints (`GET /messages`, `POST /messages/flags/narrow`). */
import { badRequest } from '../../../lib/errors.js';
import type { JsonValue } from '../../../lib/input/json.js';
import { LARGER_THAN_MAX_MESSAGE_ID } from '../../../lib/queries/messages/message-fetch.js';
import { int, refine, schema } from '../../../lib/input/schema.js';

/** pydantic's NonNegativeInt (the real server has no template of its own for this error). */
export const nonNegativeInt = refine(int, (value, path) => {
  if (value < 0) throw badRequest(`${path} is too small`);
});

/** Any JSON: a narrow is validated in the view, where the emulated level is known. */
export const anyJson = schema<JsonValue>((value) => value);

/**
 * The anchor a client asked for: a message ID (negative ones become 0, huge ones `newest`),
 * `oldest` (0), `newest`, or null for `first_unread` (also the legacy `use_first_unread_anchor`).
 */
export function parseAnchor(raw: string | undefined, useFirstUnread: boolean): number | null {
  if (useFirstUnread) return null;
  if (raw === undefined) throw badRequest("Missing 'anchor' argument.");
  if (raw === 'oldest') return 0;
  if (raw === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (raw === 'first_unread') return null;
  // Python's int(): surrounding whitespace, a sign and digit-group underscores are accepted.
  const text = raw.trim();
  if (!/^[+-]?[0-9]+(?:_[0-9]+)*$/.test(text)) throw badRequest('Invalid anchor');
  const value = Number(text.replace(/_/g, ''));
  if (value < 0) return 0;
  return Math.min(value, LARGER_THAN_MAX_MESSAGE_ID);
}
