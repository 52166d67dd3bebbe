/** `POST /user_topics`: a user's visibility policy for one topic (sections 3.1, 4.4). */
import { setUserTopicVisibility } from '../../../lib/actions/personal/user-topics.js';
import { FEATURES } from '../../../lib/features/feature-levels.js';
import { int, invalidValue, oneOf } from '../../../lib/input/schema.js';
import { MAX_TOPIC_LENGTH, renameGeneralChat } from '../../../lib/input/topic-names.js';
import { authed, type RouteDef } from '../../app/endpoint.js';
import { json, str } from '../../app/params.js';

const updateUserTopic = authed({
  since: FEATURES.USER_TOPICS_ENDPOINT,
  params: {
    stream_id: json(int).required(),
    // Not stripped, unlike the topic of a typing notification.
    topic: str({ maxLength: MAX_TOPIC_LENGTH }).required(),
    visibility_policy: json(oneOf(int, [0, 1, 2, 3])).required(),
  },
  run({ world, user }, args) {
    // Followed (3) exists from level 219; below it the value is outside the allowed set.
    if (args.visibility_policy === 3 && !world.has(FEATURES.FOLLOWED_TOPICS)) {
      throw invalidValue('visibility_policy', 'Not in the list of possible values');
    }
    // The empty-topic display name means "" from level 334 (section 1, convention 6).
    const topic = renameGeneralChat(world, args.topic);
    setUserTopicVisibility(world, user, args.stream_id, topic, args.visibility_policy);
    return {};
  },
});

export const routes: RouteDef[] = [{ path: '/user_topics', methods: { POST: updateUserTopic } }];
