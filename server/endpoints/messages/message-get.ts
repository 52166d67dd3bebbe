/**
 * `GET /messages/{message_id}` (reference §2.3): an authenticated user with read access. The
 * real server opens it to spectators on the web app's `/json` route only; on `/api/v1` a request
 * without credentials is the 401 of unauthenticated requests (zerver/lib/rest.py).
 */
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { accessMessage, allowEmptyTopic, flagsFor, toApiMessage } from '../../../lib/queries/messages/messages.js';
import { bool } from '../../../lib/input/schema.js';
import { authed } from '../../app/endpoint.js';
import { json } from '../../app/params.js';

export const getMessage = authed({
  params: {
    apply_markdown: json(bool).default(true).availableFrom(FEATURES.GET_MESSAGE_OBJECT, { otherwise: true }),
    allow_empty_topic_name: json(bool).default(false).availableFrom(FEATURES.EMPTY_TOPIC),
  },
  run({ world, user, path }, args) {
    const id = Number(path.get('message_id'));
    const message = accessMessage(world, user, id, { modifying: false });
    // Before level 120 the answer was `raw_content` only.
    if (!world.has(FEATURES.GET_MESSAGE_OBJECT)) return { raw_content: message.content };
    const body = toApiMessage(world, message, {
      applyMarkdown: args.apply_markdown,
      allowEmptyTopicName: allowEmptyTopic(world, args.allow_empty_topic_name),
      clientGravatar: false,
      includeEditHistory: true,
    });
    return { raw_content: message.content, message: { ...body, flags: flagsFor(message, user.id) } };
  },
});
