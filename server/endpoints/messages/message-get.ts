/**
 * `GET /messages/{message_id}` (reference §2.3): an authenticated user with read access, or a
 * spectator (no credentials) reading a web-public channel of a realm that allows spectators;
 * any spectator failure is the 401 of unauthenticated requests.
 */
import type { Message } from '../../../lib/entities/message.js';
import type { User } from '../../../lib/entities/user.js';
import { unauthorized } from '../../../lib/errors.js';
import { FEATURES } from '../../../lib/features.js';
import { accessMessage, allowEmptyTopic, flagsFor, toApiMessage } from '../../../lib/queries/messages/messages.js';
import { bool } from '../../../lib/input/schema.js';
import type { World } from '../../../lib/state/world.js';
import { authenticate } from '../../app/auth.js';
import { open } from '../../app/endpoint.js';
import { json } from '../../app/params.js';
import type { ApiRequest } from '../../app/request.js';

/** The user authenticated by the gate, per request (spectators have none). */
const viewers = new WeakMap<ApiRequest, User>();

function spectatorMessage(world: World, messageId: number): Message {
  const message = world.messages.get(messageId);
  const stream = message?.recipient.kind === 'stream' ? world.streams.get(message.recipient.streamId) : undefined;
  if (!message || !stream || !stream.isWebPublic || stream.isArchived || !world.realm.enableSpectatorAccess) throw unauthorized();
  return message;
}

export const getMessage = open({
  gate({ world, request }) {
    const header = request.headers.get('authorization');
    if (header !== undefined) viewers.set(request, authenticate(world, header));
  },
  params: {
    apply_markdown: json(bool).default(true).availableFrom(FEATURES.GET_MESSAGE_OBJECT, { otherwise: true }),
    allow_empty_topic_name: json(bool).default(false).availableFrom(FEATURES.EMPTY_TOPIC),
  },
  run({ world, request, path }, args) {
    const viewer = viewers.get(request) ?? null;
    const id = Number(path.get('message_id'));
    const message = viewer ? accessMessage(world, viewer, id, { modifying: false }) : spectatorMessage(world, id);
    // Before level 120 the answer was `raw_content` only.
    if (!world.has(FEATURES.GET_MESSAGE_OBJECT)) return { raw_content: message.content };
    const body = toApiMessage(world, message, {
      applyMarkdown: args.apply_markdown,
      allowEmptyTopicName: allowEmptyTopic(world, args.allow_empty_topic_name),
      clientGravatar: false,
      includeEditHistory: true,
    });
    return { raw_content: message.content, message: { ...body, flags: flagsFor(message, viewer?.id ?? null) } };
  },
});
