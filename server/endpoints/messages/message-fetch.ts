/**
 * Reading message history: `GET /messages` (anchor windows, `message_ids`, narrows, search
 * highlighting) and `GET /messages/matches_narrow`,
 * with the real server's parameters, order of checks and errors.
 */
import type { Message } from '../../../lib/entities/message.js';
import { badRequest } from '../../../lib/errors.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { compileNarrow } from '../../../lib/narrow/predicates.js';
import { searchFields, searchWordsPending } from '../../../lib/narrow/search.js';
import { narrowParameter } from '../../../lib/narrow/terms.js';
import { resolveWith } from '../../../lib/narrow/with.js';
import { firstUnreadAnchor, limitToRange, matchingMessages } from '../../../lib/queries/messages/message-fetch.js';
import { fetchedMessages } from '../../../lib/queries/messages/message-fetch-view.js';
import { allowEmptyTopic } from '../../../lib/queries/messages/messages.js';
import { bool, int, list, nullable } from '../../../lib/input/schema.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { json, str } from '../../app/params.js';
import { anyJson, nonNegativeInt, parseAnchor } from './message-range.js';
import { MAX_MESSAGE_IDS } from '../../../lib/input/limits.js';

export const MAX_MESSAGES_PER_FETCH = 5000;

/**
 * Authenticated only: the real server serves spectators (web-public reading without an account)
 * on the web app's `/json` routes alone; on `/api/v1` a request without credentials is refused
 * before any parameter is read (zerver/lib/rest.py `rest_dispatch`).
 */
export const getMessages = authed({
  params: {
    anchor: str(),
    include_anchor: json(bool).default(true).availableFrom(FEATURES.FETCH_INCLUDE_ANCHOR, { otherwise: true }),
    num_before: json(nonNegativeInt).default(0),
    num_after: json(nonNegativeInt).default(0),
    narrow: json(anyJson).default(null),
    use_first_unread_anchor: json(bool).default(false),
    client_gravatar: json(bool),
    apply_markdown: json(bool).default(true),
    allow_empty_topic_name: json(bool).default(false).availableFrom(FEATURES.EMPTY_TOPIC),
    message_ids: json(nullable(list(nonNegativeInt, MAX_MESSAGE_IDS))).availableFrom(FEATURES.FETCH_MESSAGE_IDS),
  },
  async run({ world, user: viewer }, args) {
    const messageIds = args.message_ids ?? undefined;
    if (messageIds !== undefined && (args.num_before || args.num_after || args.anchor !== undefined || args.use_first_unread_anchor)) {
      const parameters = 'num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor';
      throw badRequest(`Unsupported parameter combination: ${parameters}`, { parameters });
    }
    const includeAnchor = messageIds === undefined && args.include_anchor;
    const anchor = messageIds === undefined ? parseAnchor(args.anchor, args.use_first_unread_anchor) : undefined;
    const terms = narrowParameter(world, { nullable: true }).parse(args.narrow, 'narrow');
    await searchWordsPending(world, terms);
    const narrow = resolveWith(world, viewer, terms);
    const requested = messageIds === undefined ? args.num_before + args.num_after : messageIds.length;
    if (requested > MAX_MESSAGES_PER_FETCH) throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
    if (args.num_before > 0 && args.num_after > 0 && !includeAnchor) throw badRequest('The anchor can only be excluded at an end of the range');

    const matches = matchingMessages(world, viewer, narrow);
    const view = {
      applyMarkdown: args.apply_markdown,
      allowEmptyTopicName: allowEmptyTopic(world, args.allow_empty_topic_name),
      // Readers default to gravatar hints from level 92.
      clientGravatar: args.client_gravatar ?? world.has(FEATURES.CLIENT_GRAVATAR_DEFAULT_TRUE),
      search: matches.search,
    };
    if (messageIds !== undefined) {
      const wanted = new Set(messageIds);
      const chosen = [...wanted].sort((a, b) => a - b).map((id) => world.messages.get(id)).filter((m): m is Message => m !== undefined && matches.includes(m));
      const messages = fetchedMessages(world, viewer, chosen, view);
      return { messages, history_limited: false, found_anchor: false, found_oldest: false, found_newest: false };
    }
    const anchorId = anchor ?? firstUnreadAnchor(world, viewer, narrow, matches.test);
    const window = limitToRange(matches.source, anchorId, { includeAnchor, numBefore: args.num_before, numAfter: args.num_after });
    return {
      messages: fetchedMessages(world, viewer, window.messages, view),
      found_anchor: window.foundAnchor,
      found_oldest: window.foundOldest,
      found_newest: window.foundNewest,
      history_limited: false,
      anchor: window.anchor,
    };
  },
});

/** Which of the given messages (among those the user received) match the narrow. */
export const matchesNarrow = authed({
  params: {
    msg_ids: json(list(int, MAX_MESSAGE_IDS)).required(),
    narrow: json(anyJson).required(),
  },
  run({ world, user }, args) {
    const narrow = narrowParameter(world, { nullable: false }).parse(args.narrow, 'narrow');
    const wanted = new Set(args.msg_ids);
    const compiled = compileNarrow({ world, viewer: user }, narrow);
    const messages: Record<string, unknown> = {};
    for (const id of [...wanted].sort((a, b) => a - b)) {
      const message = world.messages.get(id);
      if (!message || !message.flags.has(user.id) || !compiled.test(message)) continue;
      const topic = message.recipient.kind === 'stream' ? message.recipient.topic : '';
      messages[String(id)] = searchFields(compiled.search, topic, message.renderedContent);
    }
    return { messages };
  },
});

export const routes: RouteDef[] = [{ path: '/messages/matches_narrow', methods: { GET: matchesNarrow } }];
