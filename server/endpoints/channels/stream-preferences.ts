/**
 * Personal and realm channel preferences: `POST /users/me/subscriptions/properties`, the legacy
 * `PATCH /users/me/subscriptions/muted_topics`, `GET /users/{user_id}/subscriptions/{stream_id}`
 * and `POST`/`DELETE /default_streams`.
 */
import { addDefaultChannel, removeDefaultChannel } from '../../../lib/actions/channels/defaults/default-streams.js';
import { legacyMuteTopic } from '../../../lib/actions/personal/legacy-topic-muting.js';
import { type PropertyChange, updateSubscriptionProperties } from '../../../lib/actions/channels/subscription-properties.js';
import { isAdministrator } from '../../../lib/entities/user.js';
import { mustBeAdministrator } from '../../../lib/errors.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { isSubscribed } from '../../../lib/queries/users/access.js';
import { accessChannelById } from '../../../lib/queries/channels/channel-list.js';
import { accessUserById } from '../../../lib/queries/users/users.js';
import { bool, int, list, object, required, str as jsonStr, union } from '../../../lib/input/schema.js';
import { MAX_TOPIC_LENGTH } from '../../../lib/input/topic-names.js';
import { authed, type AuthedContext, type RouteDef } from '../../app/endpoint.js';
import { json, literalStr, str } from '../../app/params.js';
import { MAX_CHANNELS } from '../../../lib/input/limits.js';

const propertyChange = object({ stream_id: required(int), property: required(jsonStr), value: required(union(bool, jsonStr)) });

const updateProperties = authed({
  params: { subscription_data: json(list(propertyChange, MAX_CHANNELS)).required() },
  run({ world, user }, args) {
    updateSubscriptionProperties(world, user, args.subscription_data as PropertyChange[]);
    return {};
  },
});

const mutedTopics = authed({
  params: {
    stream_id: json(int),
    stream: str(),
    topic: str({ maxLength: MAX_TOPIC_LENGTH }).required(),
    op: literalStr('add', 'remove').required(),
  },
  run({ world, user }, args) {
    legacyMuteTopic(world, user, { streamId: args.stream_id, streamName: args.stream, topic: args.topic, op: args.op });
    return {};
  },
});

/** Whether a user is subscribed to a channel the requester has metadata access to (level 12). */
const subscriptionStatus = authed({
  since: FEATURES.IS_SUBSCRIBED_ENDPOINT,
  params: {},
  run({ world, user, path }) {
    const target = accessUserById(world, user, Number(path.get('user_id')), { allowDeactivated: false, allowBots: false });
    const stream = accessChannelById(world, user, Number(path.get('stream_id')), { metadata: true });
    return { is_subscribed: isSubscribed(world, target.id, stream.id) };
  },
});

/** Administrators only, checked before the parameters are read. */
const administratorsOnly = ({ user }: AuthedContext): void => {
  if (!isAdministrator(user)) throw mustBeAdministrator();
};

const addDefault = authed({
  gate: administratorsOnly,
  params: { stream_id: json(int).required() },
  run({ world, user }, args) {
    addDefaultChannel(world, user, args.stream_id);
    return {};
  },
});

const removeDefault = authed({
  gate: administratorsOnly,
  params: { stream_id: json(int).required() },
  run({ world, user }, args) {
    removeDefaultChannel(world, user, args.stream_id);
    return {};
  },
});

export const routes: RouteDef[] = [
  { path: '/users/me/subscriptions/properties', methods: { POST: updateProperties } },
  { path: '/users/me/subscriptions/muted_topics', methods: { PATCH: mutedTopics } },
  { path: '/users/{user_id:int}/subscriptions/{stream_id:int}', methods: { GET: subscriptionStatus } },
  { path: '/default_streams', methods: { POST: addDefault, DELETE: removeDefault } },
];
