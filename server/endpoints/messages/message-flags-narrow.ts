/**
 * `POST /messages/flags/narrow` (level 155): adds or removes a personal flag on a window of the
 * messages matching a narrow, chosen by anchor as `GET /messages` chooses them, with the real
 * server's order of checks (anchor, range, narrow, then flag and operation) and the same change
 * as `POST /messages/flags` (historical rows counted, one event even when nothing changed).
 */
import { updateMessageFlags } from '../../../lib/actions/messages/message-flags.js';
import { badRequest } from '../../../lib/errors.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { searchWordsPending } from '../../../lib/narrow/search.js';
import { narrowParameter } from '../../../lib/narrow/terms.js';
import { resolveWith } from '../../../lib/narrow/with.js';
import { firstUnreadAnchor, limitToRange, matchingMessages } from '../../../lib/queries/messages/message-fetch.js';
import { bool } from '../../../lib/input/schema.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { json, str } from '../../app/params.js';
import { anyJson, nonNegativeInt, parseAnchor } from './message-range.js';

/** The most messages one request processes; each side is clamped, keeping at least half. */
const MAX_MESSAGES = 5000;


const updateForNarrow = authed({
  since: FEATURES.FLAGS_FOR_NARROW,
  params: {
    anchor: str().required(),
    include_anchor: json(bool).default(true),
    num_before: json(nonNegativeInt).required(),
    num_after: json(nonNegativeInt).required(),
    narrow: json(anyJson).required(),
    op: str().required(),
    flag: str().required(),
  },
  async run({ world, user }, args) {
    const anchor = parseAnchor(args.anchor, false);
    if (args.num_before > 0 && args.num_after > 0 && !args.include_anchor) {
      throw badRequest('The anchor can only be excluded at an end of the range');
    }
    const numBefore = Math.min(args.num_before, Math.max(MAX_MESSAGES - args.num_after, MAX_MESSAGES / 2));
    const numAfter = Math.min(args.num_after, Math.max(MAX_MESSAGES - numBefore, MAX_MESSAGES / 2));
    const terms = narrowParameter(world, { nullable: true }).parse(args.narrow, 'narrow');
    await searchWordsPending(world, terms);
    const narrow = resolveWith(world, user, terms);
    const matches = matchingMessages(world, user, narrow);
    const anchorId = anchor ?? firstUnreadAnchor(world, user, narrow, matches.test);
    const window = limitToRange(matches.source, anchorId, { includeAnchor: args.include_anchor, numBefore, numAfter });
    const ids = window.messages.map((m) => m.id);
    const result = updateMessageFlags(world, user, args.op, args.flag, ids);
    return {
      processed_count: ids.length,
      updated_count: result.count,
      first_processed_id: ids[0] ?? null,
      last_processed_id: ids.at(-1) ?? null,
      found_oldest: window.foundOldest,
      found_newest: window.foundNewest,
      ...(world.has(FEATURES.FLAGS_IGNORED_CHANNELS) ? { ignored_because_not_subscribed_channels: result.ignoredChannels } : {}),
    };
  },
});

export const routes: RouteDef[] = [{ path: '/messages/flags/narrow', methods: { POST: updateForNarrow } }];
