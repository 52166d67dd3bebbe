/**
 * `POST /typing` (section 4.2; reference section 6). Parameters in the current server's order:
 * `to`, `op`, `type`, `stream_id`, `topic` (alias `subject`).
 */
import { sendTyping } from '../../../lib/actions/messages/typing.js';
import { badRequest } from '../../../lib/errors.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { int, list, nullable } from '../../../lib/input/schema.js';
import { pythonStrip } from '../../../lib/input/topic-names.js';
import type { World } from '../../../lib/state/world.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { json, literalStr, str } from '../../app/params.js';
import { MAX_USER_IDS } from '../../../lib/input/limits.js';

type TypingType = 'direct' | 'private' | 'stream' | 'channel';

/**
 * The accepted `type` values by level: `stream` from 58, `direct` from 174 (the new default),
 * `private` refused from 215, `channel` from 248.
 */
function allowedTypes(world: World): TypingType[] {
  if (!world.has(FEATURES.TYPING_DIRECT)) return ['private', 'stream'];
  if (!world.has(FEATURES.TYPING_STREAM_ID)) return ['direct', 'private', 'stream'];
  if (!world.has(FEATURES.TYPING_CHANNEL)) return ['direct', 'stream'];
  return ['direct', 'stream', 'channel'];
}

const typing = authed({
  params: {
    to: json(nullable(list(int, MAX_USER_IDS))),
    op: literalStr('start', 'stop').required(),
    type: literalStr<TypingType>('direct', 'private', 'stream', 'channel').availableFrom(FEATURES.STREAM_TYPING),
    stream_id: json(nullable(int)).availableFrom(FEATURES.TYPING_STREAM_ID),
    // Stripped like the real server's OptionalTopic; `subject` is the legacy name.
    topic: str().map((value) => pythonStrip(value)).alias('subject').availableFrom(FEATURES.STREAM_TYPING),
  },
  run({ world, user }, args) {
    let kind: 'direct' | 'stream' = 'direct';
    if (world.has(FEATURES.STREAM_TYPING)) {
      const type = args.type ?? (world.has(FEATURES.TYPING_DIRECT) ? 'direct' : 'private');
      if (!allowedTypes(world).includes(type)) throw badRequest('Invalid type');
      kind = type === 'stream' || type === 'channel' ? 'stream' : 'direct';
    }
    sendTyping(world, user, { op: args.op, kind, to: args.to, streamId: args.stream_id, topic: args.topic });
    return {};
  },
});

export const routes: RouteDef[] = [{ path: '/typing', methods: { POST: typing } }];
