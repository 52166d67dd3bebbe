/**
 * Bounds on the collections one request can carry, where the real server has none (there a
 * request is bounded only by its proxy's body size). Chosen so that no real client reaches them
 * and one request's cost has a ceiling; docs/limits.md lists them beside the real server's own.
 * Past one, the request is refused with 400 BAD_REQUEST in the style of the real server's
 * `string_too_long` error: `<name> is too long (limit: N items)`.
 */
import { type ApiError, badRequest } from '../errors.js';

/** Terms of one narrow (the web app's longest have a handful). */
export const MAX_NARROW_TERMS = 100;
/** Message IDs in one flags change or `matches_narrow` (register hands out at most 50,000 unread IDs). */
export const MAX_MESSAGE_IDS = 100_000;
/**
 * Code points of `POST /messages/render` content: through level 415 the real server renders any
 * length (its 10,000 limit on this endpoint came later), so the bound is ours; rendering this
 * much takes a few tenths of a second.
 */
export const MAX_RENDER_CONTENT_LENGTH = 100_000;
/** User or group IDs (or emails) in one list: members, subgroups, recipients, principals, `user_ids`. */
export const MAX_USER_IDS = 10_000;
/** Channels in one subscribe, unsubscribe, property change or invitation. */
export const MAX_CHANNELS = 1_000;
/** Channel-user pairs one subscribe or unsubscribe may change (channels times principals). */
export const MAX_SUBSCRIPTION_CHANGES = 100_000;
/** Alert words a user may have, and send in one request (each at most 100 characters). */
export const MAX_ALERT_WORDS = 1_000;
/** Entries of any other list: drafts, profile data, select choices, event types, ... */
export const MAX_LIST_ITEMS = 1_000;

/** Parameters of one request: form fields (urlencoded or multipart) and query pairs (Django refuses more than 1,000 by default too). */
export const MAX_PARAMETERS = 1_000;

/** The refusal of a list past its bound. */
export const tooManyItems = (path: string, limit: number): ApiError => badRequest(`${path} is too long (limit: ${limit} items)`);
