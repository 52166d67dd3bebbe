/**
 * A channel's topics: `GET /users/me/{stream_id}/topics` (`allow_empty_topic_name`, level 334)
 * and `POST /streams/{stream_id}/delete_topic` (`topic_name`; administrators).
 */
import { deleteTopic } from '../../../lib/actions/messages/topic-delete.js';
import { isAdministrator } from '../../../lib/entities/user.js';
import { mustBeAdministrator } from '../../../lib/errors.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { allowEmptyTopic } from '../../../lib/queries/messages/messages.js';
import { accessChannel, channelTopics } from '../../../lib/queries/messages/topics.js';
import { bool } from '../../../lib/input/schema.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { json, str } from '../../app/params.js';

const streamId = (path: ReadonlyMap<string, string>): number => Number(path.get('stream_id'));

const list = authed({
  params: { allow_empty_topic_name: json(bool).default(false).availableFrom(FEATURES.EMPTY_TOPIC) },
  run({ world, user, path }, args) {
    const stream = accessChannel(world, user, streamId(path));
    return { topics: channelTopics(world, user, stream, allowEmptyTopic(world, args.allow_empty_topic_name)) };
  },
});

const remove = authed({
  // The real view's administrator decorator runs before its parameters are read.
  gate({ user }) {
    if (!isAdministrator(user)) throw mustBeAdministrator();
  },
  params: { topic_name: str().required() },
  run({ world, user, path }, args) {
    deleteTopic(world, user, streamId(path), args.topic_name);
    // Everything is deleted at once here, so the request is always complete.
    return world.has(FEATURES.COMPLETE_FIELD) ? { complete: true } : {};
  },
});

export const routes: RouteDef[] = [
  { path: '/users/me/{stream_id:int}/topics', methods: { GET: list } },
  { path: '/streams/{stream_id:int}/delete_topic', methods: { POST: remove } },
];
