/**
 * Personal message flags: `POST /messages/flags` (`flag`, `messages`, `op`),
 * `POST /mark_all_as_read` and `POST /mark_stream_as_read` (`stream_id`); the deprecated
 * `POST /mark_topic_as_read` stays with the message endpoints.
 */
import { markAllAsRead, markStreamAsRead, updateMessageFlags } from '../../../lib/actions/messages/message-flags.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { int, list } from '../../../lib/input/schema.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { json, str } from '../../app/params.js';
import { MAX_MESSAGE_IDS } from '../../../lib/input/limits.js';

const flags = authed({
  params: {
    flag: str().required(),
    messages: json(list(int, MAX_MESSAGE_IDS)).required(),
    op: str().required(),
  },
  run({ world, user }, args) {
    const result = updateMessageFlags(world, user, args.op, args.flag, args.messages);
    // `messages` echoes the request, as the real server still does for old clients.
    const out: Record<string, unknown> = { messages: args.messages };
    if (world.has(FEATURES.FLAGS_IGNORED_CHANNELS)) out.ignored_because_not_subscribed_channels = result.ignoredChannels;
    return out;
  },
});

const markAll = authed({
  params: {},
  run({ world, user }) {
    markAllAsRead(world, user);
    // Every row is marked at once here, so the request is always complete.
    return world.has(FEATURES.COMPLETE_FIELD) ? { complete: true } : {};
  },
});

const markStream = authed({
  params: { stream_id: json(int).required() },
  run({ world, user }, args) {
    markStreamAsRead(world, user, args.stream_id);
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/messages/flags', methods: { POST: flags } },
  { path: '/mark_all_as_read', methods: { POST: markAll } },
  { path: '/mark_stream_as_read', methods: { POST: markStream } },
];
